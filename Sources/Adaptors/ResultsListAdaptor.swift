public import ContentTree
import LayoutJSON

/// Results lists: a row per record; paging, sort options and totals as section attributes.
public struct ResultsListAdaptor: ContentItemAdaptor {
    public let name = AdaptorName.resultsList.rawValue
    /// How record ids are found.
    public var reader = RowReader(idPaths: [
        .known(#"attributes["product.repositoryId"][0]"#),
        .known(#"attributes["record.id"][0]"#),
        .known(#"attributes["sku.repositoryId"][0]"#),
        .known("detailsAction.recordState"),
    ])

    public init() {}

    static let records: JSONKey = "records"
    static let totalNumRecs: JSONKey = "totalNumRecs"
    static let recsPerPage: JSONKey = "recsPerPage"
    static let firstRecNum: JSONKey = "firstRecNum"
    static let lastRecNum: JSONKey = "lastRecNum"
    static let pagingActionTemplate: JSONKey = "pagingActionTemplate"
    static let sortOptions: JSONKey = "sortOptions"
    static let selected: JSONKey = "selected"
    static let label: JSONKey = "label"

    public func adapt(_ item: ContentItem, in tree: ContentTree, options: AdaptorOptions) -> AdaptedSection {
        let doc = tree.document
        var (section, readable) = reader.section(from: Self.records, of: item, in: doc)
        guard readable else { return section }
        if section.rows.isEmpty { section.placeholder = .noResults }
        var unusable: [String] = []
        func number(_ key: JSONKey) -> Int? {
            guard let node = doc.value(item.node, key), doc.kind(node) == .number else { return nil }
            if let n = doc.int(node) { return n }
            unusable.append("\(key) \(String(decoding: doc.raw(node).prefix(40), as: UTF8.self))")
            return nil
        }
        let total = number(Self.totalNumRecs), perPage = number(Self.recsPerPage)
        let first = number(Self.firstRecNum), last = number(Self.lastRecNum)
        let facts = PagingFacts(total: total, perPage: perPage, first: first, last: last)
        unusable += facts.problems
        if !unusable.isEmpty {
            section.diagnostics.append(
                Diagnostic(
                    .warning, .pagingOutOfRange, path: item.path,
                    "\(item.type) paging numbers out of range (\(unusable.joined(separator: ", "))); paging facts may be incomplete"
                ))
        }
        section.attributes.reserveCapacity(7)
        if let total { section.attributes.append(Attribute("totalNumRecs", .int(total))) }
        if let perPage { section.attributes.append(Attribute("recsPerPage", .int(perPage))) }
        if let first { section.attributes.append(Attribute("firstRecNum", .int(first))) }
        if let last { section.attributes.append(Attribute("lastRecNum", .int(last))) }
        if let first, let last, first >= 1, last >= first {
            section.attributes.append(
                Attribute("pagingWindow", .object([Attribute("first", .int(first)), Attribute("last", .int(last))])))
        }
        if let template = doc.value(item.node, Self.pagingActionTemplate).flatMap({
            RowAction.read($0, in: doc, as: .navigate)
        }) {
            section.attributes.append(Attribute("paging", paging(template: template, in: doc, facts: facts)))
        }
        if let sorts = doc.value(item.node, Self.sortOptions), doc.kind(sorts) == .array {
            var options: [AttributeValue] = []
            options.reserveCapacity(Int(doc.nodes[sorts].count))
            for option in doc.elements(sorts) {
                var fields: [Attribute] = []
                fields.reserveCapacity(3)
                fields.append(
                    Attribute(
                        "label", doc.value(option, Self.label).flatMap(doc.string).map(AttributeValue.string) ?? .null))
                fields.append(Attribute("selected", .bool(doc.value(option, Self.selected).flatMap(doc.bool) ?? false)))
                if let action = RowAction.read(option, in: doc, as: .navigate) {
                    fields.append(Attribute("action", .action(action)))
                }
                options.append(.object(fields))
            }
            section.attributes.append(Attribute("sortOptions", .list(options)))
        }
        return section
    }

    /// The records loaded so far across reloads: a page that continues the previous window extends it
    /// (infinite scrolling), a page inside it keeps it, any other page starts a new window.
    public var carriedAttributes: [AttributeCarry] { [AttributeMerge.window.carry(named: "pagingWindow")] }

    /// Paging facts and ready-made previous/next actions from the `{offset}` template.
    func paging(template: RowAction, in doc: JSONDocument, facts: PagingFacts) -> AttributeValue {
        let templateText = template.targetText(in: doc)
        var fields: [Attribute] = [Attribute("template", .string(templateText))]
        guard let numbers = facts.numbers else { return .object(fields) }
        fields.append(Attribute("page", .int(numbers.page)))
        fields.append(Attribute("pageCount", .int(numbers.pageCount)))
        let perPageText = String(numbers.perPage)
        // A filled-in action is computed text, so it is written as an object with an action's fields.
        func action(offset: Int) -> AttributeValue {
            let offsetText = String(offset)
            var action = [
                Attribute("kind", .string(template.kind.rawValue)),
                Attribute(
                    "target", .string(templateText.replacingPagingPlaceholders { $0 == 0 ? offsetText : perPageText })),
            ]
            if case .node(let n) = template.siteRootPath { action.append(Attribute("siteRootPath", .json(node: n))) }
            if case .node(let n) = template.label { action.append(Attribute("label", .json(node: n))) }
            return .object(action)
        }
        fields.append(Attribute("previous", numbers.previousOffset.map(action(offset:)) ?? .null))
        fields.append(Attribute("next", numbers.nextOffset.map(action(offset:)) ?? .null))
        return .object(fields)
    }
}

extension String {
    /// The paging template placeholders, each with the index of the value that replaces it: the offset (0) or
    /// the records per page (1). Made once: every `Array(_.utf8)` allocates.
    static let pagingPlaceholders: [(pattern: [UInt8], value: Int)] = [
        (Array("%7Boffset%7D".utf8), 0), (Array("{offset}".utf8), 0),
        (Array("%7BrecordsPerPage%7D".utf8), 1), (Array("{recordsPerPage}".utf8), 1),
    ]

    /// This string with every paging placeholder replaced by `value(index)`, in one pass over the bytes (no
    /// Foundation). Placeholders start with `%` or `{`; the text between them is copied in runs.
    func replacingPagingPlaceholders(_ value: (Int) -> String) -> String {
        let patterns = Self.pagingPlaceholders
        var s = self
        return s.withUTF8 { bytes in
            var out: [UInt8] = []
            out.reserveCapacity(bytes.count + 16)
            var runStart = 0
            var i = 0
            scan: while i < bytes.count {
                let b = bytes[i]
                guard b == UInt8(ascii: "%") || b == UInt8(ascii: "{") else {
                    i += 1
                    continue
                }
                for (pattern, index) in patterns
                where pattern.count <= bytes.count - i && pattern.first == b
                    && (pattern.count < 2 || pattern[1] == bytes[i + 1])
                    && pattern.withUnsafeBufferPointer({
                        memcmpEqual($0.baseAddress!, bytes.baseAddress! + i, pattern.count)
                    })
                {
                    out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<i]))
                    out.append(contentsOf: value(index).utf8)
                    i += pattern.count
                    runStart = i
                    continue scan
                }
                i += 1
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<bytes.count]))
            return String(decoding: out, as: UTF8.self)
        }
    }
}
