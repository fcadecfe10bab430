/// A results list's paging numbers as the response gives them, and the page facts a renderer needs from them.
///
/// Every number comes from the response, so any of them may be any integer from `-2^63` to `2^63-1`: nothing here
/// can overflow. Numbers that are present but unusable (negative, fractional, or beyond 64 bits) are reported by
/// `problems` and left out of the computation.
struct PagingFacts: Equatable {
    var total: Int?
    var perPage: Int?
    var first: Int?
    var last: Int?

    /// The page, the page count and the offsets of the previous and next pages.
    struct Numbers: Equatable {
        var perPage: Int
        var page: Int
        var pageCount: Int
        /// The `{offset}` of the previous page (0-based); nil on the first page.
        var previousOffset: Int?
        /// The `{offset}` of the next page (the last record's 1-based number); nil on the last page.
        var nextOffset: Int?
    }

    /// Nil unless all four numbers are present and there is at least one record per page.
    var numbers: Numbers? {
        guard let total, let perPage, perPage > 0, let first, let last else { return nil }
        // max(first, 1) - 1 >= 0, so the quotient is at most Int.max - 1 and adding 1 cannot overflow.
        let page = (max(first, 1) - 1) / perPage + 1
        // Rounding up without overflow: total + perPage - 1 overflows only for a positive total, where this is equal.
        let (sum, overflow) = total.addingReportingOverflow(perPage - 1)
        let pageCount = overflow ? total / perPage + 1 : sum / perPage
        // first > 1 means first - 1 >= 1, and subtracting perPage (>= 1) from it cannot overflow.
        let previousOffset = first > 1 ? max(0, first - 1 - perPage) : nil
        let nextOffset = last < total ? last : nil
        return Numbers(
            perPage: perPage, page: page, pageCount: pageCount, previousOffset: previousOffset, nextOffset: nextOffset)
    }

    /// The paging numbers that a response must not carry: negative ones (a count or a 1-based record number).
    var problems: [String] {
        var out: [String] = []
        if let total, total < 0 { out.append("totalNumRecs \(total)") }
        if let perPage, perPage < 0 { out.append("recsPerPage \(perPage)") }
        if let first, first < 0 { out.append("firstRecNum \(first)") }
        if let last, last < 0 { out.append("lastRecNum \(last)") }
        return out
    }
}
