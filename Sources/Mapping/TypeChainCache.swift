/// The class part of the fallback chain worked out for one `@class`, kept while rows share it (in any section).
public struct TypeChainCache: Sendable {
    var valid = false
    /// The `@class` string node the entry was worked out for; -1 for rows without one.
    var classNode = -1
    /// The mapped types among the class's short name and full name, as `RendererResolver.rowTypes` indexes
    /// in chain order (-1: not mapped, or the same name as the other).
    var short = -1
    var full = -1

    public init() {}
}
