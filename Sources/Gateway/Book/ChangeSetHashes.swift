import LayoutJSON
public import LayoutKit

/// A change set's base and target hashes (the record it applies to, null for the empty record, and the one it
/// leads to): all the gateway reads of it.
public struct ChangeSetHashes: Sendable, Equatable {
    public var base: ContentHash?
    /// The target's hash and position (its `offset`, when the change set has one).
    public var target: StreamPosition

    /// Reads them; nil when the bytes are not a change set with a target hash.
    public init?(_ bytes: [UInt8]) {
        guard let doc = try? JSONReader().read(bytes), doc.kind(doc.root) == .object,
            let kind = doc.value(doc.root, Self.kind), doc.string(kind) == Wire.changeSetKind,
            let targetIdentity = doc.value(doc.root, Self.target), let target = Self.hash(doc, targetIdentity)
        else { return nil }
        let offset = doc.value(targetIdentity, Self.offsetKey).flatMap { doc.int($0) }.map(Int64.init)
        self.target = StreamPosition(hash: target, offset: offset)
        guard let base = doc.value(doc.root, Self.base), doc.kind(base) != .null else {
            self.base = nil
            return
        }
        guard let hash = Self.hash(doc, base) else { return nil }
        self.base = hash
    }

    private static func hash(_ doc: JSONDocument, _ identity: Int?) -> ContentHash? {
        guard let identity, doc.kind(identity) == .object, let h = doc.value(identity, Self.hashKey),
            let text = doc.string(h)
        else { return nil }
        return ContentHash(hex: text)
    }

    static let kind = JSONKey(Wire.Key.kind)
    static let target = JSONKey(Wire.Key.target)
    static let base = JSONKey(Wire.Key.base)
    static let hashKey = JSONKey(Wire.Key.hash)
    static let offsetKey = JSONKey(Wire.Key.offset)
}
