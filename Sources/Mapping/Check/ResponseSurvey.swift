public import ContentTree
public import LayoutJSON

/// What a set of responses holds, as far as a mapping config is concerned: their content types and each one's
/// fields, their rows' types (each level of the renderer chain) with the fields and attribute names of their
/// models, and which renderer every row and supplementary view got. `check` fills it from the responses it is
/// given, then `ConfigChecker.findings(_:against:)` compares the config with it: a type no response has, a
/// mapping that matched nothing, a rows field or a condition's attribute that no item or model has.
public struct ResponseSurvey: Sendable {
    /// Responses added.
    public private(set) var responses = 0
    /// Content items by type.
    public private(set) var contentTypes: [String: Int] = [:]
    /// Every top-level field name of the items of each content type.
    public private(set) var itemFields: [String: Set<String>] = [:]
    /// Rows by each type of their chain (their model's class short and full names, their section's type and
    /// adaptor).
    public private(set) var rowTypes: [String: Int] = [:]
    /// Every top-level field of the rows' models, by the types of their chain.
    public private(set) var modelFields: [String: Set<String>] = [:]
    /// Every name in the rows' models' `attributes`, by the types of their chain.
    public private(set) var attributeNames: [String: Set<String>] = [:]
    /// (type, renderer) for every row, each type of its chain; (kind, type, renderer) for supplementary views.
    private(set) var rendered: Set<[String]> = []

    public init() {}

    /// A response's content items and their fields.
    public mutating func addResponse(_ tree: ContentTree) {
        responses += 1
        let doc = tree.document
        for item in tree.items {
            contentTypes[item.type, default: 0] += 1
            var fields = itemFields[item.type] ?? []
            for (key, _) in doc.members(item.node) { if let name = doc.string(key) { fields.insert(name) } }
            itemFields[item.type] = fields
        }
    }

    /// A row of a section of `sectionType` made by `adaptor`, its model node `model` in `doc`, and the renderer it
    /// got (nil: none).
    public mutating func addRow(
        model: Int, in doc: JSONDocument, sectionType: String, adaptor: String, renderer: String?
    ) {
        var chain: [String] = []
        if let classNode = doc.value(model, "@class"), doc.kind(classNode) == .string {
            chain = RendererResolver.classTypes(doc.decodedStringBytes(classNode))
        }
        for t in [sectionType, adaptor] where !chain.contains(t) { chain.append(t) }
        var fields: Set<String> = []
        var attributes: Set<String> = []
        for (key, value) in doc.members(model) {
            guard let name = doc.string(key) else { continue }
            fields.insert(name)
            if name == "attributes" {
                for (attribute, _) in doc.members(value) { if let a = doc.string(attribute) { attributes.insert(a) } }
            }
        }
        for t in chain {
            rowTypes[t, default: 0] += 1
            modelFields[t, default: []].formUnion(fields)
            attributeNames[t, default: []].formUnion(attributes)
            if let renderer { rendered.insert([t, renderer]) }
        }
    }

    /// A supplementary view of `kind` for a section of `sectionType` made by `adaptor`, and its renderer.
    public mutating func addSupplementary(kind: String, sectionType: String, adaptor: String, renderer: String?) {
        guard let renderer else { return }
        for t in [sectionType, adaptor] { rendered.insert([kind, t, renderer]) }
    }

    /// Whether some row of one of `types` got `renderer`.
    func rendered(_ renderer: String, forAnyOf types: [String]) -> Bool {
        types.contains { rendered.contains([$0, renderer]) }
    }

    /// Whether some section of one of `types` got a `kind` view drawn by `renderer`.
    func rendered(_ kind: String, _ renderer: String, forAnyOf types: [String]) -> Bool {
        types.contains { rendered.contains([kind, $0, renderer]) }
    }

    /// Every type a mapping can name that these responses have: content types and the rows' chain types.
    public var types: Set<String> { Set(contentTypes.keys).union(rowTypes.keys) }
}
