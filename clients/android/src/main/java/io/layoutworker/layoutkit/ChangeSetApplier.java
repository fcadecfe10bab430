package io.layoutworker.layoutkit;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Applies a change set to the record it was made against, giving the target record's exact bytes: the same rule as
 * LayoutKit's {@code ChangeSetApplier} and {@code layout-worker apply}, checked byte for byte against both.
 */
public final class ChangeSetApplier {
    /**
     * The record {@code changeSet} produces from {@code base} (null for a change set from empty; a line end after
     * the record is not part of it); checks both hashes. Given its own target (a duplicate delivery), returns the
     * base unchanged.
     *
     * @throws StaleBaseException the base is not the record the change set was made against: fetch the record
     * @throws ChangeSetException the change set or the record is malformed, or the result is not the target
     */
    public byte[] apply(byte[] changeSet, byte[] base) throws ChangeSetException {
        JsonText cs = new JsonText(changeSet, "change set");
        if (cs.kind(cs.root) != JsonText.Kind.OBJECT) throw cs.invalid("the root is not an object");
        JsonText.Span[] top = cs.values(cs.root, Wire.Key.VERSION, Wire.Key.TARGET, Wire.Key.BASE, Wire.Key.REPLACE,
                Wire.Key.RECORD, Wire.Key.SECTIONS, Wire.Key.KIND);
        Integer version = cs.integer(top[0]);
        if (version == null || version != Wire.FORMAT_VERSION) {
            throw cs.invalid("unsupported or missing `version` (this applier reads " + Wire.FORMAT_VERSION + ")");
        }
        if (top[6] != null && !Wire.CHANGE_SET_KIND.equals(cs.string(top[6]))) {
            throw cs.invalid("not a change set: `kind` is not \"" + Wire.CHANGE_SET_KIND + "\"");
        }
        ContentHash target = top[1] == null ? null : ContentHash.parse(cs.string(cs.value(top[1], Wire.Key.HASH)));
        if (target == null) throw cs.invalid("no `target.hash`");
        if (top[2] == null) throw cs.invalid("no `base`");
        RecordText old;
        if (cs.kind(top[2]) == JsonText.Kind.NULL) {
            old = new RecordText(RecordText.EMPTY_BYTES);
        } else {
            ContentHash expected = ContentHash.parse(cs.string(cs.value(top[2], Wire.Key.HASH)));
            if (expected == null) throw cs.invalid("no `base.hash`");
            if (base == null) throw new StaleBaseException(expected.toString(), "(no record)");
            byte[] record = withoutLineEnd(base);
            ContentHash actual = ContentHash.of(record);
            if (actual.equals(target) && !actual.equals(expected)) return record;
            if (!actual.equals(expected)) throw new StaleBaseException(expected.toString(), actual.toString());
            old = new RecordText(record);
        }
        byte[] out;
        if (top[3] != null) {
            out = cs.raw(top[3]);
        } else {
            Output w = new Output(old.text.bytes.length + changeSet.length);
            patch(old, top[4], top[5], cs, w);
            out = w.toByteArray();
        }
        ContentHash actual = ContentHash.of(out);
        if (!actual.equals(target)) throw new ChangeSetException.TargetMismatch(target.toString(), actual.toString());
        return out;
    }

    /** A record read as a line (a file, a log) ends with its line end, which is not part of the record. */
    static byte[] withoutLineEnd(byte[] bytes) {
        int n = bytes.length;
        while (n > 0 && (bytes[n - 1] == '\n' || bytes[n - 1] == '\r')) n--;
        return n == bytes.length ? bytes : java.util.Arrays.copyOf(bytes, n);
    }

    /** The bytes being written. */
    static final class Output extends ByteArrayOutputStream {
        Output(int capacity) { super(capacity); }

        void put(char c) { write(c); }

        void span(JsonText t, JsonText.Span s) { write(t.bytes, s.start, s.end - s.start); }

        void text(String s) {
            byte[] b = s.getBytes(StandardCharsets.UTF_8);
            write(b, 0, b.length);
        }
    }

    private void patch(RecordText old, JsonText.Span record, JsonText.Span sections, JsonText cs, Output out)
            throws ChangeSetException {
        if (record == null || cs.kind(record) != JsonText.Kind.OBJECT) throw cs.invalid("no `record` object");
        if (sections == null || cs.kind(sections) != JsonText.Kind.OBJECT) throw cs.invalid("no `sections` object");
        JsonText od = old.text;
        Map<String, JsonText.Span> changed = new HashMap<>();
        for (JsonText.Member m : cs.members(record)) changed.put(cs.rawText(m.key), m.value);
        out.put('{');
        for (int n = 0; n < old.members.size(); n++) {
            JsonText.Member member = old.members.get(n);
            if (n > 0) out.put(',');
            out.span(od, member.key);
            out.put(':');
            JsonText.Span v;
            if (n == old.sectionsMember) {
                writeSections(old, sections, cs, out);
            } else if ((v = changed.remove(od.rawText(member.key))) != null) {
                out.span(cs, v);
            } else {
                out.span(od, member.value);
            }
        }
        if (!changed.isEmpty()) throw cs.invalid("`record` names members the base record does not have");
        out.put('}');
    }

    private void writeSections(RecordText old, JsonText.Span changes, JsonText cs, Output out) throws ChangeSetException {
        JsonText.Span[] lists = cs.values(changes, Wire.Key.DELETES, Wire.Key.INSERTS, Wire.Key.MOVES,
                Wire.Key.UPDATES, Wire.Key.REPLACE, Wire.Key.PATHS);
        if (lists[4] != null) {
            if (cs.kind(lists[4]) != JsonText.Kind.ARRAY) throw cs.invalid("sections.replace is not an array");
            out.span(cs, lists[4]);
            return;
        }
        ListPlan plan = new ListPlan(lists, cs, old.sections.size(), Wire.Key.SECTION, Wire.Key.SECTIONS);
        JsonText od = old.text;
        int newCount = plan.oldIndex.length;
        Map<Integer, JsonText.Span> paths = new HashMap<>();
        if (lists[5] != null) {
            if (cs.kind(lists[5]) != JsonText.Kind.ARRAY) throw cs.invalid("sections.paths is not an array");
            for (JsonText.Span entry : cs.elements(lists[5])) {
                JsonText.Span[] v = cs.values(entry, Wire.Key.INDEX, Wire.Key.PATH);
                Integer i = cs.integer(v[0]);
                if (i == null || i < 0 || i >= newCount || v[1] == null || cs.kind(v[1]) != JsonText.Kind.STRING) {
                    throw cs.invalid("sections.paths[] needs an `index` below " + newCount + " and a string `path`");
                }
                paths.put(i, v[1]);
            }
        }
        out.put('[');
        for (int p = 0; p < newCount; p++) {
            if (p > 0) out.put(',');
            int i = plan.oldIndex[p];
            if (i < 0) {
                out.span(cs, plan.inserted[p]);
                continue;
            }
            RecordText.Section section = old.sections.get(i);
            JsonText.Span update = plan.updates[i];
            JsonText.Span[] parts = update == null ? null : cs.values(update, Wire.Key.SECTION, Wire.Key.ROWS);
            JsonText.Span rowChanges = parts == null ? null : parts[1];
            out.put('{');
            if (parts != null && parts[0] != null) {
                if (cs.kind(parts[0]) != JsonText.Kind.OBJECT) throw cs.invalid("sections.updates[].section is not an object");
                List<JsonText.Member> head = cs.members(parts[0]);
                for (int n = 0; n < head.size(); n++) {
                    JsonText.Member m = head.get(n);
                    if (n > 0) out.put(',');
                    out.span(cs, m.key);
                    out.put(':');
                    if (cs.keyEquals(m.key, Wire.Key.INDEX)) {
                        out.text(Integer.toString(p));
                    } else if (cs.keyEquals(m.key, Wire.Key.ROWS)) {
                        writeRows(section, od, rowChanges, cs, out);
                    } else {
                        out.span(cs, m.value);
                    }
                }
            } else {
                for (int n = 0; n < section.members.size(); n++) {
                    JsonText.Member member = section.members.get(n);
                    if (n > 0) out.put(',');
                    out.span(od, member.key);
                    out.put(':');
                    if (n == section.indexMember) {
                        out.text(Integer.toString(p));
                    } else if (n == section.pathMember && paths.containsKey(p)) {
                        out.span(cs, paths.get(p));
                    } else if (n == section.rowsMember) {
                        writeRows(section, od, rowChanges, cs, out);
                    } else {
                        out.span(od, member.value);
                    }
                }
            }
            out.put('}');
        }
        out.put(']');
    }

    private void writeRows(RecordText.Section section, JsonText od, JsonText.Span changes, JsonText cs, Output out)
            throws ChangeSetException {
        if (changes == null) {
            out.span(od, section.members.get(section.rowsMember).value);
            return;
        }
        if (cs.kind(changes) != JsonText.Kind.OBJECT) throw cs.invalid("rows changes are not an object");
        JsonText.Span[] lists = cs.values(changes, Wire.Key.DELETES, Wire.Key.INSERTS, Wire.Key.MOVES,
                Wire.Key.UPDATES, Wire.Key.REPLACE);
        if (lists[4] != null) {
            if (cs.kind(lists[4]) != JsonText.Kind.ARRAY) throw cs.invalid("rows.replace is not an array");
            out.span(cs, lists[4]);
            return;
        }
        ListPlan plan = new ListPlan(lists, cs, section.rows.size(), Wire.Key.ROW, Wire.Key.ROWS);
        out.put('[');
        for (int p = 0; p < plan.oldIndex.length; p++) {
            if (p > 0) out.put(',');
            int i = plan.oldIndex[p];
            if (i < 0) {
                out.span(cs, plan.inserted[p]);
            } else if (plan.updates[i] != null) {
                JsonText.Span row = cs.value(plan.updates[i], Wire.Key.ROW);
                if (row == null) throw cs.invalid("rows.updates[] has no `row`");
                out.span(cs, row);
            } else {
                out.span(od, section.rows.get(i));
            }
        }
        out.put(']');
    }
}
