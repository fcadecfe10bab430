/// Where everything lives in the page store's key space: the identity, pages by scope, checkpoints by topic
/// partition, topic ids by topic. One byte tells the kinds apart, so each is one range.
enum PageStoreKeys {
    static let identityKey: [UInt8] = [UInt8(ascii: "i")]

    /// "p", the scope's length and the scope: an input partition's topic, a zero byte and the partition (big
    /// endian); nothing for `whole`.
    static func scopePrefix(_ scope: PageStore.Scope) -> [UInt8] {
        var name: [UInt8] = []
        if case .partition(let topic, let partition) = scope {
            name = Array(topic.utf8)
            name.append(0)
            name.appendBigEndian(UInt32(bitPattern: partition))
        }
        var key: [UInt8] = [UInt8(ascii: "p")]
        key.appendBigEndian(UInt16(name.count))
        key += name
        return key
    }

    static func pageKey(_ key: PageKey) -> [UInt8] { scopePrefix(key.scope) + Array(key.page.utf8) }

    static func checkpointKey(_ topic: String, _ partition: Int32) -> [UInt8] {
        var key: [UInt8] = [UInt8(ascii: "c")]
        key.appendBigEndian(UInt16(truncatingIfNeeded: topic.utf8.count))
        key += topic.utf8
        key.appendBigEndian(UInt32(bitPattern: partition))
        return key
    }

    /// The first key after every key starting with `prefix`.
    static func successor(of prefix: [UInt8]) -> [UInt8] {
        var end = prefix
        while let last = end.last {
            if last < 0xFF {
                end[end.count - 1] = last + 1
                return end
            }
            end.removeLast()
        }
        return [0xFF]
    }

    static func topicKey(_ topic: String) -> [UInt8] { [UInt8(ascii: "t")] + Array(topic.utf8) }
}
