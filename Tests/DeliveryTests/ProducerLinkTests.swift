import Dispatch
import Foundation
import Kafka
import KafkaTesting
import Logging
import Testing

@testable import Delivery

/// When `ProducerLink` replaces its producer: at once when first asked, then at most once a second.
@Suite struct ProducerLinkTests {
    @Test func aReplacementIsReadyAtOnceThenAtMostOnceASecond() throws {
        let mock = try KafkaMockCluster(brokers: 1)
        var link = try ProducerLink(configuration: KafkaConfiguration(bootstrapServers: mock.bootstrapServers))
        #expect(!link.replacementReady, "nothing asked for")
        link.replace(because: "fatal producer error")
        #expect(link.replacementReady, "the first replacement is not held back")
        let first = link.producer
        let replaced = link.replaceNow(inFlight: 0, logger: Logger(label: "producer-link"))
        #expect(replaced)
        #expect(link.producer !== first && link.replacementDue == nil)
        link.replace(because: "again")
        #expect(!link.replacementReady, "within a second of the last one")
        link.lastReplacement = .now - .milliseconds(1_100)
        #expect(link.replacementReady, "a second after the last one")
    }

    /// No report for the stall limit while records are unacknowledged asks for a replacement, once.
    @Test func aStallAsksForAReplacement() throws {
        let mock = try KafkaMockCluster(brokers: 1)
        var link = try ProducerLink(configuration: KafkaConfiguration(bootstrapServers: mock.bootstrapServers))
        let check = { (link: inout ProducerLink, unacknowledged: Int) in
            link.check(stall: .milliseconds(50), unacknowledged: unacknowledged) { ["out"] }
        }
        let early = check(&link, 1)
        link.lastReport = .now - .milliseconds(100)
        let idle = check(&link, 0), stalled = check(&link, 2), again = check(&link, 2)
        #expect(early == nil, "not stalled yet")
        #expect(idle == nil, "nothing unacknowledged")
        #expect(stalled == "no acknowledgement for 50 ms from out")
        #expect(again == nil, "already due")
        #expect(link.replacementReady)
    }
}
