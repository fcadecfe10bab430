import PackagePlugin

/// Compiles a served page into the target that serves it: the web client (`clients/web/layout-client.js` and its
/// modules, the one copy a web app also uses) and the page's own files (`clients/web/preview/` for the preview,
/// `clients/web/gateway/` for the gateway's live page) become one generated Swift file (`WebFiles.all`), so the `layout-worker` binary
/// needs nothing beside it to serve the page.
@main
struct EmbedPreviewPage: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        let web = context.package.directoryURL.appending(path: "clients/web")
        // Named here rather than listed from the folder: SwiftPM plans plugin commands again only when the package
        // changes, so a file added to the folder alone would not be picked up.
        let client = [
            "layout-client.js", "wire.js", "content-hash.js", "json-text.js", "change-set-applier.js", "layout-feed.js",
            "layout-view.js",
        ]
        let files =
            client
            + (target.name == "Gateway"
                ? ["gateway/index.html", "gateway/live.js", "preview/preview.css"]
                : ["preview/index.html", "preview/preview.js", "preview/cells.js", "preview/preview.css"])
        let inputs = files.map { web.appending(path: $0) }
        let output = context.pluginWorkDirectoryURL.appending(path: "WebFiles.swift")
        return [
            .buildCommand(
                displayName: "Embedding the \(target.name) page (\(inputs.count) files)",
                executable: try context.tool(named: "FileEmbedder").url,
                arguments: [output.path(percentEncoded: false)] + inputs.map { $0.path(percentEncoded: false) },
                inputFiles: inputs, outputFiles: [output])
        ]
    }
}
