package io.layoutworker.layoutkit.feed;

import io.layoutworker.layoutkit.ChangeSetException;
import io.layoutworker.layoutkit.PageLayout;
import io.layoutworker.layoutkit.StaleBaseException;

/** What a feed holds and what each gateway event does to it: the part of {@link LayoutFeed} that is not I/O. */
public final class FeedState {
    private PageLayout page = PageLayout.empty();
    private boolean hasRecord;
    /** The id of the event that brought the record held ({@code HASH@POSITION}); null after a GET. */
    private String eventId;

    /** The page held (empty before the first record). */
    public PageLayout page() { return page; }

    /** What to send as {@code Last-Event-ID}: the event id held, else the record's hash, else null. */
    public String lastEventId() { return eventId != null ? eventId : hasRecord ? page.hash().toString() : null; }

    /** A {@code record} or {@code change-set} event: the step to show, or null (nothing new). */
    public PageLayout.Step take(ServerSentEvents.Event event) throws ChangeSetException, StaleBaseException {
        PageLayout.Step step;
        if ("record".equals(event.name)) {
            step = show(event.data);
        } else if ("change-set".equals(event.name)) {
            PageLayout.Step applied = page.applying(event.data);
            step = accept(applied);
        } else {
            return null;
        }
        if (event.id != null && hasRecord && event.id.startsWith(page.hash().toString())) eventId = event.id;
        return step;
    }

    /** A record (from an event or a GET): the step to it, or null when it is the record held. */
    public PageLayout.Step show(byte[] record) throws ChangeSetException.NotALayoutRecord {
        PageLayout.Step step = page.showing(record);
        PageLayout.Step taken = accept(step);
        if (taken != null) eventId = null;
        return taken;
    }

    private PageLayout.Step accept(PageLayout.Step step) {
        if (hasRecord && step.next.hash().equals(page.hash())) return null;
        page = step.next;
        hasRecord = true;
        return step;
    }
}
