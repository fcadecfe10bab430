/// Lets `concurrentPerform` write each result into its own slot of one buffer: every index is written by exactly
/// one iteration and read only after `concurrentPerform` returns, so no slot is shared between threads.
struct UnsafeMutableSendableBuffer<T>: @unchecked Sendable {
    let buffer: UnsafeMutableBufferPointer<T>
    init(_ buffer: UnsafeMutableBufferPointer<T>) { self.buffer = buffer }
}
