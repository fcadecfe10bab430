import CRdKafka

/// Facts about the librdkafka the process runs on.
public enum Librdkafka {
    /// Its version, e.g. `2.8.0`.
    public static var version: String { String(cString: rd_kafka_version_str()) }
}

extension String {
    /// The NUL-terminated message librdkafka wrote into an `errstr` buffer (up to the first NUL; the whole buffer
    /// when there is none).
    init(errorBuffer buffer: [CChar]) {
        self.init(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
