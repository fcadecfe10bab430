import CRdKafka

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Facts about the librdkafka the process runs on.
public enum Librdkafka {
    /// Its version, e.g. `2.8.0`.
    public static var version: String { String(cString: rd_kafka_version_str()) }

    /// Every configuration property librdkafka knows (global and topic-level), from its own table
    /// (`rd_kafka_conf_properties_show`).
    public static let propertyNames: Set<String> = {
        var buffer: UnsafeMutablePointer<CChar>?
        var size = 0
        guard let stream = open_memstream(&buffer, &size) else { return [] }
        rd_kafka_conf_properties_show(stream)
        fclose(stream)
        defer { free(buffer) }
        guard let buffer else { return [] }
        var names = Set<String>()
        for line in String(cString: buffer).split(separator: "\n") {
            guard let bar = line.firstIndex(of: "|") else { continue }
            let name = String(line[..<bar].filter { $0 != " " })
            if name.first?.isLowercase == true,
                name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "." || $0 == "_" })
            {
                names.insert(name)
            }
        }
        return names
    }()
}

extension String {
    /// The NUL-terminated message librdkafka wrote into an `errstr` buffer (up to the first NUL; the whole buffer
    /// when there is none).
    package init(errorBuffer buffer: [CChar]) {
        self.init(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
