import LayoutJSON

/// Applies a change set to the record it was made against, giving the target record's exact bytes (a renderer's view).
public struct ChangeSetApplier: Sendable {
    public init() {}

    static let reader = JSONReader(maxDepth: 1024)

    /// The record `changeSet` produces from `base` (nil or ignored for a change set from empty); checks both hashes.
    /// Given its own target (a duplicate delivery), it returns `base` unchanged.
    public func apply(_ changeSet: [UInt8], to base: [UInt8]?) throws(LayoutDiffError) -> [UInt8] {
        let cs: JSONDocument
        do {
            cs = try Self.reader.read(changeSet)
        } catch {
            throw .invalidChangeSet("invalid JSON at byte \(error.offset): \(error.message)")
        }
        let root = cs.root
        guard cs.kind(root) == .object else { throw .invalidChangeSet("the root is not an object") }
        guard let v = cs.value(root, "version").flatMap(cs.int), v == ChangeSet.formatVersion else {
            throw .invalidChangeSet("unsupported or missing `version` (this applier reads \(ChangeSet.formatVersion))")
        }
        guard
            let target = cs.value(root, "target").flatMap({ cs.value($0, "hash") }).flatMap(cs.string).flatMap(
                ContentHash.init(hex:))
        else {
            throw .invalidChangeSet("no `target.hash`")
        }
        guard let baseNode = cs.value(root, "base") else { throw .invalidChangeSet("no `base`") }
        let old: RecordOutline
        if cs.kind(baseNode) == .null {
            old = RecordOutline.empty()
        } else {
            guard let expected = cs.value(baseNode, "hash").flatMap(cs.string).flatMap(ContentHash.init(hex:)) else {
                throw .invalidChangeSet("no `base.hash`")
            }
            guard let base else { throw .baseMismatch(expected: expected.description, actual: "(no record)") }
            old = try RecordOutline(bytes: base)
            // A change set delivered twice (at-least-once) finds its own target: applying it again changes nothing.
            if old.hash == target && old.hash != expected { return base }
            guard old.hash == expected else {
                throw .baseMismatch(expected: expected.description, actual: old.hash.description)
            }
        }
        let result: [UInt8]
        if let replace = cs.value(root, "replace") {
            result = Array(cs.raw(replace))
        } else {
            result = try patch(old, with: cs)
        }
        let actual = ContentHash(of: result)
        guard actual == target else { throw .targetMismatch(expected: target.description, actual: actual.description) }
        return result
    }

    private func patch(_ old: RecordOutline, with cs: JSONDocument) throws(LayoutDiffError) -> [UInt8] {
        let root = cs.root
        guard let record = cs.value(root, "record"), cs.kind(record) == .object else {
            throw .invalidChangeSet("no `record` object")
        }
        guard let sections = cs.value(root, "sections"), cs.kind(sections) == .object else {
            throw .invalidChangeSet("no `sections` object")
        }
        let od = old.document
        var changed: [[UInt8]: Int] = [:]
        for (k, v) in cs.members(record) { changed[Array(cs.raw(k))] = v }
        var w = JSONWriter(capacity: od.bytes.count + cs.bytes.count)
        w.beginObject()
        for (m, member) in old.members.enumerated() {
            w.key(raw: od.raw(member.key))
            if m == old.sectionsMember {
                try writeSections(old, sections, cs, &w)
            } else if let v = changed.removeValue(forKey: Array(od.raw(member.key))) {
                w.raw(cs.raw(v))
            } else {
                w.raw(od.raw(member.value))
            }
        }
        guard changed.isEmpty else { throw .invalidChangeSet("`record` names members the base record does not have") }
        w.endObject()
        return w.bytes
    }

    private func writeSections(_ old: RecordOutline, _ changes: Int, _ cs: JSONDocument, _ w: inout JSONWriter)
        throws(LayoutDiffError)
    {
        if let replace = cs.value(changes, "replace") {
            guard cs.kind(replace) == .array else { throw .invalidChangeSet("sections.replace is not an array") }
            w.raw(cs.raw(replace))
            return
        }
        let plan = try ListPlan(changes, in: cs, oldCount: old.sections.count, payload: "section", what: "sections")
        let od = old.document
        // New paths by new index, for sections that kept everything else.
        var paths: [Int: Int] = [:]
        if let list = cs.value(changes, "paths") {
            guard cs.kind(list) == .array else { throw .invalidChangeSet("sections.paths is not an array") }
            for entry in cs.elements(list) {
                guard let i = cs.value(entry, "index").flatMap(cs.int), i >= 0, i < plan.slots.count,
                    let path = cs.value(entry, "path"), cs.kind(path) == .string
                else {
                    throw .invalidChangeSet(
                        "sections.paths[] needs an `index` below \(plan.slots.count) and a string `path`")
                }
                paths[i] = path
            }
        }
        w.beginArray()
        for (p, slot) in plan.slots.enumerated() {
            switch slot {
            case .inserted(let node):
                w.raw(cs.raw(node))
            case .old(let i):
                let section = old.sections[i]
                let update = plan.updates[i]
                w.beginObject()
                if let head = update.flatMap({ cs.value($0, "section") }) {
                    guard cs.kind(head) == .object else {
                        throw .invalidChangeSet("sections.updates[].section is not an object")
                    }
                    for (k, v) in cs.members(head) {
                        w.key(raw: cs.raw(k))
                        if cs.stringEquals(k, RecordOutline.Keys.index) {
                            w.int(p)
                        } else if cs.stringEquals(k, RecordOutline.Keys.rows) {
                            try writeRows(section, od, update.flatMap { cs.value($0, "rows") }, cs, &w)
                        } else {
                            w.raw(cs.raw(v))
                        }
                    }
                } else {
                    for (m, member) in section.members.enumerated() {
                        w.key(raw: od.raw(member.key))
                        if m == section.indexMember {
                            w.int(p)
                        } else if m == section.pathMember, let path = paths[p] {
                            w.raw(cs.raw(path))
                        } else if m == section.rowsMember {
                            try writeRows(section, od, update.flatMap { cs.value($0, "rows") }, cs, &w)
                        } else {
                            w.raw(od.raw(member.value))
                        }
                    }
                }
                w.endObject()
            }
        }
        w.endArray()
    }

    private func writeRows(
        _ section: RecordOutline.Section, _ od: JSONDocument, _ changes: Int?, _ cs: JSONDocument,
        _ w: inout JSONWriter
    ) throws(LayoutDiffError) {
        guard let changes else {
            w.raw(od.raw(section.members[section.rowsMember].value))
            return
        }
        guard cs.kind(changes) == .object else { throw .invalidChangeSet("rows changes are not an object") }
        if let replace = cs.value(changes, "replace") {
            guard cs.kind(replace) == .array else { throw .invalidChangeSet("rows.replace is not an array") }
            w.raw(cs.raw(replace))
            return
        }
        let plan = try ListPlan(changes, in: cs, oldCount: section.rows.count, payload: "row", what: "rows")
        w.beginArray()
        for slot in plan.slots {
            switch slot {
            case .inserted(let node): w.raw(cs.raw(node))
            case .old(let i):
                if let update = plan.updates[i] {
                    guard let row = cs.value(update, "row") else {
                        throw .invalidChangeSet("rows.updates[] has no `row`")
                    }
                    w.raw(cs.raw(row))
                } else {
                    w.raw(od.raw(section.rows[i].node))
                }
            }
        }
        w.endArray()
    }
}
