package io.layoutworker.layoutkit;

import java.util.HashMap;
import java.util.Map;

/**
 * Renderer name → view factory, as LayoutKit's {@code RendererRegistry} and the web {@code LayoutView}: a row gets
 * the factory registered for its renderer, else the first of its {@code fallbacks} the app has (a renderer added
 * after this app version was released), else the registry's fallback. Headers, footers and placeholders are
 * registered by kind and renderer. Generic over the view type (a {@code View}, a view type int for
 * {@code getItemViewType}, a Compose lambda, or a string in a test).
 */
public final class RendererRegistry<V> {
    /** Makes the view (or view holder, or view type) of a row. */
    public interface RowFactory<V> {
        V make(Layout.Row row, Layout.Section section);
    }

    /** Makes the view of a header, footer or other supplementary view. */
    public interface ViewFactory<V> {
        V make(Layout.SupplementaryView view, Layout.Section section);
    }

    /** Makes the view of a placeholder. */
    public interface PlaceholderFactory<V> {
        V make(Layout.Placeholder placeholder, Layout.Section section);
    }

    /** The renderers the compiler names for placeholders no mapping matched, by placeholder kind. */
    public static final Map<String, String> BUILT_IN_PLACEHOLDERS;

    static {
        Map<String, String> m = new HashMap<>();
        m.put("loading", "LoadingPlaceholder");
        m.put("noResults", "NoResultsPlaceholder");
        m.put("error", "ErrorPlaceholder");
        BUILT_IN_PLACEHOLDERS = java.util.Collections.unmodifiableMap(m);
    }

    private final Map<String, RowFactory<V>> rows = new HashMap<>();
    private final Map<String, Map<String, ViewFactory<V>>> views = new HashMap<>();
    private final Map<String, PlaceholderFactory<V>> placeholders = new HashMap<>();
    private final RowFactory<V> fallback;
    private ViewFactory<V> fallbackView;
    private PlaceholderFactory<V> fallbackPlaceholder;

    /** A registry whose rows without a registered renderer are drawn by {@code fallback}. */
    public RendererRegistry(RowFactory<V> fallback) { this.fallback = fallback; }

    /** Rows whose renderer is {@code renderer} are drawn by {@code make}. */
    public RendererRegistry<V> register(String renderer, RowFactory<V> make) {
        rows.put(renderer, make);
        return this;
    }

    /** Views of {@code kind} ({@code header}, {@code footer}, ...) with {@code renderer} are drawn by {@code make}. */
    public RendererRegistry<V> registerView(String kind, String renderer, ViewFactory<V> make) {
        views.computeIfAbsent(kind, k -> new HashMap<>()).put(renderer, make);
        return this;
    }

    /** Views no registration matches are drawn by {@code make} (without it, they are not drawn). */
    public RendererRegistry<V> registerFallbackView(ViewFactory<V> make) {
        fallbackView = make;
        return this;
    }

    /** Placeholders with {@code renderer} (a built-in name or one the config names) are drawn by {@code make}. */
    public RendererRegistry<V> registerPlaceholder(String renderer, PlaceholderFactory<V> make) {
        placeholders.put(renderer, make);
        return this;
    }

    /** Placeholders no registration matches are drawn by {@code make} (without it, they are not drawn). */
    public RendererRegistry<V> registerFallbackPlaceholder(PlaceholderFactory<V> make) {
        fallbackPlaceholder = make;
        return this;
    }

    public boolean isRegistered(String renderer) { return rows.containsKey(renderer); }

    /**
     * The renderer {@code row} is drawn with here: its own if registered, else the first of its fallbacks that is,
     * else null (the registry's fallback draws it; also for an unresolved row, which has no chain).
     */
    public String rendererFor(Layout.Row row) {
        if (row.renderer == null) return null;
        if (rows.containsKey(row.renderer)) return row.renderer;
        for (String f : row.fallbacks) {
            if (rows.containsKey(f)) return f;
        }
        return null;
    }

    /** The view of {@code row} of {@code section}. */
    public V viewFor(Layout.Row row, Layout.Section section) {
        String name = rendererFor(row);
        return (name == null ? fallback : rows.get(name)).make(row, section);
    }

    /** The view of an adapter item: its row, header, footer or placeholder; null when nothing draws it. */
    public V viewFor(AdapterList.Item item) {
        switch (item.kind) {
            case ROW: return viewFor(item.row, item.section);
            case PLACEHOLDER: return placeholderView(item.section);
            default: return view(item.kind == AdapterList.Kind.HEADER ? Wire.Key.HEADER : Wire.Key.FOOTER, item.section);
        }
    }

    /** The {@code kind} view of {@code section}, if it has one and something draws it. */
    public V view(String kind, Layout.Section section) {
        Layout.SupplementaryView v = section.view(kind);
        if (v == null) return null;
        Map<String, ViewFactory<V>> byRenderer = views.get(kind);
        ViewFactory<V> make = v.renderer == null || byRenderer == null ? null : byRenderer.get(v.renderer);
        if (make == null) make = fallbackView;
        return make == null ? null : make.make(v, section);
    }

    /** The view of {@code section}'s placeholder; one without a renderer uses the built-in name for its kind. */
    public V placeholderView(Layout.Section section) {
        Layout.Placeholder p = section.placeholder;
        if (p == null) return null;
        String name = p.renderer != null ? p.renderer : BUILT_IN_PLACEHOLDERS.get(p.kind);
        PlaceholderFactory<V> make = name == null ? null : placeholders.get(name);
        if (make == null) make = fallbackPlaceholder;
        return make == null ? null : make.make(p, section);
    }
}
