package io.layoutworker.layoutkit;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A layout record as typed values (LayoutKit's {@code Layout}): what an app draws. Models, attributes and event
 * fields stay JSON text ({@code modelJson}), byte for byte as published, for the app's own JSON library (Moshi,
 * Gson, kotlinx.serialization) to read into its view models.
 */
public final class Layout {
    private Layout() {}

    /** A record: its sections in order. */
    public static final class Record {
        public final int version;
        public final List<Section> sections;
        /** The record's exact bytes and their hash. */
        public final byte[] bytes;
        public final ContentHash hash;

        Record(int version, List<Section> sections, byte[] bytes) {
            this.version = version;
            this.sections = sections;
            this.bytes = bytes;
            this.hash = ContentHash.of(bytes);
        }

        /** Reads a record (a line end after it is not part of it). */
        public static Record parse(byte[] bytes) throws ChangeSetException.NotALayoutRecord {
            byte[] record = ChangeSetApplier.withoutLineEnd(bytes);
            try {
                JsonText t = new JsonText(record, "record");
                JsonText.Span[] top = t.values(t.root(), Wire.Key.VERSION, Wire.Key.SECTIONS);
                Integer version = t.integer(top[0]);
                if (version == null || version != Wire.FORMAT_VERSION) {
                    throw new ChangeSetException.NotALayoutRecord(
                            "unsupported or missing `version` (this kit reads " + Wire.FORMAT_VERSION + ")");
                }
                if (top[1] == null || t.kind(top[1]) != JsonText.Kind.ARRAY) {
                    throw new ChangeSetException.NotALayoutRecord("no `sections` array");
                }
                List<Section> sections = new ArrayList<>();
                for (JsonText.Span s : t.elements(top[1])) sections.add(Section.read(t, s));
                return new Record(version, Collections.unmodifiableList(sections), record);
            } catch (ChangeSetException.InvalidChangeSet e) {
                throw new ChangeSetException.NotALayoutRecord(e.getMessage().replaceFirst("^invalid change set: ", ""));
            }
        }

        /** The record of {@link Wire#EMPTY_RECORD}: no sections. */
        public static Record empty() {
            try {
                return parse(Wire.EMPTY_RECORD.getBytes(StandardCharsets.UTF_8));
            } catch (ChangeSetException.NotALayoutRecord e) {
                throw new AssertionError(e);
            }
        }
    }

    /** One section: an adaptor's output for one content item. */
    public static final class Section {
        public final String id;
        public final String path;
        public final int index;
        public final String type;
        public final String adaptor;
        public final boolean visible;
        public final String parent;
        /** The section's attributes as JSON text, or null. */
        public final String attributesJson;
        public final SupplementaryView header;
        public final SupplementaryView footer;
        /** Other supplementary views by kind. */
        public final Map<String, SupplementaryView> supplementary;
        public final Placeholder placeholder;
        public final List<Row> rows;
        /** XXH64 of the section's members other than its rows: what its header, footer and placeholder show. */
        final long headHash;

        private Section(JsonText t, JsonText.Span s, Map<String, JsonText.Span> m, List<Row> rows, long headHash)
                throws ChangeSetException.InvalidChangeSet {
            this.id = t.string(m.get(Wire.Key.ID));
            this.path = t.string(m.get(Wire.Key.PATH));
            Integer index = t.integer(m.get(Wire.Key.INDEX));
            this.index = index == null ? -1 : index;
            this.type = t.string(m.get(Wire.Key.TYPE));
            this.adaptor = t.string(m.get(Wire.Key.ADAPTOR));
            Boolean visible = t.bool(m.get(Wire.Key.VISIBLE));
            this.visible = visible == null || visible;
            this.parent = t.string(m.get(Wire.Key.PARENT));
            JsonText.Span attributes = m.get(Wire.Key.ATTRIBUTES);
            this.attributesJson = attributes == null ? null : t.rawText(attributes);
            this.header = SupplementaryView.read(t, m.get(Wire.Key.HEADER), Wire.Key.HEADER);
            this.footer = SupplementaryView.read(t, m.get(Wire.Key.FOOTER), Wire.Key.FOOTER);
            Map<String, SupplementaryView> others = new LinkedHashMap<>();
            JsonText.Span sup = m.get(Wire.Key.SUPPLEMENTARY);
            if (sup != null && t.kind(sup) == JsonText.Kind.OBJECT) {
                for (JsonText.Member k : t.members(sup)) {
                    String kind = t.string(k.key);
                    others.put(kind, SupplementaryView.read(t, k.value, kind));
                }
            }
            this.supplementary = Collections.unmodifiableMap(others);
            this.placeholder = Placeholder.read(t, m.get(Wire.Key.PLACEHOLDER));
            this.rows = rows;
            this.headHash = headHash;
        }

        static Section read(JsonText t, JsonText.Span s) throws ChangeSetException.InvalidChangeSet {
            Map<String, JsonText.Span> m = new LinkedHashMap<>();
            long head = 0;
            List<Row> rows = new ArrayList<>();
            for (JsonText.Member member : t.members(s)) {
                String key = t.string(member.key);
                if (key == null || m.containsKey(key)) continue;
                m.put(key, member.value);
                if (Wire.Key.ROWS.equals(key) && t.kind(member.value) == JsonText.Kind.ARRAY) {
                    for (JsonText.Span r : t.elements(member.value)) rows.add(Row.read(t, r));
                } else if (!Wire.Key.INDEX.equals(key)) {
                    // The head: every member but the rows and the index (which moves with the section).
                    head = head * 31 + ContentHash.xxh64(t.bytes, member.key.start, member.value.end - member.key.start);
                }
            }
            return new Section(t, s, m, Collections.unmodifiableList(rows), head);
        }

        /** The {@code kind} view of the section ({@code header}, {@code footer}, or a supplementary kind), or null. */
        public SupplementaryView view(String kind) {
            if (Wire.Key.HEADER.equals(kind)) return header;
            if (Wire.Key.FOOTER.equals(kind)) return footer;
            return supplementary.get(kind);
        }
    }

    /** A header, a footer or another supplementary view. */
    public static final class SupplementaryView {
        public final String kind;
        public final String renderer;
        public final String modelJson;

        SupplementaryView(String kind, String renderer, String modelJson) {
            this.kind = kind;
            this.renderer = renderer;
            this.modelJson = modelJson;
        }

        static SupplementaryView read(JsonText t, JsonText.Span s, String kind) throws ChangeSetException.InvalidChangeSet {
            if (s == null || t.kind(s) != JsonText.Kind.OBJECT) return null;
            JsonText.Span[] v = t.values(s, Wire.Key.RENDERER, Wire.Key.MODEL);
            return new SupplementaryView(kind, t.string(v[0]), v[1] == null ? "null" : t.rawText(v[1]));
        }
    }

    /** A loading, no-results or error placeholder. */
    public static final class Placeholder {
        public final String kind;
        public final String renderer;
        public final String message;

        Placeholder(String kind, String renderer, String message) {
            this.kind = kind;
            this.renderer = renderer;
            this.message = message;
        }

        static Placeholder read(JsonText t, JsonText.Span s) throws ChangeSetException.InvalidChangeSet {
            if (s == null || t.kind(s) != JsonText.Kind.OBJECT) return null;
            JsonText.Span[] v = t.values(s, Wire.Key.KIND, Wire.Key.RENDERER, Wire.Key.MESSAGE);
            return new Placeholder(t.string(v[0]), t.string(v[1]), t.string(v[2]));
        }
    }

    /** One row: its id (stable within its section), its renderer and fallbacks, its model. */
    public static final class Row {
        public final String id;
        /** Null when no mapping (or more than one) matched: the record's diagnostics say why. */
        public final String renderer;
        /** Renderers to try, in order, when an app does not have {@link #renderer}. */
        public final List<String> fallbacks;
        public final String modelJson;
        public final Action action;
        /** Event name ({@code onSelect}, ...) to its handler. */
        public final Map<String, Event> events;
        /** XXH64 of the row's exact bytes. */
        final long hash;

        Row(String id, String renderer, List<String> fallbacks, String modelJson, Action action,
                Map<String, Event> events, long hash) {
            this.id = id;
            this.renderer = renderer;
            this.fallbacks = fallbacks;
            this.modelJson = modelJson;
            this.action = action;
            this.events = events;
            this.hash = hash;
        }

        /** A row made by an app or a test (no bytes of its own). */
        public Row(String id, String renderer, List<String> fallbacks) {
            this(id, renderer, fallbacks == null ? Collections.<String>emptyList() : fallbacks, "null", null,
                    Collections.<String, Event>emptyMap(), 0);
        }

        static Row read(JsonText t, JsonText.Span s) throws ChangeSetException.InvalidChangeSet {
            JsonText.Span[] v = t.values(s, Wire.Key.ID, Wire.Key.RENDERER, Wire.Key.FALLBACKS, Wire.Key.MODEL,
                    Wire.Key.ACTION, Wire.Key.EVENTS);
            List<String> fallbacks = new ArrayList<>();
            if (v[2] != null && t.kind(v[2]) == JsonText.Kind.ARRAY) {
                for (JsonText.Span f : t.elements(v[2])) {
                    String name = t.string(f);
                    if (name != null) fallbacks.add(name);
                }
            }
            Map<String, Event> events = new LinkedHashMap<>();
            if (v[5] != null && t.kind(v[5]) == JsonText.Kind.OBJECT) {
                for (JsonText.Member e : t.members(v[5])) {
                    JsonText.Span[] ev = t.values(e.value, Wire.Key.HANDLER, Wire.Key.ACTION, Wire.Key.FIELDS);
                    events.put(t.string(e.key), new Event(t.string(ev[0]), Action.read(t, ev[1]),
                            ev[2] == null ? null : t.rawText(ev[2])));
                }
            }
            return new Row(t.string(v[0]), t.string(v[1]), Collections.unmodifiableList(fallbacks),
                    v[3] == null ? "null" : t.rawText(v[3]), Action.read(t, v[4]),
                    Collections.unmodifiableMap(events), ContentHash.xxh64(t.bytes, s.start, s.end - s.start));
        }
    }

    /** What selecting a row does: {@code kind} ({@code navigate}, ...), {@code target}, {@code label}. */
    public static final class Action {
        public final String kind;
        public final String target;
        public final String label;

        Action(String kind, String target, String label) {
            this.kind = kind;
            this.target = target;
            this.label = label;
        }

        static Action read(JsonText t, JsonText.Span s) throws ChangeSetException.InvalidChangeSet {
            if (s == null || t.kind(s) != JsonText.Kind.OBJECT) return null;
            JsonText.Span[] v = t.values(s, Wire.Key.KIND, Wire.Key.TARGET, Wire.Key.LABEL);
            return new Action(t.string(v[0]), t.string(v[1]), t.string(v[2]));
        }
    }

    /** An event of a row: the app's handler name, an action, fields as JSON text. */
    public static final class Event {
        public final String handler;
        public final Action action;
        public final String fieldsJson;

        Event(String handler, Action action, String fieldsJson) {
            this.handler = handler;
            this.action = action;
            this.fieldsJson = fieldsJson;
        }
    }
}
