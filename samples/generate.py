#!/usr/bin/env python3
"""Writes the sample assembler responses in this folder (deterministic; run from anywhere).

The shapes follow ../shared/notes/assembler-format.md: a PageSlot root, stock cartridges,
@class model objects, string-typed attribute arrays, NavigationAction/RecordAction objects
carrying siteState copies, and minified output.
"""
import json
import os
import random

HERE = os.path.dirname(os.path.abspath(__file__))
rng = random.Random(20261121)

SITE_STATE = {
    "@class": "com.endeca.infront.site.model.SiteState",
    "contentPath": "/search",
    "matchedUrlPattern": None,
    "properties": {},
    "siteDefinition": {
        "@class": "com.endeca.infront.site.model.SiteDefinition",
        "displayName": "Demo Store", "filterStateConfiguration": None,
        "id": "/demoSite", "patterns": [], "urlPattern": None,
    },
    "siteId": "/demoSite",
    "validSite": True,
}
FILTER = "?Nf=product.endDate%7CGTEQ+1.7794944E12&Ntt=olive+oil&format=json"
BRANDS = ["Cocinero", "Natura", "Legitimo", "Pisi", "Verdicchio", "Siglo de Oro"]


def nav(state, label=None, cls="NavigationAction"):
    return {"contentPath": "/search", "@class": "com.endeca.infront.cartridge.model." + cls,
            "label": label, "navigationState": state, "siteRootPath": "/pages", "siteState": SITE_STATE}


def audit(path, inner):
    return {"ecr:resourcePath": path, "ecr:innerPath": inner}


def record(n, brand):
    pid = "prod%05d" % (1000 + n)
    price = "%.6f" % (rng.randint(900, 25000) + 0.0)
    name = "%s olive oil %d ml" % (brand, rng.choice([250, 500, 750, 1000]))
    sku_attrs = {
        "product.brand": [brand], "product.displayName": [name], "product.repositoryId": [pid],
        "sku.repositoryId": ["sku%05d" % (1000 + n)], "sku.activePrice": [price],
        "sku.listPrice": ["%.6f" % (float(price) * 1.15)], "product.ean": ["779%010d" % (n * 7919)],
        "record.type": ["Producto", "SKU"], "product.onSale": ["true" if n % 3 == 0 else "false"],
        "product.vegan": ["true" if n % 4 == 0 else "false"],
        "product.creationDate": [str(1514499035967 + n * 86400000)], "sku.endDate": ["32506394714894"],
        "allAncestors.displayName": ["Aceites", "Almacén", "Demo Store"],
        "product.largeImage.url": ["/images/large/%s.jpg" % pid],
        "product.mediumImage.url": ["/images/medium/%s.jpg" % pid],
        "sku.dtoPrice": [json.dumps({"id": "pl_%s" % pid, "precioLista": float(price), "precio": float(price)})],
    }
    for k in range(40):
        sku_attrs["product.disp_%d" % k] = [str(rng.randint(0, 5000))]
    slug = name.lower().replace(" ", "-")
    return {
        "@class": "com.endeca.infront.cartridge.model.Record",
        "detailsAction": {"@class": "com.endeca.infront.cartridge.model.RecordAction",
                          "recordState": "/%s/_/A-%s?format=json" % (slug, pid),
                          "contentPath": "/product", "siteRootPath": "/pages", "label": None, "siteState": SITE_STATE},
        "numRecords": 1,
        "attributes": {"product.brand": [brand], "product.displayName": [name], "product.repositoryId": [pid],
                       "sku.activePrice": [price], "product.onSale": sku_attrs["product.onSale"],
                       "product.vegan": sku_attrs["product.vegan"]},
        "records": [{
            "@class": "com.endeca.infront.cartridge.model.Record",
            "detailsAction": {"@class": "com.endeca.infront.cartridge.model.RecordAction",
                              "recordState": "/%s/_/R-%s?format=json" % (slug, pid),
                              "contentPath": "/product", "siteRootPath": "/pages", "label": None, "siteState": SITE_STATE},
            "numRecords": 0, "attributes": sku_attrs, "records": None}],
    }


def results_list(type_, records, total, inner):
    return {
        "@type": type_, "name": "Results List", "endeca:auditInfo": audit("content/Shared/Results List", inner),
        "totalNumRecs": total, "recsPerPage": 12, "firstRecNum": 1 if records else 0, "lastRecNum": len(records),
        "pagingActionTemplate": nav(FILTER.replace("?", "?No=%7Boffset%7D&Nrpp=%7BrecordsPerPage%7D&")),
        "sortOptions": [dict(nav(FILTER + "&Ns=sku.activePrice%7C" + d, None, "SortOptionLabel"), label=l, selected=False)
                        for l, d in [("sort.priceLH", "0"), ("sort.priceHL", "1")]],
        "precomputedSorts": [],
        "records": records,
    }


def refinement_menu(name, dim, values, inner, more=False):
    menu = {
        "@type": "RefinementMenu", "name": name, "dimensionName": dim, "displayName": name,
        "multiSelect": dim == "product.brand", "ancestors": [], "whyPrecedenceRuleFired": None,
        "endeca:auditInfo": audit("content/Shared/Guided Navigation", inner),
        "refinements": [dict(nav("/_/N-%x%s" % (1000 + i, FILTER), v, "Refinement"), count=rng.randint(1, 40),
                             properties={"DGraph.Strata": "1", "DGraph.Spec": v}, multiSelect=dim == "product.brand")
                        for i, v in enumerate(values)],
    }
    if more:
        menu["moreLink"] = nav(FILTER + "&showMoreIds=657525838", "Show More Refinements...")
    return menu


def page(main, secondary, header=None):
    return {
        "contents": [{
            "@type": "TwoColumnPage", "name": "Two-Column Page",
            "endeca:auditInfo": audit("pages/demoSite/search", None),
            "HeaderContent": header or [],
            "SecondaryContent": secondary,
            "MainContent": main,
        }],
        "@type": "PageSlot", "name": "Search Page Slot",
        "atg:currentSiteProductionURL": "/demo", "endeca:contentPath": "/search",
        "contentPaths": ["/content/Web/Search Pages"], "ruleLimit": "1", "templateIds": [], "templateTypes": ["Page"],
        "canonicalLink": nav(FILTER), "endeca:siteState": SITE_STATE,
        "endeca:auditInfo": {"ecr:resourcePath": "/pages/demoSite/search", "ecr:innerPath": None},
        "endeca:siteRootPath": "/pages",
    }


def slot(type_, contents, inner, paths=("/content/Shared/Results List",)):
    return {"@type": type_, "name": type_, "contents": contents, "contentPaths": list(paths), "ruleLimit": "1",
            "templateIds": [], "templateTypes": ["MainContent"], "endeca:auditInfo": audit("pages/demoSite/search", inner)}


def search_page():
    records = [record(n, BRANDS[n % len(BRANDS)]) for n in range(9)]
    navigation = {
        "@type": "GuidedNavigation", "name": "Guided Navigation",
        "endeca:auditInfo": audit("content/Shared/Guided Navigation", "SecondaryContent[0]"),
        "navigation": [
            refinement_menu("Brand", "product.brand", BRANDS, "navigation[0]", more=True),
            refinement_menu("On offer", "product.onSale", ["Yes", "No"], "navigation[1]"),
            refinement_menu("Organic", "product.organic", [], "navigation[2]"),
            {"@type": "PriceSlider", "name": "Price", "minValue": "900.0", "maxValue": "25000.0",
             "sliderMin": "900.0", "sliderMax": "25000.0", "filterCrumb": None,
             "navigationState": FILTER, "endeca:auditInfo": audit("content/Shared/Guided Navigation", "navigation[3]")},
            {"@type": "RangeFilter", "name": "Volume (ml)", "propertyName": "product.volume",
             "lowerBound": "250", "upperBound": "1000",
             "endeca:auditInfo": audit("content/Shared/Guided Navigation", "navigation[4]")},
        ],
    }
    crumbs = {
        "@type": "Breadcrumbs", "name": "Breadcrumbs", "endeca:auditInfo": audit("content/Shared/Breadcrumbs", None),
        "refinementCrumbs": [{"@class": "com.endeca.infront.cartridge.model.RefinementBreadcrumb", "label": "Aceites",
                              "count": 37, "dimensionName": "product.category", "displayName": "product.category",
                              "multiSelect": False, "properties": {"DGraph.Spec": "cat.aceites"}, "ancestors": [],
                              "removeAction": nav("/_/N-0" + FILTER)}],
        "searchCrumbs": [{"@class": "com.endeca.infront.cartridge.model.SearchBreadcrumb", "terms": "olive oil",
                          "key": "All", "matchMode": "ALL", "removeAction": nav("?format=json")}],
        "rangeFilterCrumbs": [{"@class": "com.endeca.infront.cartridge.model.RangeFilterBreadcrumb",
                               "propertyName": "product.endDate", "name": "product.endDate", "operation": "GTEQ",
                               "lowerBound": "1.7794944E12", "upperBound": None, "label": None,
                               "removeAction": nav("/_/N-5j2xvv?format=json")}],
        "geoFilterCrumb": None,
        "removeAllAction": nav("?format=json"),
    }
    adjustments = {"@type": "SearchAdjustments", "name": "Search Adjustments",
                   "endeca:auditInfo": audit("content/Shared/Search Adjustments", None),
                   "originalTerms": ["olive oyl"],
                   "adjustedSearches": {"olive oyl": [{"@class": "com.endeca.infront.cartridge.model.AdjustedSearch",
                                                       "adjustedTerms": "olive oil", "autoPhrased": False}]}}
    main = [
        slot("ContentSlot-Main", [crumbs, adjustments, results_list("ResultsList", records, 37, "MainContent[2]")], "MainContent[0]"),
        slot("ContentSlot-Main", [], "MainContent[1]", paths=("/content/Shared/Spotlights",)),
    ]
    header = [{"@type": "SearchBox", "name": "Search Box", "autoSuggestEnabled": True,
               "minAutoSuggestInputLength": "3", "endeca:auditInfo": audit("pages/demoSite/search", "HeaderContent[0]")}]
    return page(main, [slot("ContentSlot-Secondary", [navigation], "SecondaryContent[0]", paths=("/content/Shared/Guided Navigation",))], header)


def empty_results():
    return page([slot("ContentSlot-Main", [results_list("ResultsList", [], 0, "MainContent[0]")], "MainContent[0]")], [])


def cartridge_error():
    broken = results_list("ResultsList", [], 12, "MainContent[1]")
    broken["records"] = "unavailable"
    return page([slot("ContentSlot-Main", [
        {"@type": "PriceSlider", "name": "PRECIO", "PriceItem": [],
         "@error": "property: dimensionId should not be null or an emtpy string",
         "endeca:auditInfo": audit("content/Shared/Price Filter", None)},
        broken,
        results_list("ResultsList", [record(n, BRANDS[n % 2]) for n in range(2)], 2, "MainContent[2]"),
    ], "MainContent[0]")], [])


def grouped_results():
    records = [record(n, BRANDS[(n * 5) % 4]) for n in range(9)]
    return page([slot("ContentSlot-Main", [results_list("BrandGroupedResultsList", records, 9, "MainContent[0]")], "MainContent[0]")], [])


def write(name, doc):
    with open(os.path.join(HERE, name), "w", encoding="utf-8") as f:
        f.write(json.dumps(doc, ensure_ascii=False, separators=(",", ":")))


if __name__ == "__main__":
    write("search-page.json", search_page())
    write("empty-results.json", empty_results())
    write("cartridge-error.json", cartridge_error())
    write("grouped-results.json", grouped_results())
