package io.layoutworker.layoutkit;

import java.util.List;

/**
 * Where each item of a patched list comes from, worked out from a change set's deletes, inserts, moves and updates,
 * and checked: every index in range, every place filled once (LayoutKit's {@code ListPlan}).
 */
final class ListPlan {
    /** The members of a list's changes the plan reads, in the order the constructor takes their values. */
    static final String[] KEYS = {Wire.Key.DELETES, Wire.Key.INSERTS, Wire.Key.MOVES, Wire.Key.UPDATES};

    /** For each new place: the old index it keeps ({@code >= 0}), or -1 with {@link #inserted} set. */
    final int[] oldIndex;
    final JsonText.Span[] inserted;
    /** The update object for each old index that has one. */
    final JsonText.Span[] updates;

    ListPlan(JsonText.Span[] lists, JsonText cs, int oldCount, String payload, String what)
            throws ChangeSetException.InvalidChangeSet {
        List<JsonText.Span> deletes = array(lists, 0, cs, what), inserts = array(lists, 1, cs, what);
        List<JsonText.Span> moves = array(lists, 2, cs, what), updateNodes = array(lists, 3, cs, what);
        boolean[] removed = new boolean[oldCount];
        for (JsonText.Span d : deletes) {
            int i = index(cs, d, what, "deletes[]", oldCount);
            if (removed[i]) throw cs.invalid(what + ": old index " + i + " deleted or moved twice");
            removed[i] = true;
        }
        int newCount = oldCount - deletes.size() + inserts.size();
        if (newCount < 0) throw cs.invalid(what + ": more deletes than items");
        int[] slots = new int[newCount];
        java.util.Arrays.fill(slots, Integer.MIN_VALUE);
        inserted = new JsonText.Span[newCount];
        for (JsonText.Span ins : inserts) {
            JsonText.Span[] v = cs.values(ins, Wire.Key.INDEX, payload);
            int j = index(cs, v[0], what, "inserts[].index", newCount);
            if (v[1] == null) throw cs.invalid(what + ".inserts[] has no `" + payload + "`");
            if (slots[j] != Integer.MIN_VALUE) throw cs.invalid(what + ": new index " + j + " filled twice");
            slots[j] = -1;
            inserted[j] = v[1];
        }
        for (JsonText.Span move : moves) {
            JsonText.Span[] v = cs.values(move, Wire.Key.FROM, Wire.Key.TO);
            int i = index(cs, v[0], what, "moves[].from", oldCount);
            int j = index(cs, v[1], what, "moves[].to", newCount);
            if (removed[i]) throw cs.invalid(what + ": old index " + i + " deleted or moved twice");
            if (slots[j] != Integer.MIN_VALUE) throw cs.invalid(what + ": new index " + j + " filled twice");
            removed[i] = true;
            slots[j] = i;
        }
        int next = 0;
        for (int j = 0; j < newCount; j++) {
            if (slots[j] != Integer.MIN_VALUE) continue;
            while (next < oldCount && removed[next]) next++;
            if (next >= oldCount) throw cs.invalid(what + ": fewer surviving items than places to fill");
            slots[j] = next++;
        }
        while (next < oldCount && removed[next]) next++;
        if (next != oldCount) throw cs.invalid(what + ": more surviving items than places to fill");
        int[] position = new int[oldCount];
        java.util.Arrays.fill(position, -1);
        for (int j = 0; j < newCount; j++) {
            if (slots[j] >= 0) position[slots[j]] = j;
        }
        updates = new JsonText.Span[oldCount];
        for (JsonText.Span u : updateNodes) {
            JsonText.Span[] v = cs.values(u, Wire.Key.FROM, Wire.Key.TO);
            int i = index(cs, v[0], what, "updates[].from", oldCount);
            int j = index(cs, v[1], what, "updates[].to", newCount);
            if (position[i] != j) {
                throw cs.invalid(what + ": update from " + i + " to " + j + " disagrees with the moves (item lands at "
                        + position[i] + ")");
            }
            if (updates[i] != null) throw cs.invalid(what + ": old index " + i + " updated twice");
            updates[i] = u;
        }
        oldIndex = slots;
    }

    private static List<JsonText.Span> array(JsonText.Span[] lists, int k, JsonText cs, String what)
            throws ChangeSetException.InvalidChangeSet {
        if (lists[k] == null) return java.util.Collections.emptyList();
        if (cs.kind(lists[k]) != JsonText.Kind.ARRAY) throw cs.invalid(what + "." + KEYS[k] + " is not an array");
        return cs.elements(lists[k]);
    }

    private static int index(JsonText cs, JsonText.Span node, String what, String field, int limit)
            throws ChangeSetException.InvalidChangeSet {
        Integer i = cs.integer(node);
        if (i == null || i < 0 || i >= limit) {
            throw cs.invalid(what + ": `" + field + "` missing or out of range 0..<" + limit);
        }
        return i;
    }
}
