import ArgumentParser

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Checks of command-line and environment settings: a value out of range is refused with a message that names the
/// setting, never clamped or accepted silently.
enum SettingValidation {
    /// The word that turns a directory or an address setting off.
    static let off = "off"

    /// `text`, or nil when it is `off`.
    static func unlessOff(_ text: String) -> String? { text == off ? nil : text }

    /// `value` when it is at least `minimum`.
    static func atLeast(_ minimum: Int, _ value: Int?, _ name: String) throws -> Int? {
        guard let value else { return nil }
        guard value >= minimum else { throw ValidationError("\(name) must be at least \(minimum), not \(value)") }
        return value
    }

    /// A bootstrap broker list: comma-separated `host:port` entries (an optional `scheme://` prefix, IPv6 hosts in
    /// brackets), each with a host and a port from 1 to 65535.
    static func brokers(_ list: String, _ name: String = "brokers") throws -> String {
        let entries = list.split(separator: ",", omittingEmptySubsequences: false).map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        guard entries.contains(where: { !$0.isEmpty }) else {
            throw ValidationError("\(name) is empty: give host:port[,host:port]")
        }
        for entry in entries {
            guard !entry.isEmpty else { throw ValidationError("\(name) '\(list)' has an empty entry") }
            var address = Substring(entry)
            if let scheme = address.range(of: "://") { address = address[scheme.upperBound...] }
            guard let colon = address.lastIndex(of: ":") else {
                throw ValidationError("\(name) entry '\(entry)' has no port: write host:port")
            }
            let host = address[..<colon], port = address[address.index(after: colon)...]
            guard !host.isEmpty, host != "[]" else { throw ValidationError("\(name) entry '\(entry)' has no host") }
            if host.hasPrefix("[") != host.hasSuffix("]") || (host.contains(":") && !host.hasPrefix("[")) {
                throw ValidationError("\(name) entry '\(entry)': write IPv6 hosts in brackets, e.g. [::1]:9092")
            }
            guard let n = Int(port), (1...65_535).contains(n) else {
                throw ValidationError("\(name) entry '\(entry)' has port '\(port)': a port is a number from 1 to 65535")
            }
        }
        return list
    }

    /// librdkafka properties from `key=value` pairs; `name` is the setting they came from, for the error.
    static func properties(_ pairs: [String], _ name: String) throws -> [String: String] {
        var out: [String: String] = [:]
        for pair in pairs {
            guard let eq = pair.firstIndex(of: "="), eq != pair.startIndex else {
                // The text may be (part of) a secret: say where it is, never what it is.
                throw ValidationError(
                    "\(name) takes key=value; an entry of \(pair.count) characters has no key before '='")
            }
            out[String(pair[..<eq])] = String(pair[pair.index(after: eq)...])
        }
        return out
    }

    /// Why `pattern` (a topic regex, `^…`) does not compile as a POSIX extended regular expression, or nil.
    static func regexProblem(_ pattern: String) -> String? {
        if case .failure(let problem) = compiled(pattern, { _ in }) { return problem.description }
        return nil
    }

    /// `body` given `pattern` compiled as a POSIX extended regular expression (freed after it), or why it does not
    /// compile: the one place topic patterns are compiled.
    private static func compiled<R>(_ pattern: String, _ body: (inout regex_t) -> R) -> Result<R, ValidationError> {
        var regex = regex_t()
        let status = regcomp(&regex, pattern, REG_EXTENDED | REG_NOSUB)
        guard status == 0 else {
            var buffer = [CChar](repeating: 0, count: 256)
            regerror(status, &regex, &buffer, buffer.count)
            return .failure(
                ValidationError(
                    String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)))
        }
        defer { regfree(&regex) }
        return .success(body(&regex))
    }

    /// Refuses a topic written (`writes`: flag and topic) that is also read (`inputs`: names, or `^` patterns as
    /// librdkafka matches them): the command would read back what it writes, a loop that never ends.
    static func noLoop(inputs: [String], writes: [(flag: String, topic: String)], command: String) throws {
        for (flag, topic) in writes {
            guard let input = inputs.first(where: { $0 == topic || ($0.hasPrefix("^") && matches($0, topic)) })
            else { continue }
            let how = input == topic ? "is also the input topic" : "matches the input pattern \(input)"
            throw ValidationError(
                "\(flag) \(topic) \(how): \(command) would read back what it writes, a loop; write to another topic")
        }
    }

    /// Whether the extended regular expression `pattern` matches `text` (a pattern that does not compile matches
    /// nothing: it is refused on its own).
    private static func matches(_ pattern: String, _ text: String) -> Bool {
        (try? compiled(pattern) { regexec(&$0, text, 0, nil, 0) == 0 }.get()) ?? false
    }
}
