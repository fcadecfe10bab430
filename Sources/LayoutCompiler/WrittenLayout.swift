import LayoutJSON
import LayoutKit

/// A layout record or change set given where an assembler response was expected (a `compile` output fed back in,
/// or a topic of records wired as an input): recognised by its shape, so it fails as what it is instead of
/// compiling into a bogus record from the content items its rows carry.
enum WrittenLayout {
    /// What `document` is when it is a record or change set this service writes, said with what to do; else nil.
    /// A response has a string `@type` at its root or none of these members: a record has a numeric `version`, a
    /// `sections` array and no root `@type`; a change set has `kind` set to the change-set kind.
    static func recognize(_ document: JSONDocument) -> String? {
        let root = document.root
        if let type = document.value(root, "@type"), document.kind(type) == .string { return nil }
        if let kind = document.value(root, "kind"), document.string(kind) == Wire.changeSetKind {
            return
                "this is a layout change set (written by layout-worker), not an assembler response: compile the response it came from"
        }
        guard let version = document.value(root, "version"), document.kind(version) == .number,
            let sections = document.value(root, "sections"), document.kind(sections) == .array
        else { return nil }
        var message =
            "this is a layout record (written by layout-worker), not an assembler response: compile the response it came from"
        if let source = document.value(root, "source"), document.kind(source) == .object {
            message += " (its source: \(String(decoding: document.raw(source), as: UTF8.self)))"
        }
        return message + "; an input topic of records is an output topic wired as an input"
    }
}
