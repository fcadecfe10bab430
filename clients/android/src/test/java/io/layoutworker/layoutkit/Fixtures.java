package io.layoutworker.layoutkit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;

/**
 * The records and change sets clients/fixtures/generate.py made with the layout-worker binary (LW_FIXTURES), and
 * the random change sets the server's property test made (LW_RANDOM_CHANGE_SETS): what the other kits are held to.
 */
final class Fixtures {
    static final class Case {
        final String name;
        final byte[] base;
        final byte[] changeSet;
        final byte[] target;

        Case(String name, byte[] base, byte[] changeSet, byte[] target) {
            this.name = name;
            this.base = base;
            this.changeSet = changeSet;
            this.target = target;
        }
    }

    static Path dir(String variable) {
        String value = System.getenv(variable);
        if (value == null || value.isEmpty()) {
            throw new IllegalStateException(variable + " is not set (make test-android sets it; see clients/android/build.sh)");
        }
        return Paths.get(value);
    }

    /** The cases of generate.py's manifest.json. */
    static List<Case> cases() throws IOException, ChangeSetException {
        Path dir = dir("LW_FIXTURES");
        JsonText manifest = new JsonText(Files.readAllBytes(dir.resolve("manifest.json")), "manifest");
        List<Case> out = new ArrayList<>();
        for (JsonText.Span c : manifest.elements(manifest.value(manifest.root(), "cases"))) {
            JsonText.Span[] v = manifest.values(c, "name", "base", "changeSet", "target");
            String base = manifest.string(v[1]);
            out.add(new Case(manifest.string(v[0]), base == null ? null : Files.readAllBytes(dir.resolve(base)),
                    Files.readAllBytes(dir.resolve(manifest.string(v[2]))),
                    Files.readAllBytes(dir.resolve(manifest.string(v[3])))));
        }
        return out;
    }

    /** Lines of a file, as bytes, without their line ends. */
    static List<byte[]> lines(Path file) throws IOException {
        byte[] all = Files.readAllBytes(file);
        List<byte[]> out = new ArrayList<>();
        int start = 0;
        for (int i = 0; i <= all.length; i++) {
            if (i == all.length || all[i] == '\n') {
                if (i > start) out.add(java.util.Arrays.copyOfRange(all, start, i));
                start = i + 1;
            }
        }
        return out;
    }
}
