#ifndef LAYOUT_WORKER_CALLOCATOR_H
#define LAYOUT_WORKER_CALLOCATOR_H

/// Serves blocks up to `mmap_threshold` bytes from the heap (not fresh mappings) and gives the heap's top back to
/// the system once `trim_threshold` bytes of it are free. glibc only (`mallopt`); elsewhere it does nothing.
/// Returns 1 when both settings were taken.
int lw_allocator_keep_large_blocks(int mmap_threshold, int trim_threshold);
/// Gives every free page of every arena back to the system (glibc's malloc_trim(0): the middle of the heap too, not
/// only its top). Returns 1 when memory was released; elsewhere it does nothing and returns 0.
int lw_allocator_trim(void);

#endif
