package io.layoutworker.layoutkit;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.Test;

/**
 * The 10,000 random change sets the server's property test makes (BatchUpdatePropertyTests, the same ones LayoutKit's
 * batches are checked on; written by it to LW_RANDOM_CHANGE_SETS as change-set and target lines), applied in a chain
 * as a renderer would: each byte for byte, each list update checked by the in-order model.
 */
public class RandomChangeSetsTest {
    @Test public void tenThousandRandomChangeSetsApplyAndTheirListUpdatesHold() throws Exception {
        Path file = Fixtures.dir("LW_RANDOM_CHANGE_SETS");
        List<byte[]> lines = Fixtures.lines(file);
        assertEquals("pairs of lines", 0, lines.size() % 2);
        int count = lines.size() / 2;
        assertTrue("change sets: " + count, count >= 10_000);
        PageLayout page = PageLayout.empty();
        int ops = 0, moves = 0, failures = 0;
        StringBuilder first = new StringBuilder();
        for (int n = 0; n < count; n++) {
            byte[] changeSet = lines.get(2 * n), target = lines.get(2 * n + 1);
            if (new String(changeSet, 0, Math.min(200, changeSet.length), "UTF-8").contains("\"base\":null")) {
                page = PageLayout.empty();
            }
            PageLayout.Step step = page.applying(changeSet);
            assertArrayEquals("change set " + n, target, step.next.bytes());
            String wrong = InOrderModel.verify(page.items, step.next.items, step.update);
            if (wrong != null && failures++ < 3) first.append("change set ").append(n).append(": ").append(wrong).append('\n');
            ops += step.update.operations().size();
            for (ListUpdate.Op op : step.update.operations()) if (op.type == ListUpdate.Op.Type.MOVED) moves++;
            page = step.next;
        }
        assertNull(failures + " list updates RecyclerView would refuse or that end elsewhere:\n" + first,
                failures == 0 ? null : first.toString());
        assertTrue("operations " + ops + ", moves " + moves, ops > count && moves > 100);
        System.out.println("random change sets: " + count + " applied byte for byte, " + ops + " list operations ("
                + moves + " moves), 0 refused by the in-order model");
    }
}
