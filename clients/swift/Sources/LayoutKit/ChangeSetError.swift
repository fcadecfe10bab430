/// Why a record could not be read or a change set could not be applied.
public enum ChangeSetError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The bytes are not a layout record (what is wrong, and where).
    case notALayoutRecord(String)
    /// The change set is malformed or does not fit the record it is applied to.
    case invalidChangeSet(String)
    /// The change set was made against a different record than the one given.
    case baseMismatch(expected: String, actual: String)
    /// Applying gave bytes whose hash is not the change set's target hash.
    case targetMismatch(expected: String, actual: String)

    public var description: String {
        switch self {
        case .notALayoutRecord(let why): "not a layout record: \(why)"
        case .invalidChangeSet(let why): "invalid change set: \(why)"
        case .baseMismatch(let e, let a):
            "change set base is record \(e) but the record given hashes to \(a); fetch the full record"
        case .targetMismatch(let e, let a): "applying the change set gave a record hashing to \(a), not the target \(e)"
        }
    }
}
