import LayoutKit
import Testing

@Suite struct ContentHashTests {
    // Reference values of XXH64 with seed 0.
    @Test func matchesXXH64ReferenceValues() {
        #expect(ContentHash(of: [UInt8]()).description == "ef46db3751d8e999")
        #expect(ContentHash(of: Array("abc".utf8)).description == "44bc2cf5ad770999")
    }

    @Test func hexRoundTrips() {
        let h = ContentHash(of: Array("layout".utf8))
        #expect(ContentHash(hex: h.description) == h)
        #expect(ContentHash(hex: "xyz") == nil)
    }
}
