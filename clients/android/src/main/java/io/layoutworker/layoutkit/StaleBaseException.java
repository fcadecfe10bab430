package io.layoutworker.layoutkit;

/**
 * The change set was made against another record than the one held: a change set was missed. Fetch the record
 * ({@code GET /v1/layouts/{key}}) and go on from it.
 */
public final class StaleBaseException extends ChangeSetException {
    private static final long serialVersionUID = 1L;
    private final String expected;
    private final String actual;

    public StaleBaseException(String expected, String actual) {
        super("change set base is record " + expected + " but the record given hashes to " + actual
                + "; fetch the full record");
        this.expected = expected;
        this.actual = actual;
    }

    /** The base hash the change set names. */
    public String expected() { return expected; }

    /** The hash of the record given ({@code (no record)} when none was). */
    public String actual() { return actual; }
}
