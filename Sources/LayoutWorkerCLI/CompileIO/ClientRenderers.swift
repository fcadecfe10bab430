import ContentTree
import Foundation
import LayoutRecord

/// The renderers one released app version has views for (`check --client FILE`: one name a line, `#` comments,
/// or a JSON array of names), and what that app makes of a record: each row drawn by its renderer, by the first of
/// its fallbacks the app has (as `RendererRegistry` and the web `rendererFor` pick), or not at all; supplementary
/// views and placeholders the app cannot draw.
struct ClientRenderers {
    let name: String
    let renderers: Set<String>

    /// The list in `path`, or why it cannot be read.
    static func load(_ path: String) throws -> ClientRenderers {
        let bytes: [UInt8]
        switch InputSource.file(path, maxBytes: .max) {
        case .success(let input): bytes = input.bytes
        case .failure(let e): throw CheckFailure("--client \(e.name): \(e.message)")
        }
        let data = Data(bytes)
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw CheckFailure("--client \(path): not UTF-8 text")
        }
        var names: [String] = []
        if text.drop(while: \.isWhitespace).first == "[" {
            guard let list = try? JSONSerialization.jsonObject(with: data) as? [String] else {
                throw CheckFailure("--client \(path): a JSON list must hold renderer names (strings) only")
            }
            names = list
        } else {
            for line in text.split(whereSeparator: \.isNewline) {
                let name = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0]
                    .trimmingCharacters(in: .whitespaces)
                if !name.isEmpty { names.append(name) }
            }
        }
        guard !names.isEmpty else { throw CheckFailure("--client \(path): no renderer names in it") }
        return ClientRenderers(name: (path as NSString).lastPathComponent, renderers: Set(names))
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
