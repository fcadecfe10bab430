import CRdKafka

/// Facts about the librdkafka the process runs on.
public enum Librdkafka {
    /// Its version, e.g. `2.8.0`.
    public static var version: String { String(cString: rd_kafka_version_str()) }
}
