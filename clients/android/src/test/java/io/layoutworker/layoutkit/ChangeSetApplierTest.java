package io.layoutworker.layoutkit;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.Test;

/** The applier byte for byte against what layout-worker made, and what it refuses. */
public class ChangeSetApplierTest {
    private final ChangeSetApplier applier = new ChangeSetApplier();

    @Test public void everyFixtureAppliesByteForByteAndItsListUpdateHoldsInOrder() throws Exception {
        List<Fixtures.Case> cases = Fixtures.cases();
        assertTrue("fixtures: " + cases.size(), cases.size() >= 20);
        int moves = 0, changes = 0;
        for (Fixtures.Case c : cases) {
            byte[] out = applier.apply(c.changeSet, c.base);
            assertArrayEquals(c.name, ChangeSetApplier.withoutLineEnd(c.target), out);
            PageLayout before = c.base == null ? PageLayout.empty() : PageLayout.of(c.base);
            PageLayout.Step step = before.applying(c.changeSet);
            assertArrayEquals(c.name, out, step.next.bytes());
            assertNull(c.name, InOrderModel.verify(before.items, step.next.items, step.update));
            for (ListUpdate.Op op : step.update.operations()) {
                if (op.type == ListUpdate.Op.Type.MOVED) moves++;
                if (op.type == ListUpdate.Op.Type.CHANGED) changes++;
            }
        }
        assertTrue("the fixtures move and change items: " + moves + " moves, " + changes + " changes",
                moves > 0 && changes > 0);
    }

    @Test public void aStaleBaseIsRefusedWithItsOwnException() throws Exception {
        Fixtures.Case c = withBase(Fixtures.cases());
        // A record that is neither the change set's base nor its target (that would be a duplicate delivery).
        byte[] other = null;
        for (Fixtures.Case o : Fixtures.cases()) {
            if (!java.util.Arrays.equals(o.target, c.target) && !java.util.Arrays.equals(o.target, c.base)) {
                other = o.target;
                break;
            }
        }
        try {
            applier.apply(c.changeSet, other);
            fail("a change set applied to another record");
        } catch (StaleBaseException e) {
            assertEquals(ContentHash.of(ChangeSetApplier.withoutLineEnd(other)).toString(), e.actual());
        }
        try {
            applier.apply(c.changeSet, null);
            fail("a change set with a base applied to nothing");
        } catch (StaleBaseException e) {
            assertEquals("(no record)", e.actual());
        }
    }

    @Test public void aRecordEndingInALineEndIsTheRecord() throws Exception {
        Fixtures.Case c = withBase(Fixtures.cases());
        byte[] withNewline = java.util.Arrays.copyOf(c.base, c.base.length + 2);
        withNewline[c.base.length] = '\r';
        withNewline[c.base.length + 1] = '\n';
        assertArrayEquals(ChangeSetApplier.withoutLineEnd(c.target), applier.apply(c.changeSet, withNewline));
    }

    @Test public void aChangeSetDeliveredTwiceChangesNothing() throws Exception {
        Fixtures.Case c = withBase(Fixtures.cases());
        byte[] once = applier.apply(c.changeSet, c.base);
        assertArrayEquals(once, applier.apply(c.changeSet, once));
    }

    @Test public void malformedAndForeignChangeSetsAreRefused() throws Exception {
        String[] bad = {
            "", "{", "[]", "{\"version\":1,\"base\":null,\"target\":{\"hash\":\"0000000000000000\"}}",
            "{\"version\":2,\"kind\":\"other\",\"base\":null,\"target\":{\"hash\":\"0000000000000000\"}}",
            "{\"version\":2,\"base\":null}",
            "{\"version\":2,\"base\":null,\"target\":{\"hash\":\"0000000000000000\"},\"record\":{},\"sections\":{\"deletes\":[0]}}",
            "{\"version\":2,\"base\":null,\"target\":{\"hash\":\"0000000000000000\"},\"replace\":{\"a\":1}} x",
        };
        for (String s : bad) {
            try {
                applier.apply(s.getBytes(StandardCharsets.UTF_8), null);
                fail("applied: " + s);
            } catch (StaleBaseException e) {
                fail("stale base for a malformed change set: " + s);
            } catch (ChangeSetException.InvalidChangeSet e) {
                assertTrue(e.getMessage(), e.getMessage().startsWith("invalid change set: "));
            }
        }
    }

    @Test public void theHashIsXXH64() {
        assertEquals("ef46db3751d8e999", ContentHash.of(new byte[0]).toString());
        assertEquals("44bc2cf5ad770999", ContentHash.of("abc").toString());
        assertEquals(ContentHash.of("abc"), ContentHash.parse("44BC2CF5AD770999"));
        assertNull(ContentHash.parse("44bc2cf5ad77099"));
    }

    static Fixtures.Case withBase(List<Fixtures.Case> cases) {
        for (Fixtures.Case c : cases) {
            if (c.base != null && c.name.contains("-to-")) return c;
        }
        throw new AssertionError("no fixture with a base");
    }
}
