package io.layoutworker.layoutkit;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Paths;

/**
 * The jar's command line, so the kit can be checked from outside as {@code layout-worker apply} is:
 * {@code java -jar layoutkit-android.jar apply BASE CHANGE_SET} prints the record the change set makes of BASE
 * ({@code -} as BASE: from empty; {@code -} as CHANGE_SET: change sets from stdin, one per line, in order), byte
 * for byte what {@code layout-worker apply} prints.
 */
public final class Main {
    private Main() {}

    static final String USAGE = "usage: java -jar layoutkit-android.jar apply BASE CHANGE_SET | --version\n"
            + "  BASE        a layout record file, or - for a change set from empty\n"
            + "  CHANGE_SET  a change set file, or - for change sets on stdin, one per line, oldest first";

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    /** The kit's version (the worker's), from the jar's manifest; null outside a jar. */
    public static String version() { return Main.class.getPackage().getImplementationVersion(); }

    static int run(String[] args, PrintStream out, PrintStream err) {
        if (args.length == 1 && ("--version".equals(args[0]) || "version".equals(args[0]))) {
            String v = version();
            out.println(v != null ? v : "unknown (not run from the jar)");
            return 0;
        }
        if (args.length != 3 || !"apply".equals(args[0])) {
            err.println(USAGE);
            return 64;
        }
        try {
            byte[] record = "-".equals(args[1]) ? null : ChangeSetApplier.withoutLineEnd(read(args[1]));
            ChangeSetApplier applier = new ChangeSetApplier();
            if (!"-".equals(args[2])) {
                record = apply(applier, read(args[2]), record, args[2]);
            } else {
                BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
                String line;
                int n = 0;
                boolean any = false;
                while ((line = in.readLine()) != null) {
                    n++;
                    if (line.isEmpty()) continue;
                    record = apply(applier, line.getBytes(StandardCharsets.UTF_8), record, "stdin:" + n);
                    any = true;
                }
                if (!any) throw new Failure("stdin: no change set read (a page's change sets, one per line, oldest first)");
            }
            out.write(record);
            out.write('\n');
            out.flush();
            return 0;
        } catch (Failure f) {
            err.println("layoutkit: " + f.getMessage());
            return 1;
        } catch (IOException e) {
            err.println("layoutkit: " + e);
            return 1;
        }
    }

    private static byte[] apply(ChangeSetApplier applier, byte[] changes, byte[] record, String what) throws Failure {
        try {
            return applier.apply(changes, record);
        } catch (ChangeSetException e) {
            throw new Failure(what + ": " + e.getMessage());
        }
    }

    private static byte[] read(String path) throws Failure {
        try {
            return Files.readAllBytes(Paths.get(path));
        } catch (NoSuchFileException e) {
            throw new Failure(path + ": no such file");
        } catch (IOException e) {
            throw new Failure(path + ": cannot read (" + e.getMessage() + ")");
        }
    }

    private static final class Failure extends Exception {
        private static final long serialVersionUID = 1L;

        Failure(String message) { super(message); }
    }
}
