public import LayoutCompiler
import Synchronization

/// The compiler the worker uses, and the config hash it names in its records; a reload puts a new one in, and the
/// worker takes it up before its next batch (never within one), so each record is made by exactly one config.
public final class CompilerSlot: Sendable {
    /// A compiler, the hash of the config it was made from, and its place in the sequence of reloads.
    public struct Compiler: Sendable {
        public let compiler: LayoutCompiler
        public let configHash: String
        public let generation: Int
    }

    private let current: Mutex<Compiler>

    public init(_ compiler: LayoutCompiler, configHash: String) {
        current = Mutex(Compiler(compiler: compiler, configHash: configHash, generation: 0))
    }

    /// The compiler in use now.
    public var compiler: Compiler { current.withLock { $0 } }

    /// Puts in a new compiler; returns its generation.
    @discardableResult
    public func replace(with compiler: LayoutCompiler, configHash: String) -> Int {
        current.withLock {
            $0 = Compiler(compiler: compiler, configHash: configHash, generation: $0.generation + 1)
            return $0.generation
        }
    }

    /// The compiler in use, if it is newer than `generation`.
    public func newer(than generation: Int) -> Compiler? {
        current.withLock { $0.generation > generation ? $0 : nil }
    }
}
