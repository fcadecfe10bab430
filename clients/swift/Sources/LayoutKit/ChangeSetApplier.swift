/// Applies a change set to the record it was made against, giving the target record's exact bytes. The one
/// implementation of the change-set format's apply rule: layout-worker's `apply` command and its tests use this
/// type too, so the server and its renderers cannot drift apart.
public struct ChangeSetApplier: Sendable {
    public init() {}

    /// The record `changeSet` produces from `base` (nil, or ignored, for a change set from empty; a line end after
    /// it is not part of it); checks both hashes. Given its own target (a duplicate delivery), it returns `base` unchanged. A `baseMismatch` error means
    /// the renderer missed a change set: fetch the full record.
    public func apply(_ changeSet: [UInt8], to base: [UInt8]?) throws(ChangeSetError) -> [UInt8] {
        let cs = try JSONText(changeSet, what: "change set")
        let root = cs.root
        guard cs.kind(root) == .object else { throw .invalidChangeSet("the root is not an object") }
        let top = try cs.values(
            root,
            [
                Wire.Key.version, Wire.Key.target, Wire.Key.base, Wire.Key.replace, Wire.Key.record, Wire.Key.sections,
                Wire.Key.kind,
            ])
        guard let v = cs.int(top[0]), v == Wire.formatVersion else {
            throw .invalidChangeSet("unsupported or missing `version` (this applier reads \(Wire.formatVersion))")
        }
        if let kind = top[6], cs.string(kind) != Wire.changeSetKind {
            throw .invalidChangeSet("not a change set: `kind` is not \"\(Wire.changeSetKind)\"")
        }
        guard let targetNode = top[1],
            let target = cs.string(try cs.value(targetNode, Wire.Key.hash)).flatMap({ ContentHash(hex: $0) })
        else {
            throw .invalidChangeSet("no `target.hash`")
        }
        guard let baseNode = top[2] else { throw .invalidChangeSet("no `base`") }
        let old: RecordText
        if cs.kind(baseNode) == .null {
            old = try RecordText(bytes: RecordText.emptyBytes)
        } else {
            guard let expected = cs.string(try cs.value(baseNode, Wire.Key.hash)).flatMap({ ContentHash(hex: $0) })
            else {
                throw .invalidChangeSet("no `base.hash`")
            }
            guard var base else { throw .baseMismatch(expected: expected.description, actual: "(no record)") }
            // A record read as a line (`compile`'s or `tail`'s output, a file) ends with its line end, which is not
            // part of the record.
            while let last = base.last, last == 0x0A || last == 0x0D { base.removeLast() }
            // A change set delivered twice (at-least-once) finds its own target: applying it again changes nothing.
            let actual = ContentHash(of: base)
            if actual == target && actual != expected { return base }
            guard actual == expected else {
                throw .baseMismatch(expected: expected.description, actual: actual.description)
            }
            old = try RecordText(bytes: base)
        }
        var out: [UInt8] = []
        if let replace = top[3] {
            out = Array(cs.raw(replace))
        } else {
            out.reserveCapacity(old.text.bytes.count + changeSet.count)
            try patch(old, record: top[4], sections: top[5], cs, into: &out)
        }
        let actual = ContentHash(of: out)
        guard actual == target else { throw .targetMismatch(expected: target.description, actual: actual.description) }
        return out
    }

    /// Writes the base with the change set's `record` members and `sections` changes applied.
    private func patch(
        _ old: RecordText, record: JSONText.Span?, sections: JSONText.Span?, _ cs: JSONText, into out: inout [UInt8]
    ) throws(ChangeSetError) {
        guard let record, cs.kind(record) == .object else {
            throw .invalidChangeSet("no `record` object")
        }
        guard let sections, cs.kind(sections) == .object else {
            throw .invalidChangeSet("no `sections` object")
        }
        let od = old.text
        var changed: [ArraySlice<UInt8>: JSONText.Span] = [:]
        for m in try cs.members(record) { changed[cs.raw(m.key)] = m.value }
        out.append(UInt8(ascii: "{"))
        for (n, member) in old.members.enumerated() {
            if n > 0 { out.append(UInt8(ascii: ",")) }
            out.append(contentsOf: od.raw(member.key))
            out.append(UInt8(ascii: ":"))
            if n == old.sectionsMember {
                try writeSections(old, sections, cs, &out)
            } else if let v = changed.removeValue(forKey: od.raw(member.key)) {
                out.append(contentsOf: cs.raw(v))
            } else {
                out.append(contentsOf: od.raw(member.value))
            }
        }
        guard changed.isEmpty else { throw .invalidChangeSet("`record` names members the base record does not have") }
        out.append(UInt8(ascii: "}"))
    }

    private func writeSections(_ old: RecordText, _ changes: JSONText.Span, _ cs: JSONText, _ out: inout [UInt8])
        throws(ChangeSetError)
    {
        let lists = try cs.values(changes, ListPlan.keys + [Wire.Key.replace, Wire.Key.paths])
        if let replace = lists[4] {
            guard cs.kind(replace) == .array else { throw .invalidChangeSet("sections.replace is not an array") }
            out.append(contentsOf: cs.raw(replace))
            return
        }
        let plan = try ListPlan(
            lists, in: cs, oldCount: old.sections.count, payload: Wire.Key.section, what: Wire.Key.sections)
        let od = old.text
        // New paths by new index, for sections that kept everything else.
        var paths: [Int: JSONText.Span] = [:]
        if let list = lists[5] {
            guard cs.kind(list) == .array else { throw .invalidChangeSet("sections.paths is not an array") }
            for entry in try cs.elements(list) {
                let v = try cs.values(entry, [Wire.Key.index, Wire.Key.path])
                guard let i = cs.int(v[0]), i >= 0, i < plan.slots.count, let path = v[1], cs.kind(path) == .string
                else {
                    throw .invalidChangeSet(
                        "sections.paths[] needs an `index` below \(plan.slots.count) and a string `path`")
                }
                paths[i] = path
            }
        }
        out.append(UInt8(ascii: "["))
        for (p, slot) in plan.slots.enumerated() {
            if p > 0 { out.append(UInt8(ascii: ",")) }
            switch slot {
            case .inserted(let node):
                out.append(contentsOf: cs.raw(node))
            case .old(let i):
                let section = old.sections[i]
                let update = plan.updates[i]
                let parts = try update.map { u throws(ChangeSetError) in
                    try cs.values(u, [Wire.Key.section, Wire.Key.rows])
                }
                let rowChanges = parts?[1]
                out.append(UInt8(ascii: "{"))
                if let head = parts?[0] {
                    guard cs.kind(head) == .object else {
                        throw .invalidChangeSet("sections.updates[].section is not an object")
                    }
                    for (n, m) in try cs.members(head).enumerated() {
                        if n > 0 { out.append(UInt8(ascii: ",")) }
                        out.append(contentsOf: cs.raw(m.key))
                        out.append(UInt8(ascii: ":"))
                        if cs.keyEquals(m.key, Wire.Key.index) {
                            out.append(contentsOf: String(p).utf8)
                        } else if cs.keyEquals(m.key, Wire.Key.rows) {
                            try writeRows(section, od, rowChanges, cs, &out)
                        } else {
                            out.append(contentsOf: cs.raw(m.value))
                        }
                    }
                } else {
                    for (n, member) in section.members.enumerated() {
                        if n > 0 { out.append(UInt8(ascii: ",")) }
                        out.append(contentsOf: od.raw(member.key))
                        out.append(UInt8(ascii: ":"))
                        if n == section.indexMember {
                            out.append(contentsOf: String(p).utf8)
                        } else if n == section.pathMember, let path = paths[p] {
                            out.append(contentsOf: cs.raw(path))
                        } else if n == section.rowsMember {
                            try writeRows(section, od, rowChanges, cs, &out)
                        } else {
                            out.append(contentsOf: od.raw(member.value))
                        }
                    }
                }
                out.append(UInt8(ascii: "}"))
            }
        }
        out.append(UInt8(ascii: "]"))
    }

    private func writeRows(
        _ section: RecordText.Section, _ od: JSONText, _ changes: JSONText.Span?, _ cs: JSONText,
        _ out: inout [UInt8]
    ) throws(ChangeSetError) {
        guard let changes else {
            out.append(contentsOf: od.raw(section.members[section.rowsMember].value))
            return
        }
        guard cs.kind(changes) == .object else { throw .invalidChangeSet("rows changes are not an object") }
        let lists = try cs.values(changes, ListPlan.keys + [Wire.Key.replace])
        if let replace = lists[4] {
            guard cs.kind(replace) == .array else { throw .invalidChangeSet("rows.replace is not an array") }
            out.append(contentsOf: cs.raw(replace))
            return
        }
        let plan = try ListPlan(lists, in: cs, oldCount: section.rows.count, payload: Wire.Key.row, what: Wire.Key.rows)
        out.append(UInt8(ascii: "["))
        for (p, slot) in plan.slots.enumerated() {
            if p > 0 { out.append(UInt8(ascii: ",")) }
            switch slot {
            case .inserted(let node): out.append(contentsOf: cs.raw(node))
            case .old(let i):
                if let update = plan.updates[i] {
                    guard let row = try cs.value(update, Wire.Key.row) else {
                        throw .invalidChangeSet("rows.updates[] has no `row`")
                    }
                    out.append(contentsOf: cs.raw(row))
                } else {
                    out.append(contentsOf: od.raw(section.rows[i]))
                }
            }
        }
        out.append(UInt8(ascii: "]"))
    }
}
