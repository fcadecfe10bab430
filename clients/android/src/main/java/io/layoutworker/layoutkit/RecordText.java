package io.layoutworker.layoutkit;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** A layout record's text read for applying a change set: top-level members, each section's members and rows. */
final class RecordText {
    static final class Section {
        final List<JsonText.Member> members;
        final int indexMember;
        final int pathMember;
        final int rowsMember;
        final List<JsonText.Span> rows;

        Section(List<JsonText.Member> members, int indexMember, int pathMember, int rowsMember, List<JsonText.Span> rows) {
            this.members = members;
            this.indexMember = indexMember;
            this.pathMember = pathMember;
            this.rowsMember = rowsMember;
            this.rows = rows;
        }
    }

    static final byte[] EMPTY_BYTES = Wire.EMPTY_RECORD.getBytes(StandardCharsets.UTF_8);

    final JsonText text;
    final List<JsonText.Member> members;
    final int sectionsMember;
    final List<Section> sections;

    RecordText(byte[] bytes) throws ChangeSetException.NotALayoutRecord {
        try {
            text = new JsonText(bytes, "record");
            JsonText t = text;
            if (t.kind(t.root) != JsonText.Kind.OBJECT) throw new ChangeSetException.NotALayoutRecord("the root is not an object");
            members = t.members(t.root);
            int sm = -1;
            for (int k = 0; k < members.size(); k++) {
                if (t.keyEquals(members.get(k).key, Wire.Key.SECTIONS)) {
                    sm = k;
                    break;
                }
            }
            if (sm < 0 || t.kind(members.get(sm).value) != JsonText.Kind.ARRAY) {
                throw new ChangeSetException.NotALayoutRecord("no `sections` array");
            }
            sectionsMember = sm;
            sections = new ArrayList<>();
            int n = 0;
            for (JsonText.Span s : t.elements(members.get(sm).value)) {
                sections.add(section(t, s, n++));
            }
        } catch (ChangeSetException.InvalidChangeSet e) {
            throw new ChangeSetException.NotALayoutRecord(e.getMessage().replaceFirst("^invalid change set: ", ""));
        }
    }

    private static Section section(JsonText t, JsonText.Span s, int n)
            throws ChangeSetException.InvalidChangeSet, ChangeSetException.NotALayoutRecord {
        if (t.kind(s) != JsonText.Kind.OBJECT) throw new ChangeSetException.NotALayoutRecord("sections[" + n + "] is not an object");
        List<JsonText.Member> ms = t.members(s);
        int index = -1, path = -1, rows = -1;
        for (int k = 0; k < ms.size(); k++) {
            JsonText.Span key = ms.get(k).key;
            if (index < 0 && t.keyEquals(key, Wire.Key.INDEX)) index = k;
            if (path < 0 && t.keyEquals(key, Wire.Key.PATH)) path = k;
            if (rows < 0 && t.keyEquals(key, Wire.Key.ROWS)) rows = k;
        }
        if (index < 0) throw new ChangeSetException.NotALayoutRecord("sections[" + n + "] has no `index`");
        if (rows < 0 || t.kind(ms.get(rows).value) != JsonText.Kind.ARRAY) {
            throw new ChangeSetException.NotALayoutRecord("sections[" + n + "] has no `rows` array");
        }
        return new Section(ms, index, path, rows, t.elements(ms.get(rows).value));
    }
}
