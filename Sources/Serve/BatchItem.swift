import Delivery
import Kafka
import LayoutRecord
import PageState

/// One message of a batch on its way through the loop: what compiling it gave, then (with change sets on) what it
/// does to its page and whether it stores the page's latest layout. A batch is one array of these, so the three
/// travel together and cannot fall out of step.
struct BatchItem {
    let message: KafkaMessage
    let outcome: MessageOutcome
    /// What the message does to its page (nil: change sets off, or no page: a dead letter, a pass-through input).
    var page: ChangeStage.Outcome?
    /// Whether it stores the page's latest layout, or a later message of the batch does (nil: it stores nothing).
    var state: StateWrite?

    init(_ message: KafkaMessage, _ outcome: MessageOutcome) {
        self.message = message
        self.outcome = outcome
    }

    /// The record's outline, or nil for a tombstone (or a skip that clears its page): what the change-set stage
    /// takes; nil when the message does nothing to a page.
    var pageInput: (message: KafkaMessage, record: RecordOutline?)? {
        switch outcome {
        // A pass-through run's input is not a record: it is published without a page.
        case .record(_, _, let outline?): (message, outline)
        case .tombstone: (message, nil)
        case .skip where message.value == nil: (message, nil)
        default: nil
        }
    }
}
