import Delivery
import Foundation
import Kafka
import LayoutJSON
import LayoutKit
import TestSupport

/// A topic or group name no other test uses: `base` and eight random hex digits.
func uniqueName(_ base: String) -> String { "\(base)-\(UUID().uuidString.prefix(8))" }

/// The smallest assembler response: an empty results list named `name` (its record's page name).
func emptyResultsList(_ name: String) -> [UInt8] {
    Array(#"{"@type":"ResultsList","name":"\#(name)","totalNumRecs":0,"records":[]}"#.utf8)
}

/// `partition/offset` of the input of each dead letter, with its error code.
func deadLetterSources(_ letters: [KafkaMessage]) -> [(source: String, code: String)] {
    letters.compactMap { m in
        let text = { (name: String) in m.header(name).map { String(decoding: $0, as: UTF8.self) } }
        guard let p = text(Wire.Header.sourcePartition), let o = text(Wire.Header.sourceOffset) else { return nil }
        return ("\(p)/\(o)", text(Wire.Header.errorCode) ?? "")
    }
}

/// `partition/offset` of the input each record was compiled from (its `source`).
func recordSources(_ records: [KafkaMessage]) -> [String] {
    records.compactMap { m in
        guard let v = m.value, let d = try? JSONReader().read(v), let s = d.value(0, "source"),
            let p = d.value(s, "partition").flatMap(d.int), let o = d.value(s, "offset").flatMap(d.int)
        else { return nil }
        return "\(p)/\(o)"
    }
}

/// An input message's `partition/offset`, as `recordSources` names the record compiled from it.
func inputSource(_ message: KafkaMessage) -> String { "\(message.partition)/\(message.offset)" }

extension TestBroker {
    /// Each partition's end offset (last offset + 1) among `messages`.
    static func endOffsets(_ messages: [KafkaMessage]) -> [Int32: Int64] {
        messages.reduce(into: [Int32: Int64]()) { $0[$1.partition] = max($0[$1.partition] ?? 0, $1.offset + 1) }
    }

    /// Waits up to `seconds` until `group` has committed exactly `ends` on `topic`; returns whether it did.
    func waitForCommits(group: String, topic: String, ends: [Int32: Int64], seconds: Double = 120) -> Bool {
        waitUntil(seconds: seconds, every: 0.2) {
            (try? committed(group: group, topic: topic, partitions: Int32(ends.count))) == ends
        }
    }
}

/// The page names of layout records, in order (a record that is not JSON or names no page is left out).
func pageNames(_ records: [KafkaMessage]) -> [String] {
    records.compactMap { m in
        guard let v = m.value, let d = try? JSONReader().read(v), let p = d.value(0, "page") else { return nil }
        return d.value(p, "name").flatMap(d.string)
    }
}
