import CRdKafka

/// Client settings: typed fields for what the service uses, plus raw librdkafka properties passed through.
/// Its description and reflection show secret values as `[redacted]`, so they never reach logs or error dumps.
public struct KafkaConfiguration: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// `host:port[,host:port...]`.
    public var bootstrapServers: String
    public var clientID: String
    /// Any librdkafka property (`security.protocol`, `sasl.*`, `ssl.*`, tuning); applied after the typed fields.
    public var properties: [String: String]

    public init(bootstrapServers: String, clientID: String = "layout-worker", properties: [String: String] = [:]) {
        self.bootstrapServers = bootstrapServers
        self.clientID = clientID
        self.properties = properties
    }

    public var description: String {
        "KafkaConfiguration(" + redactedProperties.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ", ") + ")"
    }

    public var debugDescription: String { description }

    public var customMirror: Mirror { Mirror(self, children: ["properties": redactedProperties], displayStyle: .struct) }

    /// Whether a property holds a secret (its value never appears in logs or errors).
    public static func isSecret(_ key: String) -> Bool {
        let k = key.lowercased()
        return k.contains("password") || k.contains("secret") || k == "sasl.oauthbearer.config"
            || k == "ssl.key.pem" || k == "ssl_key" || k.hasSuffix(".key.pem") || k.contains("token")
    }

    /// The properties with secret values replaced by `[redacted]`.
    public var redactedProperties: [String: String] {
        var out: [String: String] = ["bootstrap.servers": bootstrapServers, "client.id": clientID]
        for (k, v) in properties { out[k] = Self.isSecret(k) ? "[redacted]" : v }
        return out
    }

    /// A new librdkafka configuration with every setting applied; the caller owns it.
    func makeConf(extra: [String: String] = [:]) throws(KafkaError) -> OpaquePointer {
        guard let conf = rd_kafka_conf_new() else { throw .configuration("rd_kafka_conf_new failed") }
        var all: [(String, String)] = [("bootstrap.servers", bootstrapServers), ("client.id", clientID)]
        all.append(contentsOf: extra.sorted { $0.key < $1.key })
        all.append(contentsOf: properties.sorted { $0.key < $1.key })
        for (key, value) in all {
            var errstr = [CChar](repeating: 0, count: 512)
            let result = rd_kafka_conf_set(conf, key, value, &errstr, errstr.count)
            if result != RD_KAFKA_CONF_OK {
                rd_kafka_conf_destroy(conf)
                let why = Self.isSecret(key) ? "invalid value for secret property" : String(cString: errstr)
                throw .configuration("\(key): \(why)")
            }
        }
        return conf
    }
}
