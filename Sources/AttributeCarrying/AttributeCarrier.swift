public import Adaptors
public import LayoutCompiler
public import LayoutDiff
import LayoutJSON

/// Carries section attributes from a page's previous layout into its new record (EMAdaptorManager's
/// `adaptorAttributes`): each adaptor names the attributes it carries (`ContentItemAdaptor.carriedAttributes`) and
/// how to merge them. It needs the previous layout, so it belongs to the stages that keep one (change sets, `diff
/// --responses`), not to the pure compiler.
public struct AttributeCarrier: Sendable {
    let registry: AdaptorRegistry
    /// Carries declared per content type (a config's `carry`), replacing the adaptor's own of the same name.
    let declared: [String: [AttributeCarry]]

    /// A carrier for the adaptors of `registry` (the compiler's, so types map to the same adaptors) and the carries
    /// `declared` per content type (`MappingConfig.carriedAttributes()`).
    public init(registry: AdaptorRegistry, declared: [String: [AttributeCarry]] = [:]) {
        self.registry = registry
        self.declared = declared
    }

    /// The carrier for the records `compiler` makes: its adaptors' carries and its config's `carry` declarations
    /// (what `serve --changes-topic`, `diff --responses` and `preview` all carry).
    public init(for compiler: LayoutCompiler) {
        self.init(registry: compiler.registry, declared: compiler.config.carriedAttributes())
    }

    /// The carries for sections of `type`: the adaptor's, with the declared ones replacing those of the same name.
    func carries(for type: String) -> [AttributeCarry] {
        let own = registry.adaptor(for: type).carriedAttributes
        guard let declared = declared[type] else { return own }
        return own.filter { carry in !declared.contains { $0.name == carry.name } } + declared
    }

    /// `record` with the attributes its adaptors carry taken over from `previous` (same section ids); nil when none change.
    public func carry(into record: RecordOutline, from previous: RecordOutline) -> [UInt8]? {
        let doc = record.document, prev = previous.document
        var previousByID: [ArraySlice<UInt8>: RecordOutline.Section]?
        // Per changed section: the attributes member's position and the new value of each carried attribute.
        var replacements: [Int: (member: Int, values: [(key: Int, json: [UInt8])])] = [:]
        for (n, section) in record.sections.enumerated() {
            guard let typeNode = doc.value(section.node, Self.typeKey), let type = doc.string(typeNode) else {
                continue
            }
            let carries = carries(for: type)
            guard !carries.isEmpty,
                let attrMember = section.members.firstIndex(where: { doc.stringEquals($0.key, Self.attributesBytes) })
            else { continue }
            if previousByID == nil {
                previousByID = Dictionary(
                    previous.sections.map { (prev.raw($0.id), $0) }, uniquingKeysWith: { a, _ in a })
            }
            guard let old = previousByID?[doc.raw(section.id)], let oldAttrs = prev.value(old.node, Self.attributesKey),
                prev.kind(oldAttrs) == .object
            else { continue }
            let attrs = section.members[attrMember].value
            var values: [(key: Int, json: [UInt8])] = []
            for carry in carries {
                let key = JSONKey(carry.name)
                guard let oldValue = prev.value(oldAttrs, key), let current = doc.value(attrs, key),
                    let merged = carry.merge(prev, oldValue, doc, attrs), !merged.elementsEqual(doc.raw(current))
                else { continue }
                values.append((current - 1, merged))
            }
            if !values.isEmpty { replacements[n] = (attrMember, values) }
        }
        guard !replacements.isEmpty else { return nil }
        var w = JSONWriter(capacity: doc.bytes.count + 256)
        w.beginObject()
        for (m, member) in record.members.enumerated() {
            w.key(raw: doc.raw(member.key))
            guard m == record.sectionsMember else {
                w.raw(doc.raw(member.value))
                continue
            }
            w.beginArray()
            for (n, section) in record.sections.enumerated() {
                guard let change = replacements[n] else {
                    w.raw(doc.raw(section.node))
                    continue
                }
                w.beginObject()
                for (k, sm) in section.members.enumerated() {
                    w.key(raw: doc.raw(sm.key))
                    guard k == change.member else {
                        w.raw(doc.raw(sm.value))
                        continue
                    }
                    w.beginObject()
                    for (ak, av) in doc.members(sm.value) {
                        w.key(raw: doc.raw(ak))
                        if let v = change.values.first(where: { $0.key == ak }) {
                            w.raw(v.json)
                        } else {
                            w.raw(doc.raw(av))
                        }
                    }
                    w.endObject()
                }
                w.endObject()
            }
            w.endArray()
        }
        w.endObject()
        return w.bytes
    }

    static let typeKey: JSONKey = "type"
    static let attributesKey: JSONKey = "attributes"
    static let attributesBytes: [UInt8] = Array("attributes".utf8)
}
