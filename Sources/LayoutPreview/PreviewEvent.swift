import LayoutJSON

/// What the page is told, one server-sent event each (`data:` a JSON object with a `type`).
public enum PreviewEvent: Sendable, Equatable {
    /// Every page and the config's problem: the first event of every connection.
    case snapshot(pages: [PreviewPage], problem: String?)
    /// A change set for page `page`'s record (from empty when the page had none).
    case change(page: Int, changeSet: [UInt8])
    /// A problem for one page, or (page nil) for all of them, e.g. the config; a nil message clears it.
    case problem(page: Int?, message: String?)
    /// Keeps the connection open through proxies; the page ignores it.
    case ping

    /// The event as the bytes of a `text/event-stream`.
    public var serverSentEvent: [UInt8] {
        if case .ping = self { return Array(": ping\n\n".utf8) }
        var event = Array("data: ".utf8)
        event += JSONWriter.bytes(capacity: 256) { w in
            w.beginObject()
            switch self {
            case .snapshot(let pages, let problem):
                w.key("type")
                w.string("snapshot")
                w.key("problem")
                w.string(orNull: problem)
                w.key("pages")
                w.beginArray()
                for page in pages {
                    w.beginObject()
                    w.key("name")
                    w.string(page.name)
                    w.key("record")
                    if let record = page.record { w.string(utf8: record[...]) } else { w.null() }
                    w.key("problem")
                    w.string(orNull: page.problem)
                    w.endObject()
                }
                w.endArray()
            case .change(let page, let changeSet):
                w.key("type")
                w.string("change")
                w.key("page")
                w.int(page)
                w.key("changeSet")
                w.string(utf8: changeSet[...])
            case .problem(let page, let message):
                w.key("type")
                w.string("problem")
                w.key("page")
                if let page { w.int(page) } else { w.null() }
                w.key("message")
                w.string(orNull: message)
            case .ping: break
            }
            w.endObject()
        }
        event += Array("\n\n".utf8)
        return event
    }
}
