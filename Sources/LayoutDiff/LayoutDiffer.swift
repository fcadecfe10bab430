import LayoutJSON
import LayoutKit
public import LayoutRecord

/// Diffs two layout records into a change set: sections and rows matched by id, in time linear in their number.
public struct LayoutDiffer: Sendable {
    public init() {}

    /// The change set that turns `old` (nil: the empty record) into `new`; `key` names the page it belongs to.
    public func diff(from old: RecordOutline?, to new: RecordOutline, key: String?) -> ChangeSet {
        let base = old ?? RecordOutline.empty()
        var summary = ChangeSummary()
        var w = JSONWriter(capacity: 4096)
        w.beginObject()
        w.key(Wire.Key.version); w.int(ChangeSet.formatVersion)
        w.key(Wire.Key.kind); w.string(ChangeSet.kind)
        w.key(Wire.Key.key); w.string(orNull: key)
        w.key(Wire.Key.base)
        // Each record's hash is computed once here (an outline computes it when asked).
        let from = old?.identity, target = new.identity
        if let from { writeIdentity(from, &w) } else { w.null() }
        w.key(Wire.Key.target); writeIdentity(target, &w)
        var diagnostics: [(code: String, path: String, message: String)] = []
        // Records of different versions differ in shape: the new one replaces the old whole.
        if sameMemberNames(base, new) && sameVersion(base, new) {
            w.key(Wire.Key.record)
            w.beginObject()
            for (m, (a, b)) in zip(base.members, new.members).enumerated() where m != new.sectionsMember {
                if !sameBytes(base.raw(a.value), new.raw(b.value)) {
                    w.key(raw: new.raw(b.key))
                    w.raw(new.raw(b.value))
                    summary.recordMembers += 1
                }
            }
            w.endObject()
            w.key(Wire.Key.sections)
            diffSections(base, new, &w, &summary, &diagnostics)
        } else {
            w.key(Wire.Key.replace)
            w.raw(new.bytes)
            summary.replacedRecord = true
        }
        w.key(Wire.Key.diagnostics)
        w.beginArray()
        for d in diagnostics {
            w.beginObject()
            w.key(Wire.Key.code); w.string(d.code)
            w.key(Wire.Key.path); w.string(d.path)
            w.key(Wire.Key.message); w.string(d.message)
            w.endObject()
        }
        w.endArray()
        w.endObject()
        return ChangeSet(bytes: w.bytes, base: from, target: target, summary: summary)
    }

    /// Whether `new` lays out exactly what `old` does: every top-level member the same byte for byte except
    /// `source` (which input made it). The same response published again, or refreshed unchanged, makes one.
    public func sameLayout(_ old: RecordOutline, _ new: RecordOutline) -> Bool {
        guard sameMemberNames(old, new) else { return false }
        for (a, b) in zip(old.members, new.members) where !sameBytes(new.raw(b.key), Self.sourceKey[...]) {
            if !sameBytes(old.raw(a.value), new.raw(b.value)) { return false }
        }
        return true
    }

    /// The `source` member's key token, quotes included.
    static let sourceKey = Array("\"\(Wire.Key.source)\"".utf8)

    private func writeIdentity(_ id: RecordIdentity, _ w: inout JSONWriter) {
        w.beginObject()
        w.key(Wire.Key.offset)
        if let o = id.offset { w.int(Int(o)) } else { w.null() }
        w.key(Wire.Key.hash); w.string(id.hash.description)
        w.endObject()
    }

    private func sameVersion(_ a: RecordOutline, _ b: RecordOutline) -> Bool {
        guard let x = a.versionMember, let y = b.versionMember else {
            return a.versionMember == nil && b.versionMember == nil
        }
        return sameBytes(a.raw(a.members[x].value), b.raw(b.members[y].value))
    }

    private func sameMemberNames(_ a: RecordOutline, _ b: RecordOutline) -> Bool {
        guard a.members.count == b.members.count, a.sectionsMember == b.sectionsMember else { return false }
        for (x, y) in zip(a.members, b.members) where !sameBytes(a.raw(x.key), b.raw(y.key)) {
            return false
        }
        return true
    }

    private func diffSections(
        _ old: RecordOutline, _ new: RecordOutline, _ w: inout JSONWriter, _ summary: inout ChangeSummary,
        _ diagnostics: inout [(code: String, path: String, message: String)]
    ) {
        let od = old, nd = new
        let list = ListDiff(old: old.sections.map(\.id), in: od.bytes, new: new.sections.map(\.id), in: nd.bytes)
        guard
            beginListChanges(
                list, wholeList: nd.raw(new.members[new.sectionsMember].value), itemKey: Wire.Key.section,
                item: { nd.raw(new.sections[$0].node) }, name: "sections",
                counters: (\.sectionDeletes, \.sectionInserts, \.sectionMoves), &w, &summary, &diagnostics)
        else { return }
        // Sections whose only change is where their item sits in the response (`path`, like `index`, is positional).
        var moved: [Int] = []
        for (i, j) in list.matches {
            let a = old.sections[i], b = new.sections[j]
            let headChanged = !sameHead(a, od, b, nd)
            let rowsChanged = !sameBytes(
                od.raw(od.member(a.rowsMember, of: a).value), nd.raw(nd.member(b.rowsMember, of: b).value))
            if !headChanged, let p = a.pathMember, let q = b.pathMember,
                !sameBytes(od.raw(od.member(p, of: a).value), nd.raw(nd.member(q, of: b).value))
            {
                moved.append(j)
            }
            guard headChanged || rowsChanged else { continue }
            summary.sectionUpdates += 1
            w.beginObject()
            w.key(Wire.Key.from); w.int(i)
            w.key(Wire.Key.to); w.int(j)
            w.key(Wire.Key.id); w.raw(nd.raw(b.id))
            if headChanged {
                w.key(Wire.Key.section)
                w.beginObject()
                // Every member but the rows; `"rows":null` keeps their place.
                for m in 0..<b.memberCount {
                    let member = nd.member(m, of: b)
                    w.key(raw: nd.raw(member.key))
                    if m == b.rowsMember { w.null() } else { w.raw(nd.raw(member.value)) }
                }
                w.endObject()
            }
            if rowsChanged {
                w.key(Wire.Key.rows)
                diffRows(a, od, b, nd, &w, &summary, &diagnostics)
            }
            w.endObject()
        }
        w.endArray()
        w.key(Wire.Key.paths)
        w.beginArray()
        for j in moved.sorted() {
            w.beginObject()
            w.key(Wire.Key.index); w.int(j)
            let section = new.sections[j]
            w.key(Wire.Key.path); w.raw(nd.raw(nd.member(section.pathMember!, of: section).value))
            w.endObject()
        }
        w.endArray()
        summary.sectionPaths += moved.count
        w.endObject()
    }

    /// True when two sections agree on every member but `index`, `path` and `rows`.
    private func sameHead(
        _ a: RecordOutline.Section, _ ad: RecordOutline, _ b: RecordOutline.Section, _ bd: RecordOutline
    ) -> Bool {
        guard a.memberCount == b.memberCount, a.indexMember == b.indexMember, a.rowsMember == b.rowsMember,
            a.pathMember == b.pathMember
        else {
            return false
        }
        for m in 0..<a.memberCount where m != a.indexMember && m != a.rowsMember && m != a.pathMember {
            let x = ad.member(m, of: a), y = bd.member(m, of: b)
            if !sameBytes(ad.raw(x.key), bd.raw(y.key)) || !sameBytes(ad.raw(x.value), bd.raw(y.value)) { return false }
        }
        return true
    }

    private func diffRows(
        _ a: RecordOutline.Section, _ ad: RecordOutline, _ b: RecordOutline.Section, _ bd: RecordOutline,
        _ w: inout JSONWriter, _ summary: inout ChangeSummary,
        _ diagnostics: inout [(code: String, path: String, message: String)]
    ) {
        let list = ListDiff(old: ad.rowIDs(of: a), in: ad.bytes, new: bd.rowIDs(of: b), in: bd.bytes)
        guard
            beginListChanges(
                list, wholeList: bd.raw(bd.member(b.rowsMember, of: b).value), itemKey: Wire.Key.row,
                item: { bd.raw(bd.row($0, of: b).node) }, name: bd.id(of: b) + ".rows",
                counters: (\.rowDeletes, \.rowInserts, \.rowMoves), &w, &summary, &diagnostics)
        else { return }
        var changed: [(from: Int, to: Int)] = []
        ad.bytes.withUnsafeBufferPointer { ab in
            bd.bytes.withUnsafeBufferPointer { bb in
                for (i, j) in list.matches {
                    let x = ad.row(i, of: a).node, y = bd.row(j, of: b).node
                    if x.count == y.count
                        && memcmpEqual(ab.baseAddress! + x.lowerBound, bb.baseAddress! + y.lowerBound, x.count)
                    {
                        continue
                    }
                    changed.append((i, j))
                }
            }
        }
        for (i, j) in changed {
            summary.rowUpdates += 1
            w.beginObject()
            w.key(Wire.Key.from); w.int(i)
            w.key(Wire.Key.to); w.int(j)
            w.key(Wire.Key.row); w.raw(bd.raw(bd.row(j, of: b).node))
            w.endObject()
        }
        w.endArray()
        w.endObject()
    }

    /// Opens a list's change object and writes its `deletes`, `inserts` (each new item under `itemKey`) and
    /// `moves`, counted into `summary` at `counters`, then opens its `updates`. When ids repeat it writes `replace`
    /// with the whole new list instead, closes the object, counts and reports it (as `name`) and returns false.
    private func beginListChanges(
        _ list: ListDiff, wholeList: ArraySlice<UInt8>, itemKey: StaticString, item: (Int) -> ArraySlice<UInt8>,
        name: String,
        counters: (
            deletes: WritableKeyPath<ChangeSummary, Int>, inserts: WritableKeyPath<ChangeSummary, Int>,
            moves: WritableKeyPath<ChangeSummary, Int>
        ), _ w: inout JSONWriter, _ summary: inout ChangeSummary,
        _ diagnostics: inout [(code: String, path: String, message: String)]
    ) -> Bool {
        w.beginObject()
        guard list.duplicates.isEmpty else {
            w.key(Wire.Key.replace)
            w.raw(wholeList)
            w.endObject()
            summary.replacedLists += 1
            diagnostics.append(Self.duplicates(list.duplicates, in: name))
            return false
        }
        summary[keyPath: counters.deletes] += list.deletes.count
        summary[keyPath: counters.inserts] += list.inserts.count
        summary[keyPath: counters.moves] += list.moves.count
        w.key(Wire.Key.deletes)
        w.beginArray()
        for i in list.deletes { w.int(i) }
        w.endArray()
        w.key(Wire.Key.inserts)
        w.beginArray()
        for j in list.inserts {
            w.beginObject()
            w.key(Wire.Key.index); w.int(j)
            w.key(itemKey); w.raw(item(j))
            w.endObject()
        }
        w.endArray()
        w.key(Wire.Key.moves)
        w.beginArray()
        for (from, to) in list.moves {
            w.beginObject()
            w.key(Wire.Key.from); w.int(from)
            w.key(Wire.Key.to); w.int(to)
            w.endObject()
        }
        w.endArray()
        w.key(Wire.Key.updates)
        w.beginArray()
        return true
    }

    static func duplicates(_ ids: [[UInt8]], in list: String) -> (code: String, path: String, message: String) {
        let shown = ids.prefix(10).map { String(decoding: $0, as: UTF8.self) }.joined(separator: ", ")
        let more = ids.count > 10 ? " and \(ids.count - 10) more" : ""
        return ("duplicate-ids", list, "duplicate ids \(shown)\(more) in \(list); the list is replaced whole")
    }
}
