/// Names a document lists: what tests compare with the Swift definitions they must agree with.
public enum DocumentedNames {
    /// The backticked names in the sentence of `text` that starts with `lead` (up to its first `.`); nil when `text`
    /// has no such sentence.
    public static func inSentence(after lead: String, of text: String) -> Set<String>? {
        guard let start = text.range(of: lead) else { return nil }
        let sentence = text[start.upperBound...].prefix { $0 != "." }
        return Set(sentence.matches(of: /`([^`]+)`/).map { String($0.1) })
    }
}
