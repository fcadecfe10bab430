import NIOHTTP1

extension HTTPRequestHead {
    /// Whether the request is a `HEAD` (matched by case: `HTTPMethod`'s `==` compares the methods' names, and every
    /// request asks this).
    var isHEAD: Bool {
        if case .HEAD = method { return true }
        return false
    }
}
