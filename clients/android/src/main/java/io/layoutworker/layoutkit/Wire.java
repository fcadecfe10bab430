package io.layoutworker.layoutkit;

/**
 * What records, change sets and the gateway agree on: the same names as LayoutKit's {@code Wire} (Swift) and the
 * web client's wire module; {@code WireContractTests.theAndroidKitSaysWhatWireSays} checks them against LayoutKit's.
 */
public final class Wire {
    private Wire() {}

    /** The record and change-set format version this kit reads. */
    public static final int FORMAT_VERSION = 2;
    /** A change set's {@code kind} member. */
    public static final String CHANGE_SET_KIND = "layout-change-set";
    public static final String RECORD_MEDIA_TYPE = "application/vnd.layout-record+json";
    public static final String CHANGE_SET_MEDIA_TYPE = "application/vnd.layout-change-set+json";
    /** The record before a page's first layout: a change set with {@code "base": null} applies to it. */
    public static final String EMPTY_RECORD =
            "{\"version\":" + FORMAT_VERSION + ",\"source\":null,\"page\":null,\"sections\":[],\"diagnostics\":[]}";

    /** Member names of records and change sets. */
    public static final class Key {
        private Key() {}

        public static final String VERSION = "version";
        public static final String SOURCE = "source";
        public static final String PAGE = "page";
        public static final String SECTIONS = "sections";
        public static final String DIAGNOSTICS = "diagnostics";
        public static final String TYPE = "type";
        public static final String NAME = "name";
        public static final String ID = "id";
        public static final String PATH = "path";
        public static final String INDEX = "index";
        public static final String ADAPTOR = "adaptor";
        public static final String VISIBLE = "visible";
        public static final String PARENT = "parent";
        public static final String ATTRIBUTES = "attributes";
        public static final String HEADER = "header";
        public static final String FOOTER = "footer";
        public static final String SUPPLEMENTARY = "supplementary";
        public static final String PLACEHOLDER = "placeholder";
        public static final String KIND = "kind";
        public static final String MESSAGE = "message";
        public static final String ROWS = "rows";
        public static final String RENDERER = "renderer";
        public static final String FALLBACKS = "fallbacks";
        public static final String MODEL = "model";
        public static final String ACTION = "action";
        public static final String EVENTS = "events";
        public static final String HANDLER = "handler";
        public static final String FIELDS = "fields";
        public static final String TARGET = "target";
        public static final String LABEL = "label";
        public static final String BASE = "base";
        public static final String HASH = "hash";
        public static final String RECORD = "record";
        public static final String REPLACE = "replace";
        public static final String UPDATES = "updates";
        public static final String DELETES = "deletes";
        public static final String INSERTS = "inserts";
        public static final String MOVES = "moves";
        public static final String PATHS = "paths";
        public static final String FROM = "from";
        public static final String TO = "to";
        public static final String SECTION = "section";
        public static final String ROW = "row";
    }
}
