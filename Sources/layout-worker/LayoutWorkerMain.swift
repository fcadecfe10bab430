import LayoutWorkerCLI

/// The `layout-worker` executable. The whole command line lives in LayoutWorkerCLI, so a program that embeds it
/// (with a tracer bootstrapped, for example) behaves exactly like this one.
@main
enum LayoutWorkerMain {
    static func main() async {
        ProcessAllocator.keepLargeBlocksInTheHeap()
        await LayoutWorkerCommand.main(nil)
    }
}
