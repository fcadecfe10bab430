import Delivery
import Foundation
import LayoutKit
import Serve
import TestSupport
import Testing

/// The wire contract (`Wire` in LayoutKit) is the one definition of the names records, change sets and their
/// Kafka messages agree on; the web client, the schemas and the worker's headers must say the same.
@Suite struct WireContractTests {
    /// The value of `export const NAME = ...;` in the web client, as written.
    private func webConstant(_ name: String) throws -> String {
        let js = Fixtures.text("clients/web/wire.js")
        let line = try #require(
            js.split(separator: "\n").first { $0.hasPrefix("export const \(name) = ") }, "no export \(name)")
        return String(line.dropFirst("export const \(name) = ".count).dropLast())
    }

    @Test func theWebClientSaysWhatWireSays() throws {
        #expect(try webConstant("FORMAT_VERSION") == String(Wire.formatVersion))
        #expect(try webConstant("CHANGE_SET_KIND") == "\"\(Wire.changeSetKind)\"")
        #expect(try webConstant("RECORD_MEDIA_TYPE") == "\"\(Wire.recordMediaType)\"")
        #expect(try webConstant("CHANGE_SET_MEDIA_TYPE") == "\"\(Wire.changeSetMediaType)\"")
        let empty = try webConstant("EMPTY_RECORD")
        #expect(
            empty.replacingOccurrences(of: "${FORMAT_VERSION}", with: String(Wire.formatVersion))
                == "`\(Wire.emptyRecord)`")
        // The declarations give the same literal types.
        let dts = Fixtures.text("clients/web/wire.d.ts")
        #expect(dts.contains("export declare const FORMAT_VERSION: \(Wire.formatVersion);"))
        #expect(dts.contains("export declare const CHANGE_SET_KIND: \"\(Wire.changeSetKind)\";"))
        #expect(dts.contains("export declare const RECORD_MEDIA_TYPE: \"\(Wire.recordMediaType)\";"))
        #expect(dts.contains("export declare const CHANGE_SET_MEDIA_TYPE: \"\(Wire.changeSetMediaType)\";"))
        // The package's major version is the format version it reads.
        let package = try #require(
            try JSONSerialization.jsonObject(with: Data(Fixtures.bytes("clients/web/package.json"))) as? [String: Any])
        let version = try #require(package["version"] as? String)
        #expect(version.split(separator: ".").first == "\(Wire.formatVersion)"[...], "package.json version \(version)")
    }

    /// The Android kit's `Wire.java`: its constants, and every member name it reads is one of `Wire.Key`'s.
    @Test func theAndroidKitSaysWhatWireSays() throws {
        let java = Fixtures.text("clients/android/src/main/java/io/layoutworker/layoutkit/Wire.java")
        func constant(_ name: String) throws -> String {
            let match = try #require(
                java.firstMatch(of: try Regex("public static final (?:int|String) \(name) = ([^;]+);")),
                "no constant \(name) in Wire.java")
            return String(try #require(match.output[1].substring))
        }
        #expect(try constant("FORMAT_VERSION") == String(Wire.formatVersion))
        #expect(try constant("CHANGE_SET_KIND") == "\"\(Wire.changeSetKind)\"")
        #expect(try constant("RECORD_MEDIA_TYPE") == "\"\(Wire.recordMediaType)\"")
        #expect(try constant("CHANGE_SET_MEDIA_TYPE") == "\"\(Wire.changeSetMediaType)\"")
        let known = Set(Wire.Key.all.map { "\($0)" })
        let keys = java.matches(of: /public static final String [A-Z_]+ = "([A-Za-z]+)";/).map { String($0.output.1) }
        let names = keys.filter { !$0.contains("/") && $0 != Wire.changeSetKind }
        #expect(names.count >= 40, "\(names)")
        #expect(names.filter { !known.contains($0) }.isEmpty, "not wire keys: \(names.filter { !known.contains($0) })")
    }

    @Test func theSchemasSayWhatWireSays() throws {
        func properties(_ schema: String) throws -> [String: Any] {
            let data = Fixtures.bytes("schemas/\(schema)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(data)) as? [String: Any])
            return try #require(object["properties"] as? [String: Any])
        }
        let record = try properties("layout-record.schema.json")
        let changeSet = try properties("layout-change-set.schema.json")
        #expect((record["version"] as? [String: Any])?["const"] as? Int == Wire.formatVersion)
        #expect((changeSet["version"] as? [String: Any])?["const"] as? Int == Wire.formatVersion)
        #expect((changeSet["kind"] as? [String: Any])?["const"] as? String == Wire.changeSetKind)
    }

    /// Every member name the record and change-set schemas describe is a `Wire.Key`, and every `Wire.Key` is
    /// described: the writer, the outline reader, the differ and the kit's applier all name members through it.
    @Test func theSchemasDescribeEveryWireKey() throws {
        func names(_ value: Any, into out: inout Set<String>) {
            if let object = value as? [String: Any] {
                if let properties = object["properties"] as? [String: Any] { out.formUnion(properties.keys) }
                for v in object.values { names(v, into: &out) }
            } else if let array = value as? [Any] {
                for v in array { names(v, into: &out) }
            }
        }
        var described = Set<String>()
        for schema in ["layout-record.schema.json", "layout-change-set.schema.json"] {
            names(try JSONSerialization.jsonObject(with: Data(Fixtures.bytes("schemas/\(schema)"))), into: &described)
        }
        let keys = Set(Wire.Key.all.map(\.description))
        #expect(keys.count == Wire.Key.all.count, "a Wire.Key is listed twice")
        #expect(described.subtracting(keys).isEmpty, "described but not a Wire.Key: \(described.subtracting(keys))")
        #expect(keys.subtracting(described).isEmpty, "a Wire.Key no schema describes: \(keys.subtracting(described))")
    }

    @Test func theWorkersHeadersAreTheContracts() {
        #expect(Wire.recordContentType == "\(Wire.recordMediaType); version=\(Wire.formatVersion)")
        #expect(Wire.changeSetContentType.hasPrefix(Wire.changeSetMediaType))
        #expect(Wire.Header.config == Wire.Header.config && Wire.Header.sourceOffset == Wire.Header.sourceOffset)
        // Every header the worker writes carries its own prefix (so it is never carried from an input).
        for name in [
            Wire.Header.errorCode, Wire.Header.errorMessage, Wire.Header.sourceTopic, Wire.Header.sourcePartition,
            Wire.Header.sourceOffset, Wire.Header.sourceTimestamp, Wire.Header.workerVersion,
            Wire.Header.deadLetterCut, Wire.Header.config,
        ] {
            #expect(name.hasPrefix(Wire.Header.ownPrefix))
        }
    }
}
