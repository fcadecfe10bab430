package io.layoutworker.layoutkit;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * RecyclerView's view of a {@link ListUpdate}: the operations applied one after another to the old list of keys,
 * each refused (as RecyclerView's "Inconsistency detected" would) when a position is out of the list as the
 * operations before it left it. What remains, and which items were marked changed, must be the new list exactly.
 */
final class InOrderModel {
    final List<String> keys;
    final Set<String> changed = new HashSet<>();

    InOrderModel(List<String> keys) { this.keys = new ArrayList<>(keys); }

    void apply(ListUpdate update, AdapterList now) {
        update.dispatchTo(new ListUpdateCallback() {
            @Override public void onInserted(int position, int count) {
                check(position >= 0 && position <= keys.size() && count > 0, "insert " + position + "+" + count);
                for (int k = 0; k < count; k++) keys.add(position + k, now.get(position + k).key);
            }

            @Override public void onRemoved(int position, int count) {
                check(position >= 0 && count > 0 && position + count <= keys.size(), "remove " + position + "+" + count);
                for (int k = 0; k < count; k++) keys.remove(position);
            }

            @Override public void onMoved(int from, int to) {
                check(from >= 0 && from < keys.size() && to >= 0 && to < keys.size(), "move " + from + "→" + to);
                keys.add(to, keys.remove(from));
            }

            @Override public void onChanged(int position, int count, Object payload) {
                check(position >= 0 && count > 0 && position + count <= keys.size(), "change " + position + "+" + count);
                for (int k = 0; k < count; k++) {
                    String key = keys.get(position + k);
                    check(payload instanceof AdapterList.Item && ((AdapterList.Item) payload).key.equals(key),
                            "change payload at " + position + " is not the item there (" + key + ")");
                    changed.add(key);
                }
            }
        });
    }

    private void check(boolean ok, String what) {
        if (!ok) throw new IllegalStateException("Inconsistency detected: " + what + " on a list of " + keys.size());
    }

    /** Checks `update` takes `old` to `now` with exactly the items whose content differs marked changed. */
    static String verify(AdapterList old, AdapterList now, ListUpdate update) {
        InOrderModel model = new InOrderModel(old.keys());
        try {
            model.apply(update, now);
        } catch (IllegalStateException e) {
            return e.getMessage() + " in " + update.operations();
        }
        if (!model.keys.equals(now.keys())) return "ends as " + model.keys + ", not " + now.keys();
        Set<String> expected = new HashSet<>();
        java.util.Map<String, Long> before = new java.util.HashMap<>();
        for (AdapterList.Item i : old.items()) before.put(i.key, i.content);
        for (AdapterList.Item i : now.items()) {
            Long was = before.get(i.key);
            if (was != null && was != i.content) expected.add(i.key);
        }
        if (!model.changed.equals(expected)) return "marked changed " + model.changed + ", not " + expected;
        return null;
    }
}
