import ContentTree
import Foundation
import LayoutJSON
import LayoutRecord
import Mapping

/// The renderers one released app version has views for (`check --client FILE`: one name a line, `#` comments,
/// or a JSON array of names), and what that app makes of a record: each row drawn by its renderer, by the first of
/// its fallbacks the app has (as `RendererRegistry` and the web `rendererFor` pick), or not at all; supplementary
/// views and placeholders the app cannot draw.
struct ClientRenderers {
    let name: String
    /// The renderers it has, each with where the file names it (`path:line`, or `path[index]` in a JSON list).
    let places: [String: String]
    var renderers: Dictionary<String, String>.Keys { places.keys }

    /// The list in `path`, or why it cannot be read.
    static func load(_ path: String) throws -> ClientRenderers {
        let bytes: [UInt8]
        switch InputSource.file(path, maxBytes: .max) {
        case .success(let input): bytes = input.bytes
        case .failure(let e): throw CheckFailure("--client \(e.name): \(e.message)")
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw CheckFailure("--client \(path): not UTF-8 text")
        }
        var names: [(name: String, place: String)] = []
        if text.drop(while: \.isWhitespace).first == "[" {
            let document: JSONDocument
            do {
                document = try JSONReader().read(bytes)
            } catch {
                throw CheckFailure("--client \(path): not a valid JSON list (\(error)); " + Self.shape)
            }
            let parsed = document.elements(document.root).map(document.string)
            guard parsed.allSatisfy({ $0 != nil }) else {
                throw CheckFailure(
                    "--client \(path): a JSON list must hold renderer names (strings) only; " + Self.shape)
            }
            names = parsed.enumerated().map { ($0.element!, "\(path)[\($0.offset)]") }
        } else {
            for (n, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let name = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0]
                    .trimmingCharacters(in: .whitespaces)
                if !name.isEmpty { names.append((name, "\(path):\(n + 1)")) }
            }
        }
        for (name, place) in names where name.wholeMatch(of: /[A-Za-z_][A-Za-z0-9_.\-]*/) == nil {
            throw CheckFailure("--client \(place): '\(name)' is not a renderer name; " + Self.shape)
        }
        guard !names.isEmpty else { throw CheckFailure("--client \(path): no renderer names in it; " + Self.shape) }
        return ClientRenderers(
            name: (path as NSString).lastPathComponent,
            places: Dictionary(names.map { ($0.name, $0.place) }) { first, _ in first })
    }

    /// The shapes a client list takes, for every error about one.
    private static let shape =
        "give one renderer name a line (# starts a comment), or a JSON list of names such as [\"ProductCell\", \"BrandHeader\"]"

    /// The names the app lists that `config` never gives (a misspelling, or a renderer the config dropped), each
    /// with the nearest name it does give when one is close.
    func unknownNames(in config: MappingConfig) -> [Diagnostic] {
        let known = config.rendererNames
        return places.filter { !known.contains($0.key) }.sorted { $0.key < $1.key }.map { name, place in
            Diagnostic(
                .warning, .clientUnknown, path: place,
                "\(self.name) lists \(name), a renderer this config never gives\(Suggestion.clause(for: name, among: known))"
            )
        }
    }

    /// How the app draws `record`: findings for what it draws with a fallback (info) or not at all (warning), and
    /// the counts of rows drawn as mapped, with a fallback, and not.
    func findings(_ record: LayoutRecord) -> (findings: [Diagnostic], mapped: Int, fallback: Int, missing: Int) {
        var out: [Diagnostic] = []
        var (mapped, fallback, missing) = (0, 0, 0)
        for section in record.sections where section.visible {
            for (n, row) in section.rows.enumerated() {
                guard let renderer = row.renderer else { continue }  // unresolved: the record's diagnostics say why
                if renderers.contains(renderer) {
                    mapped += 1
                } else if let drawn = row.fallbacks.first(where: renderers.contains) {
                    fallback += 1
                    out.append(
                        Diagnostic(
                            .info, .clientFallback, path: section.path,
                            "row \(n) (id \(row.id)): \(name) has no \(renderer); it draws the row as \(drawn), the first of its fallbacks (\(row.fallbacks.joined(separator: ", "))) it has"
                        ))
                } else {
                    missing += 1
                    let chain =
                        row.fallbacks.isEmpty
                        ? "and the row has no fallbacks"
                        : "nor any of its fallbacks (\(row.fallbacks.joined(separator: ", ")))"
                    out.append(
                        Diagnostic(
                            .warning, .clientMissing, path: section.path,
                            "row \(n) (id \(row.id)): \(name) has no \(renderer) \(chain): only its generic fallback view can draw it"
                        ))
                }
            }
            for view in section.supplementary {
                guard let renderer = view.renderer, !renderers.contains(renderer) else { continue }
                out.append(
                    Diagnostic(
                        .warning, .clientMissing, path: section.path,
                        "\(view.kind) \(renderer): \(name) has no \(renderer); the \(view.kind) is not drawn"))
            }
            if let p = section.placeholder {
                let renderer = p.renderer ?? p.kind.builtInRenderer
                if !renderers.contains(renderer) {
                    out.append(
                        Diagnostic(
                            .warning, .clientMissing, path: section.path,
                            "\(p.kind.rawValue) placeholder \(renderer): \(name) has no \(renderer); the placeholder is not drawn"
                        ))
                }
            }
        }
        return (out, mapped, fallback, missing)
    }
}

/// A `check` option that cannot be used, with what to do.
struct CheckFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
