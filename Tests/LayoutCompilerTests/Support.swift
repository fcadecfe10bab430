import Foundation
import LayoutCompiler
import LayoutJSON
import Mapping
import TestSupport

/// A compiler for an inline YAML config.
func compiler(_ yaml: String) throws -> LayoutCompiler {
    LayoutCompiler(config: try MappingConfigLoader().load(yaml: yaml, origin: "test.yaml").get())
}

/// A compiler for a config file in the repository.
func compiler(file: String) throws -> LayoutCompiler {
    LayoutCompiler(config: try MappingConfigLoader().load(yaml: Fixtures.text(file), origin: file).get())
}

/// Compiles `text` and checks the record against the record schema.
func compileChecked(_ compiler: LayoutCompiler, _ bytes: [UInt8]) throws -> (
    record: JSONDocument, compiled: CompiledLayout
) {
    let compiled = try compiler.compile(bytes).get()
    let violations = SchemaValidator.layoutRecord.validate(compiled.bytes)
    if !violations.isEmpty { throw SchemaViolation(errors: violations) }
    return (try JSONReader().read(compiled.bytes), compiled)
}

struct SchemaViolation: Error, CustomStringConvertible {
    let errors: [String]
    var description: String { "record violates the schema: " + errors.prefix(5).joined(separator: "; ") }
}

extension JSONDocument {
    /// Follows a path of keys and indexes from the root (test helper).
    func at(_ path: String) -> Int? {
        guard let p = try? FieldPath(parsing: path) else { return nil }
        return p.resolve(in: self, from: root)
    }

    func text(_ path: String) -> String? { at(path).flatMap(string) }
    func number(_ path: String) -> Int? { at(path).flatMap(int) }
    func flag(_ path: String) -> Bool? { at(path).flatMap(bool) }
    func count(_ path: String) -> Int? { at(path).map { Int(nodes[$0].count) } }
    func json(_ path: String) -> String? { at(path).map { String(decoding: raw($0), as: UTF8.self) } }
}
