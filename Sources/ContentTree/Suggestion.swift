/// "Did you mean …?": the known word closest to a misspelt one, when it is close enough to be the one meant (at
/// most two edits, or a third of the word for longer words; case differences count as nothing). The one definition
/// every finding and error message with a suggestion uses.
public enum Suggestion {
    /// The candidate closest to `word` within the distance above (ties: the alphabetically first), or nil; never
    /// `word` itself.
    public static func closest(to word: String, among candidates: some Sequence<String>) -> String? {
        let lowered = word.lowercased()
        var best: (word: String, distance: Int)?
        for candidate in candidates where candidate != word {
            let d = editDistance(lowered, candidate.lowercased())
            if best == nil || d < best!.distance || (d == best!.distance && candidate < best!.word) {
                best = (candidate, d)
            }
        }
        guard let best, best.distance <= max(2, word.count / 3), best.distance < max(word.count, 1) else { return nil }
        return best.word
    }

    /// `"; did you mean 'x'?"` for the closest candidate, else "".
    public static func clause(for word: String, among candidates: some Sequence<String>) -> String {
        closest(to: word, among: candidates).map { "; did you mean '\($0)'?" } ?? ""
    }

    /// Levenshtein distance between the UTF-8 bytes of `a` and `b`.
    public static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a.utf8), b = Array(b.utf8)
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
