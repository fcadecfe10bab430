extension Wire {
    /// Every member name of a layout record and a change set: the worker writes and reads them through these, this
    /// kit reads them through these, and `WireContractTests` checks them against `schemas/`. Static strings, so a
    /// writer copies them without a check.
    public enum Key {
        // A record.
        @inlinable public static var version: StaticString { "version" }
        @inlinable public static var source: StaticString { "source" }
        @inlinable public static var page: StaticString { "page" }
        @inlinable public static var sections: StaticString { "sections" }
        @inlinable public static var diagnostics: StaticString { "diagnostics" }
        // Its source (where the input came from).
        @inlinable public static var file: StaticString { "file" }
        @inlinable public static var topic: StaticString { "topic" }
        @inlinable public static var partition: StaticString { "partition" }
        @inlinable public static var offset: StaticString { "offset" }
        @inlinable public static var timestamp: StaticString { "timestamp" }
        @inlinable public static var key: StaticString { "key" }
        /// The URL a navigation state was fetched from (a gateway with `--origin`).
        @inlinable public static var origin: StaticString { "origin" }
        // Its page.
        @inlinable public static var type: StaticString { "type" }
        @inlinable public static var name: StaticString { "name" }
        @inlinable public static var contentPath: StaticString { "contentPath" }
        @inlinable public static var siteRootPath: StaticString { "siteRootPath" }
        @inlinable public static var siteProductionURL: StaticString { "siteProductionURL" }
        @inlinable public static var canonical: StaticString { "canonical" }
        // A section.
        @inlinable public static var id: StaticString { "id" }
        @inlinable public static var path: StaticString { "path" }
        @inlinable public static var index: StaticString { "index" }
        @inlinable public static var adaptor: StaticString { "adaptor" }
        @inlinable public static var visible: StaticString { "visible" }
        @inlinable public static var parent: StaticString { "parent" }
        @inlinable public static var group: StaticString { "group" }
        @inlinable public static var by: StaticString { "by" }
        @inlinable public static var value: StaticString { "value" }
        @inlinable public static var attributes: StaticString { "attributes" }
        @inlinable public static var header: StaticString { "header" }
        @inlinable public static var footer: StaticString { "footer" }
        @inlinable public static var supplementary: StaticString { "supplementary" }
        @inlinable public static var placeholder: StaticString { "placeholder" }
        @inlinable public static var kind: StaticString { "kind" }
        @inlinable public static var message: StaticString { "message" }
        @inlinable public static var rows: StaticString { "rows" }
        // A row, a view, an event, an action.
        @inlinable public static var renderer: StaticString { "renderer" }
        @inlinable public static var fallbacks: StaticString { "fallbacks" }
        @inlinable public static var model: StaticString { "model" }
        @inlinable public static var action: StaticString { "action" }
        @inlinable public static var events: StaticString { "events" }
        @inlinable public static var handler: StaticString { "handler" }
        @inlinable public static var fields: StaticString { "fields" }
        @inlinable public static var target: StaticString { "target" }
        @inlinable public static var label: StaticString { "label" }
        // A diagnostic.
        @inlinable public static var severity: StaticString { "severity" }
        @inlinable public static var code: StaticString { "code" }
        // A change set (besides `version`, `kind`, `key`, `target`, `sections`, `diagnostics` above).
        @inlinable public static var base: StaticString { "base" }
        @inlinable public static var hash: StaticString { "hash" }
        @inlinable public static var record: StaticString { "record" }
        @inlinable public static var replace: StaticString { "replace" }
        @inlinable public static var updates: StaticString { "updates" }
        @inlinable public static var deletes: StaticString { "deletes" }
        @inlinable public static var inserts: StaticString { "inserts" }
        @inlinable public static var moves: StaticString { "moves" }
        @inlinable public static var paths: StaticString { "paths" }
        @inlinable public static var from: StaticString { "from" }
        @inlinable public static var to: StaticString { "to" }
        @inlinable public static var section: StaticString { "section" }
        @inlinable public static var row: StaticString { "row" }

        /// Every name above, for the contract test.
        public static let all: [StaticString] = [
            version, source, page, sections, diagnostics, file, topic, partition, offset, timestamp, key, origin, type,
            name,
            contentPath, siteRootPath, siteProductionURL, canonical, id, path, index, adaptor, visible, parent, group,
            by, value, attributes, header, footer, supplementary, placeholder, kind, message, rows, renderer, fallbacks,
            model,
            action, events, handler, fields, target, label, severity, code, base, hash, record, replace, updates,
            deletes, inserts, moves, paths, from, to, section, row,
        ]
    }
}
