package io.layoutworker.layoutkit;

/**
 * What an app shows of one page: the record's bytes, its typed sections and its adapter positions. A change set
 * gives the next {@code PageLayout} and the {@link ListUpdate} that animates the adapter from this one to it.
 */
public final class PageLayout {
    public final Layout.Record record;
    public final AdapterList items;

    private PageLayout(Layout.Record record) {
        this.record = record;
        this.items = AdapterList.of(record);
    }

    /** A page showing {@code record} (a line end after it is not part of it). */
    public static PageLayout of(byte[] record) throws ChangeSetException.NotALayoutRecord {
        return new PageLayout(Layout.Record.parse(record));
    }

    /** A page before its first record: nothing to show; a change set from empty applies to it. */
    public static PageLayout empty() { return new PageLayout(Layout.Record.empty()); }

    /** The record's bytes, exactly as published. */
    public byte[] bytes() { return record.bytes; }

    public ContentHash hash() { return record.hash; }

    /** What a change set does: the next page and the adapter operations from this one to it. */
    public static final class Step {
        public final PageLayout next;
        public final ListUpdate update;

        Step(PageLayout next, ListUpdate update) {
            this.next = next;
            this.update = update;
        }
    }

    /**
     * Applies {@code changeSet} (byte for byte, both hashes checked).
     *
     * @throws StaleBaseException the change set was made against another record: fetch the record
     */
    public Step applying(byte[] changeSet) throws ChangeSetException {
        boolean empty = record.sections.isEmpty() && record.bytes.length == Wire.EMPTY_RECORD.length()
                && Wire.EMPTY_RECORD.equals(new String(record.bytes, java.nio.charset.StandardCharsets.UTF_8));
        byte[] out = new ChangeSetApplier().apply(changeSet, empty ? null : record.bytes);
        return showing(out);
    }

    /** The step to a record fetched whole (a GET, or a feed's record event). */
    public Step showing(byte[] record) throws ChangeSetException.NotALayoutRecord {
        PageLayout next = of(record);
        return new Step(next, ListUpdate.between(items, next.items));
    }
}
