import Foundation
import LayoutKit

/// The records and change sets clients/fixtures/generate.py made with the layout-worker binary (`make test` puts them
/// in .run/client-fixtures; LW_FIXTURES overrides). Nil when they were not made: the tests that need them say so.
struct Fixtures {
    struct Case {
        var name: String
        var base: [UInt8]?
        var changeSet: [UInt8]
        var target: [UInt8]
    }

    let dir: URL
    let cases: [Case]

    static let shared: Fixtures? = {
        let here = URL(fileURLWithPath: #filePath)
        let dir =
            ProcessInfo.processInfo.environment["LW_FIXTURES"].map { URL(fileURLWithPath: $0) }
            ?? here.deletingLastPathComponent().appendingPathComponent("../../../../.run/client-fixtures")
        guard let data = try? Data(contentsOf: dir.appendingPathComponent("manifest.json")),
            let manifest = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let entries = manifest["cases"] as? [[String: Any]]
        else { return nil }
        func read(_ name: String) -> [UInt8] {
            (try? Data(contentsOf: dir.appendingPathComponent(name))).map { [UInt8]($0) } ?? []
        }
        let cases = entries.map { e in
            Case(
                name: e["name"] as? String ?? "?", base: (e["base"] as? String).map(read),
                changeSet: read(e["changeSet"] as? String ?? ""), target: read(e["target"] as? String ?? ""))
        }
        return Fixtures(dir: dir, cases: cases)
    }()

    static var missing: String { "no fixtures (run make test, or set LW_FIXTURES to generate.py's output)" }
}

func decode<T: Decodable>(_ type: T.Type, _ bytes: [UInt8]) throws -> T {
    try JSONDecoder().decode(T.self, from: Data(bytes))
}
