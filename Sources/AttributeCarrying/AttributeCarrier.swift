public import Adaptors
public import LayoutCompiler
import LayoutJSON
public import LayoutRecord

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

    /// `record` with the attributes its adaptors carry taken over from `previous` (same section ids); nil when none
    /// change. Only the attributes objects are read (each on its own, a few bytes); a changed one is put in place
    /// and the outline moved with it, so the record is never read back whole.
    public func carry(into record: RecordOutline, from previous: RecordOutline) -> RecordOutline? {
        var previousByID: [ArraySlice<UInt8>: Int]?
        var replacements: [(range: Range<Int>, with: [UInt8])] = []
        for section in record.sections {
            guard let attrMember = section.attributesMember, let type = record.type(of: section) else { continue }
            let carries = carries(for: type)
            guard !carries.isEmpty else { continue }
            if previousByID == nil {
                previousByID = Dictionary(
                    previous.sections.indices.map { (previous.raw(previous.sections[$0].id), $0) },
                    uniquingKeysWith: { a, _ in a })
            }
            guard let o = previousByID?[record.raw(section.id)],
                let oldMember = previous.sections[o].attributesMember,
                let prev = try? Self.reader.read(
                    Array(previous.raw(previous.member(oldMember, of: previous.sections[o]).value))),
                prev.kind(prev.root) == .object
            else { continue }
            let range = record.member(attrMember, of: section).value
            guard let doc = try? Self.reader.read(Array(record.raw(range))) else { continue }
            let attrs = doc.root
            var values: [(key: Int, json: [UInt8])] = []
            for carry in carries {
                let key = JSONKey(carry.name)
                guard let oldValue = prev.value(prev.root, key), let current = doc.value(attrs, key),
                    let merged = carry.merge(prev, oldValue, doc, attrs), !merged.elementsEqual(doc.raw(current))
                else { continue }
                values.append((current - 1, merged))
            }
            guard !values.isEmpty else { continue }
            var w = JSONWriter(capacity: range.count + 256)
            w.beginObject()
            for (ak, av) in doc.members(attrs) {
                w.key(raw: doc.raw(ak))
                if let v = values.first(where: { $0.key == ak }) { w.raw(v.json) } else { w.raw(doc.raw(av)) }
            }
            w.endObject()
            replacements.append((range, w.bytes))
        }
        return replacements.isEmpty ? nil : record.replacing(replacements)
    }

    static let reader = JSONReader(maxDepth: 1024)
}
