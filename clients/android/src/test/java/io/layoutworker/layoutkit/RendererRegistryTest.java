package io.layoutworker.layoutkit;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;

import java.util.Arrays;
import org.junit.Test;

/** A registry without a row's renderer draws the first fallback it has; without any, its own fallback. */
public class RendererRegistryTest {
    private final Layout.Section section = ListUpdateTestSection.section();

    @Test public void aRowWhoseRendererAnOldAppLacksDrawsItsFirstKnownFallback() {
        RendererRegistry<String> registry = new RendererRegistry<String>((row, s) -> "fallback:" + row.id)
                .register("ProductCell", (row, s) -> "product:" + row.id)
                .register("BasicCell", (row, s) -> "basic:" + row.id);
        Layout.Row sale = new Layout.Row("p1", "SaleProductCell", Arrays.asList("DiscountCell", "ProductCell", "BasicCell"));
        assertEquals("ProductCell", registry.rendererFor(sale));
        assertEquals("product:p1", registry.viewFor(sale, section));
        Layout.Row own = new Layout.Row("p2", "BasicCell", Arrays.asList("ProductCell"));
        assertEquals("basic:p2", registry.viewFor(own, section));
        Layout.Row unknown = new Layout.Row("p3", "NewCell", Arrays.asList("NewerCell"));
        assertNull(registry.rendererFor(unknown));
        assertEquals("fallback:p3", registry.viewFor(unknown, section));
        Layout.Row unresolved = new Layout.Row("p4", null, Arrays.asList("ProductCell"));
        assertEquals("fallback:p4", registry.viewFor(unresolved, section));
    }

    @Test public void headersAndPlaceholdersByRendererThenBuiltInNames() throws Exception {
        PageLayout page = PageLayout.of(("{\"version\":2,\"source\":null,\"page\":null,\"sections\":[{\"id\":\"s\","
                + "\"path\":\"$\",\"index\":0,\"type\":\"ResultsList\",\"adaptor\":\"ResultsList\",\"visible\":true,"
                + "\"header\":{\"renderer\":\"MenuHeader\",\"model\":\"Brand\"},\"placeholder\":{\"kind\":\"noResults\"},"
                + "\"rows\":[]}],\"diagnostics\":[]}").getBytes("UTF-8"));
        RendererRegistry<String> registry = new RendererRegistry<String>((row, s) -> "row")
                .registerView("header", "MenuHeader", (v, s) -> "header:" + v.modelJson)
                .registerPlaceholder("NoResultsPlaceholder", (p, s) -> "empty:" + p.kind);
        assertEquals(2, page.items.size());
        assertEquals("header:\"Brand\"", registry.viewFor(page.items.get(0)));
        assertEquals(AdapterList.Kind.PLACEHOLDER, page.items.get(1).kind);
        assertEquals("empty:noResults", registry.viewFor(page.items.get(1)));
    }
}

/** A section to hand factories in the registry tests. */
final class ListUpdateTestSection {
    static Layout.Section section() {
        try {
            return ListUpdateTest.page("h").record.sections.get(0);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }
}
