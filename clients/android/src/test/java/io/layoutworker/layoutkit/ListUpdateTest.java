package io.layoutworker.layoutkit;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.Test;

/** Adapter positions and the operations between them, on small records whose answer is known. */
public class ListUpdateTest {
    /** A record of one visible section with a header and rows {@code ids} (a row's model is its {@code v}). */
    static PageLayout page(String header, String... rows) throws Exception {
        StringBuilder r = new StringBuilder();
        for (String row : rows) {
            String[] idAndValue = row.split("=");
            if (r.length() > 0) r.append(',');
            r.append("{\"id\":\"").append(idAndValue[0]).append("\",\"renderer\":\"Cell\",\"model\":{\"v\":\"")
                    .append(idAndValue.length > 1 ? idAndValue[1] : "").append("\"}}");
        }
        String text = "{\"version\":2,\"source\":null,\"page\":null,\"sections\":[{\"id\":\"s\",\"path\":\"$\",\"index\":0,"
                + "\"type\":\"T\",\"adaptor\":\"A\",\"visible\":true,\"header\":{\"renderer\":\"H\",\"model\":\"" + header
                + "\"},\"rows\":[" + r + "]}],\"diagnostics\":[]}";
        return PageLayout.of(text.getBytes(StandardCharsets.UTF_8));
    }

    static List<String> ops(PageLayout a, PageLayout b) {
        ListUpdate u = ListUpdate.between(a.items, b.items);
        assertNull(InOrderModel.verify(a.items, b.items, u));
        List<String> out = new ArrayList<>();
        for (ListUpdate.Op op : u.operations()) out.add(op.toString());
        return out;
    }

    @Test public void positionsAreHeaderThenRowsWithStableIds() throws Exception {
        PageLayout p = page("h", "a", "b");
        assertEquals(3, p.items.size());
        assertEquals(AdapterList.Kind.HEADER, p.items.get(0).kind);
        assertEquals("b", p.items.get(2).row.id);
        assertEquals(p.items.get(2).stableId, page("other", "b").items.get(1).stableId);
        assertTrue(p.items.get(1).stableId != p.items.get(2).stableId);
    }

    @Test public void oneItemMovedToTheEndIsOneMove() throws Exception {
        assertEquals(Arrays.asList("moved(1 → 4)"), ops(page("h", "a", "b", "c", "d"), page("h", "b", "c", "d", "a")));
    }

    @Test public void removalsGoFirstHighestFirstThenInsertionsLowestFirst() throws Exception {
        assertEquals(Arrays.asList("removed(4, 1)", "removed(1, 2)", "inserted(1, 1)", "inserted(3, 2)"),
                ops(page("h", "a", "b", "c", "d"), page("h", "x", "c", "y", "z")));
    }

    @Test public void aChangedRowAndAChangedHeaderAreChangedAtTheirNewPlaces() throws Exception {
        assertEquals(Arrays.asList("inserted(1, 1)", "changed(0, 1)", "changed(3, 1)"),
                ops(page("h", "a", "b=1"), page("h2", "n", "a", "b=2")));
    }

    @Test public void duplicateIdsAreToldApartByOccurrence() throws Exception {
        PageLayout p = page("h", "a", "a", "b");
        assertEquals(4, new java.util.HashSet<>(p.items.keys()).size());
        ops(page("h", "a", "b"), p);
    }

    @Test public void randomPermutationsWithEditsHoldInOrder() throws Exception {
        Random g = new Random(20261128);
        for (int n = 0; n < 2_000; n++) {
            List<String> a = new ArrayList<>(), b = new ArrayList<>();
            int size = g.nextInt(12);
            for (int k = 0; k < size; k++) a.add("r" + k + "=" + g.nextInt(2));
            for (String s : a) if (g.nextInt(5) > 0) b.add(s.split("=")[0] + "=" + (g.nextInt(4) == 0 ? "x" : s.split("=")[1]));
            java.util.Collections.shuffle(b, g);
            for (int k = 0; k < g.nextInt(4); k++) b.add(g.nextInt(b.size() + 1), "new" + k);
            ops(page("h", a.toArray(new String[0])), page(g.nextBoolean() ? "h" : "h2", b.toArray(new String[0])));
        }
    }
}
