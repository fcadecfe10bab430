/// A comma-separated header value (RFC 9110 §5.6.1) read as bytes: its items, trimmed of spaces and tabs.
enum HeaderList {
    typealias Item = Slice<UnsafeBufferPointer<UInt8>>

    /// Calls `body` with each non-empty item of `bytes` until it returns false.
    static func forEach(in bytes: UnsafeBufferPointer<UInt8>, _ body: (Item) -> Bool) {
        var start = 0
        while start <= bytes.count {
            let end = bytes[start...].firstIndex(of: UInt8(ascii: ",")) ?? bytes.count
            let item = trimmed(bytes[start..<end])
            if !item.isEmpty, !body(item) { return }
            start = end + 1
        }
    }

    /// `item` without the spaces and tabs around it.
    static func trimmed(_ item: Item) -> Item {
        var item = item
        while let b = item.first, b == UInt8(ascii: " ") || b == UInt8(ascii: "\t") { item.removeFirst() }
        while let b = item.last, b == UInt8(ascii: " ") || b == UInt8(ascii: "\t") { item.removeLast() }
        return item
    }

    /// Whether `item` is `word` (ASCII, lowercase) in any case.
    static func equalsIgnoringCase(_ item: Item, _ word: StaticString) -> Bool {
        guard item.count == word.utf8CodeUnitCount else { return false }
        return zip(item, UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)).allSatisfy {
            $0 | 0x20 == $1
        }
    }
}
