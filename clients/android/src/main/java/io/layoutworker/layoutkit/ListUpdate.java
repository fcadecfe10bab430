package io.layoutworker.layoutkit;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The ordered operations that turn one {@link AdapterList} into the next, for a RecyclerView adapter: removes (from
 * the end), moves, inserts, then changes. Each operation's positions are those of the list as the operations before
 * it left it, as RecyclerView applies them one after another: removals are dispatched highest first, each moved
 * item goes straight to its place after the ones already in order (the longest run already in order never moves),
 * insertions go in ascending order, and a change names the item's final position with the new item as payload.
 */
public final class ListUpdate {
    /** One operation. */
    public static final class Op {
        public enum Type { INSERTED, REMOVED, MOVED, CHANGED }

        public final Type type;
        /** Position, or the from-position of a move. */
        public final int position;
        /** Items covered (1 for a move). */
        public final int count;
        /** The to-position of a move; -1 otherwise. */
        public final int toPosition;
        /** The new item, for a change. */
        public final AdapterList.Item payload;

        Op(Type type, int position, int count, int toPosition, AdapterList.Item payload) {
            this.type = type;
            this.position = position;
            this.count = count;
            this.toPosition = toPosition;
            this.payload = payload;
        }

        @Override public String toString() {
            switch (type) {
                case MOVED: return "moved(" + position + " → " + toPosition + ")";
                default: return type.name().toLowerCase() + "(" + position + ", " + count + ")";
            }
        }
    }

    private final List<Op> ops;

    private ListUpdate(List<Op> ops) { this.ops = Collections.unmodifiableList(ops); }

    public List<Op> operations() { return ops; }

    public boolean isEmpty() { return ops.isEmpty(); }

    /** Hands every operation, in order, to {@code callback}. */
    public void dispatchTo(ListUpdateCallback callback) {
        for (Op op : ops) {
            switch (op.type) {
                case INSERTED: callback.onInserted(op.position, op.count); break;
                case REMOVED: callback.onRemoved(op.position, op.count); break;
                case MOVED: callback.onMoved(op.position, op.toPosition); break;
                default: callback.onChanged(op.position, op.count, op.payload); break;
            }
        }
    }

    /** The operations from {@code old} to {@code now}. */
    public static ListUpdate between(AdapterList old, AdapterList now) {
        List<Op> ops = new ArrayList<>();
        Map<String, Integer> newIndex = new HashMap<>();
        for (int j = 0; j < now.size(); j++) newIndex.put(now.get(j).key, j);
        Map<String, Integer> oldIndex = new HashMap<>();
        for (int i = 0; i < old.size(); i++) oldIndex.put(old.get(i).key, i);

        // 1. Removals, highest first, a run of neighbours in one operation.
        int i = old.size() - 1;
        while (i >= 0) {
            if (newIndex.containsKey(old.get(i).key)) {
                i--;
                continue;
            }
            int end = i;
            while (i >= 0 && !newIndex.containsKey(old.get(i).key)) i--;
            ops.add(new Op(Op.Type.REMOVED, i + 1, end - i, -1, null));
        }
        List<String> current = new ArrayList<>();
        for (AdapterList.Item item : old.items()) if (newIndex.containsKey(item.key)) current.add(item.key);

        // 2. Moves: what is not in the longest run already in new order goes after its new predecessor.
        int[] order = new int[current.size()];
        for (int k = 0; k < order.length; k++) order[k] = newIndex.get(current.get(k));
        boolean[] placed = new boolean[now.size()];
        for (int k : longestIncreasing(order)) placed[order[k]] = true;
        for (int j = 0; j < now.size(); j++) {
            String key = now.get(j).key;
            if (!oldIndex.containsKey(key) || placed[j]) continue;
            int from = current.indexOf(key);
            current.remove(from);
            int to = 0;
            for (int p = j - 1; p >= 0; p--) {
                if (placed[p]) {
                    to = current.indexOf(now.get(p).key) + 1;
                    break;
                }
            }
            current.add(to, key);
            placed[j] = true;
            if (from != to) ops.add(new Op(Op.Type.MOVED, from, 1, to, null));
        }

        // 3. Insertions, lowest first, a run of neighbours in one operation.
        int j = 0;
        while (j < now.size()) {
            if (oldIndex.containsKey(now.get(j).key)) {
                j++;
                continue;
            }
            int start = j;
            while (j < now.size() && !oldIndex.containsKey(now.get(j).key)) j++;
            ops.add(new Op(Op.Type.INSERTED, start, j - start, -1, null));
        }

        // 4. Changes, at final positions.
        for (j = 0; j < now.size(); j++) {
            AdapterList.Item item = now.get(j);
            Integer was = oldIndex.get(item.key);
            if (was != null && old.get(was).content != item.content) ops.add(new Op(Op.Type.CHANGED, j, 1, -1, item));
        }
        return new ListUpdate(ops);
    }

    /** Indices into {@code values} of one longest strictly increasing subsequence. */
    static int[] longestIncreasing(int[] values) {
        int n = values.length;
        int[] tails = new int[n];
        int[] previous = new int[n];
        int length = 0;
        for (int k = 0; k < n; k++) {
            int low = 0, high = length;
            while (low < high) {
                int mid = (low + high) >>> 1;
                if (values[tails[mid]] < values[k]) low = mid + 1; else high = mid;
            }
            previous[k] = low > 0 ? tails[low - 1] : -1;
            tails[low] = k;
            if (low == length) length++;
        }
        int[] out = new int[length];
        for (int k = length - 1, at = length > 0 ? tails[length - 1] : -1; k >= 0; k--, at = previous[at]) out[k] = at;
        return out;
    }
}
