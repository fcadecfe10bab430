package io.layoutworker.layoutkit;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * How long applying a change set to the 45 KB sample page takes here (not a test: {@code build.sh bench}). The
 * fixtures' change sets from the search page's record to the other samples' records, each applied alone
 * ({@link ChangeSetApplier}) and as an app does ({@link PageLayout#applying}: apply, read the typed record, flatten it
 * and compute the adapter operations); 5 rounds of 2,000 applications after 2,000 to warm the JIT, the median round.
 */
public final class ApplyTiming {
    public static void main(String[] args) throws Exception {
        Path dir = Fixtures.dir("LW_FIXTURES");
        byte[] base = Files.readAllBytes(dir.resolve("sample-search-page.record.json"));
        List<byte[]> changeSets = new ArrayList<>();
        List<Integer> sizes = new ArrayList<>();
        for (Fixtures.Case c : Fixtures.cases()) {
            if (c.name.startsWith("sample-search-page-to-")) {
                changeSets.add(c.changeSet);
                sizes.add(c.changeSet.length);
            }
        }
        PageLayout page = PageLayout.of(base);
        ChangeSetApplier applier = new ChangeSetApplier();
        System.out.println("base record " + base.length + " B, " + page.items.size() + " adapter items; change sets "
                + sizes + " B");
        report("ChangeSetApplier.apply", round(changeSets, n -> applier.apply(changeSets.get(n % changeSets.size()), base)));
        report("PageLayout.applying (apply + read + flatten + ListUpdate)",
                round(changeSets, n -> page.applying(changeSets.get(n % changeSets.size()))));
    }

    interface Step {
        Object run(int n) throws Exception;
    }

    static double[] round(List<byte[]> changeSets, Step step) throws Exception {
        Object sink = null;
        for (int n = 0; n < 2_000; n++) sink = step.run(n);
        double[] perRound = new double[5];
        for (int r = 0; r < 5; r++) {
            long start = System.nanoTime();
            for (int n = 0; n < 2_000; n++) sink = step.run(n);
            perRound[r] = (System.nanoTime() - start) / 2_000.0 / 1_000.0;
        }
        if (sink == null) throw new AssertionError();
        return perRound;
    }

    static void report(String what, double[] rounds) {
        double[] sorted = rounds.clone();
        Arrays.sort(sorted);
        System.out.printf("%s: median %.1f µs per change set (rounds %s)%n", what, sorted[2], Arrays.toString(rounds));
    }
}
