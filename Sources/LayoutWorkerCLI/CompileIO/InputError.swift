/// An input that could not be read.
struct InputError: Error {
    let name: String
    let message: String
    /// `unreadable` or `too-large`.
    var code = "unreadable"
}
