package io.layoutworker.layoutkit;

/** Why a record could not be read or a change set could not be applied (see the subclasses). */
public class ChangeSetException extends Exception {
    private static final long serialVersionUID = 1L;

    public ChangeSetException(String message) { super(message); }

    /** The bytes are not a layout record (what is wrong, and where). */
    public static final class NotALayoutRecord extends ChangeSetException {
        private static final long serialVersionUID = 1L;

        public NotALayoutRecord(String why) { super("not a layout record: " + why); }
    }

    /** The change set is malformed or does not fit the record it is applied to. */
    public static final class InvalidChangeSet extends ChangeSetException {
        private static final long serialVersionUID = 1L;

        public InvalidChangeSet(String why) { super("invalid change set: " + why); }
    }

    /** Applying gave bytes whose hash is not the change set's target hash. */
    public static final class TargetMismatch extends ChangeSetException {
        private static final long serialVersionUID = 1L;

        public TargetMismatch(String expected, String actual) {
            super("applying the change set gave a record hashing to " + actual + ", not the target " + expected);
        }
    }
}
