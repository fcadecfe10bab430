import CAllocator

/// How the process's allocator treats large blocks, set once at start by the executable (and by a program that
/// embeds the command line, before it runs it).
///
/// glibc serves a block above its mmap threshold (128 KiB at first, raised as such blocks are freed, at most
/// 32 MiB) from a fresh mapping and unmaps it when it is freed. A large page's input, tape, sections and record
/// are such blocks, so every one was faulted in anew for every response: about 690 minor faults and 2 ms of system
/// time per 600 KB page, against 2 per 45 KB page. With the threshold at 32 MiB (glibc's largest; `mallopt` refuses
/// more, and inputs are 8 MiB at most by default) they come from the heap and are
/// reused from one response to the next, so faults per response stay flat; the heap's top goes back to the system
/// once 512 MiB of it is free, and memory stays bounded by what the process holds at its peak (for `serve`, the
/// in-flight byte budget).
public enum ProcessAllocator {
    /// Returns whether the allocator took the settings (false where it is not glibc's).
    @discardableResult
    public static func keepLargeBlocksInTheHeap() -> Bool {
        lw_allocator_keep_large_blocks(32 << 20, 512 << 20) == 1
    }

    /// For a long-running server whose memory is a cache (`gateway`): large blocks stay in the heap as above, and
    /// the heap's top goes back to the system once 16 MiB of it is free (the gateway also trims the free pages
    /// inside the heap after its cache lets pages go), so what the cache lets go leaves the process's resident
    /// memory instead of waiting in the heap. With blocks over 1 MiB in mappings of their own (tried), every
    /// decompressed fetch and every store write batch was faulted in anew: a catch-up of 100,000 45 KB layouts
    /// took 20–21 CPU-seconds against 14–15, and 16–18 s against 11–12 s, for a peak 20 MiB higher.
    @discardableResult
    public static func returnFreedMemory() -> Bool {
        lw_allocator_keep_large_blocks(32 << 20, 16 << 20) == 1
    }
}
