/// What happens to a response with error diagnostics.
public enum Policy: String, Sendable {
    /// Any error diagnostic rejects the response.
    case strict
    /// The record is published with its diagnostics.
    case lenient
}
