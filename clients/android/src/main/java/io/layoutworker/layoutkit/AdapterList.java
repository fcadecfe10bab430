package io.layoutworker.layoutkit;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A record flattened into a RecyclerView adapter's positions: for each visible section in order its header, its
 * rows, its placeholder and its footer. Every item has a key unique in the list and a stable id derived from it
 * ({@code getItemId}, with {@code setHasStableIds(true)}): a row is its section's id and its own; a header, footer
 * or placeholder its section's id and its kind. A repeated id (the differ reports it as {@code duplicate-ids}) is
 * told apart by its occurrence.
 */
public final class AdapterList {
    /** What an item draws. */
    public enum Kind { HEADER, ROW, PLACEHOLDER, FOOTER }

    /** One adapter position. */
    public static final class Item {
        public final Kind kind;
        /** The section's index in the record, and the section. */
        public final int sectionIndex;
        public final Layout.Section section;
        /** The row (for {@link Kind#ROW}), the view (header, footer) or the placeholder; the others null. */
        public final Layout.Row row;
        public final Layout.SupplementaryView view;
        public final Layout.Placeholder placeholder;
        /** Unique in the list; the same for the same section, kind and row in every record of the page. */
        public final String key;
        /** XXH64 of {@link #key}: the RecyclerView stable id. */
        public final long stableId;
        /** What the item shows: its bytes' hash; a different value at the same key means "changed". */
        final long content;

        Item(Kind kind, int sectionIndex, Layout.Section section, Layout.Row row, String key, long content) {
            this.kind = kind;
            this.sectionIndex = sectionIndex;
            this.section = section;
            this.row = row;
            this.view = kind == Kind.HEADER ? section.header : kind == Kind.FOOTER ? section.footer : null;
            this.placeholder = kind == Kind.PLACEHOLDER ? section.placeholder : null;
            this.key = key;
            this.stableId = ContentHash.of(key).value();
            this.content = content;
        }

        @Override public String toString() { return key.replace('\u0001', '/'); }
    }

    private final List<Item> items;

    private AdapterList(List<Item> items) { this.items = Collections.unmodifiableList(items); }

    /** The positions of {@code record}. */
    public static AdapterList of(Layout.Record record) {
        List<Item> items = new ArrayList<>();
        Map<String, Integer> seen = new HashMap<>();
        for (int s = 0; s < record.sections.size(); s++) {
            Layout.Section section = record.sections.get(s);
            if (!section.visible) continue;
            String sectionKey = unique(String.valueOf(section.id), seen);
            if (section.header != null) {
                items.add(new Item(Kind.HEADER, s, section, null, sectionKey + "\u0001header", section.headHash));
            }
            Map<String, Integer> rowSeen = new HashMap<>();
            for (Layout.Row row : section.rows) {
                String key = sectionKey + "\u0001row\u0001" + unique(String.valueOf(row.id), rowSeen);
                items.add(new Item(Kind.ROW, s, section, row, key, row.hash));
            }
            if (section.placeholder != null) {
                items.add(new Item(Kind.PLACEHOLDER, s, section, null, sectionKey + "\u0001placeholder", section.headHash));
            }
            if (section.footer != null) {
                items.add(new Item(Kind.FOOTER, s, section, null, sectionKey + "\u0001footer", section.headHash));
            }
        }
        return new AdapterList(items);
    }

    private static String unique(String id, Map<String, Integer> seen) {
        Integer n = seen.get(id);
        seen.put(id, n == null ? 1 : n + 1);
        return n == null ? id : id + "\u0001#" + n;
    }

    /** {@code getItemCount()}. */
    public int size() { return items.size(); }

    /** The item at an adapter position. */
    public Item get(int position) { return items.get(position); }

    /** All items, in position order. */
    public List<Item> items() { return items; }

    /** Every item's key, in position order. */
    public List<String> keys() {
        List<String> keys = new ArrayList<>(items.size());
        for (Item i : items) keys.add(i.key);
        return keys;
    }
}
