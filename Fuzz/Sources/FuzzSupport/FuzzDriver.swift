import Glibc

// swift-format-ignore: AlwaysUseLowerCamelCase
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32

/// Hands the process to libFuzzer with `callback` as the target (the executable's `main` calls this).
public func runFuzzer(_ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32) -> Never {
    var argc = CommandLine.argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
    exit(LLVMFuzzerRunDriver(&argc, &argv, callback))
}

/// The input as a byte array (libFuzzer may pass a null pointer for empty input).
public func fuzzBytes(_ data: UnsafePointer<UInt8>?, _ size: Int) -> [UInt8] {
    guard let data, size > 0 else { return [] }
    return Array(UnsafeBufferPointer(start: data, count: size))
}
