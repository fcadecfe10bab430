package io.layoutworker.layoutkit;

/**
 * The four methods of AndroidX's {@code androidx.recyclerview.widget.ListUpdateCallback}, so a {@link ListUpdate}
 * can be handed to {@code AdapterListUpdateCallback} (or any callback) without this kit depending on AndroidX:
 * {@code update.dispatchTo(callback::onInserted, ...)} or a four-line bridge (docs/renderers.md).
 */
public interface ListUpdateCallback {
    void onInserted(int position, int count);

    void onRemoved(int position, int count);

    void onMoved(int fromPosition, int toPosition);

    void onChanged(int position, int count, Object payload);
}
