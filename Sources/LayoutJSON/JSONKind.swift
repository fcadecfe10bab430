/// The kind of a JSON value in a tape.
public enum JSONKind: UInt8, Sendable {
    case object, array, string, number, `true`, `false`, null
}
