import LayoutKit

/// A stored page's bytes on disk (little-endian): a format byte, flags (1: a record, 2: a position), the position,
/// the record (length and bytes), then the change sets (count; each a base flag, base, target, length and bytes);
/// format 2 adds the carried steps (count; each a group's length and bytes, an offset, a change-set flag, length and
/// bytes). A page without steps
/// is written in format 1, which a binary from before steps reads too.
extension StoredPage {
    static let format: UInt8 = 1
    static let formatWithSteps: UInt8 = 2

    var encoded: [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes + 32 + history.count * 24)
        out.append(steps.isEmpty ? Self.format : Self.formatWithSteps)
        out.append((record != nil ? 1 : 0) | (position != nil ? 2 : 0))
        out.appendLittleEndian(UInt64(bitPattern: position ?? 0))
        out.appendLittleEndian(UInt32(record?.count ?? 0))
        out += record ?? []
        out.appendLittleEndian(UInt32(history.count))
        for change in history {
            out.append(change.base != nil ? 1 : 0)
            out.appendLittleEndian(change.base?.value ?? 0)
            out.appendLittleEndian(change.target.value)
            out.appendLittleEndian(UInt32(change.bytes.count))
            out += change.bytes
        }
        guard !steps.isEmpty else { return out }
        out.appendLittleEndian(UInt32(steps.count))
        for step in steps {
            out.appendLittleEndian(UInt16(truncatingIfNeeded: step.group.utf8.count))
            out += step.group.utf8
            out.appendLittleEndian(UInt64(bitPattern: step.offset))
            out.append(step.changeSet != nil ? 1 : 0)
            out.appendLittleEndian(UInt32(step.changeSet?.count ?? 0))
            out += step.changeSet ?? []
        }
        return out
    }

    /// Reads `encoded` back; nil when the bytes are not a stored page of this format.
    init?(encoded bytes: [UInt8]) {
        var r = ByteReader(bytes)
        guard let format = r.byte(), format == Self.format || format == Self.formatWithSteps, let flags = r.byte(),
            let position = r.integer(UInt64.self),
            let recordLength = r.integer(UInt32.self), let record = r.bytes(Int(recordLength)),
            let count = r.integer(UInt32.self)
        else { return nil }
        var history: [StoredChange] = []
        for _ in 0..<count {
            guard let hasBase = r.byte(), let base = r.integer(UInt64.self), let target = r.integer(UInt64.self),
                let length = r.integer(UInt32.self), let change = r.bytes(Int(length))
            else { return nil }
            history.append(
                StoredChange(
                    base: hasBase == 1 ? ContentHash(value: base) : nil, target: ContentHash(value: target),
                    bytes: change))
        }
        var steps: [CarriedStep] = []
        if format == Self.formatWithSteps {
            guard let count = r.integer(UInt32.self) else { return nil }
            for _ in 0..<count {
                guard let groupLength = r.integer(UInt16.self), let group = r.bytes(Int(groupLength)),
                    let offset = r.integer(UInt64.self), let hasChangeSet = r.byte(),
                    let length = r.integer(UInt32.self), let changeSet = r.bytes(Int(length))
                else { return nil }
                steps.append(
                    CarriedStep(
                        group: String(decoding: group, as: UTF8.self), offset: Int64(bitPattern: offset),
                        changeSet: hasChangeSet == 1 ? changeSet : nil))
            }
        }
        guard r.atEnd else { return nil }
        self.init(
            position: flags & 2 != 0 ? Int64(bitPattern: position) : nil, record: flags & 1 != 0 ? record : nil,
            history: history, steps: steps)
    }
}

/// Reads fixed-width little-endian integers and byte runs off an array, nil past its end.
struct ByteReader {
    let bytes: [UInt8]
    var at = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var atEnd: Bool { at == bytes.count }

    mutating func byte() -> UInt8? {
        guard at < bytes.count else { return nil }
        defer { at += 1 }
        return bytes[at]
    }

    mutating func integer<T: FixedWidthInteger>(_: T.Type) -> T? {
        let size = MemoryLayout<T>.size
        guard bytes.count - at >= size else { return nil }
        var value: T = 0
        for i in 0..<size { value |= T(bytes[at + i]) << (8 * i) }
        at += size
        return value
    }

    mutating func bytes(_ count: Int) -> [UInt8]? {
        guard count >= 0, bytes.count - at >= count else { return nil }
        defer { at += count }
        return Array(bytes[at..<at + count])
    }
}

extension [UInt8] {
    mutating func appendLittleEndian<T: FixedWidthInteger>(_ value: T) {
        var v = value.littleEndian
        Swift.withUnsafeBytes(of: &v) { append(contentsOf: $0) }
    }
}
