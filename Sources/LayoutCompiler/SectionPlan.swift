import Adaptors
import Mapping

/// Everything the compiler looks up by content type, worked out once per type (shared, immutable).
final class SectionPlan: Sendable {
    let adaptor: any ContentItemAdaptor
    let grouper: RowGrouper?
    let mappings: SectionMappings

    init(adaptor: any ContentItemAdaptor, grouper: RowGrouper?, mappings: SectionMappings) {
        self.adaptor = adaptor
        self.grouper = grouper
        self.mappings = mappings
    }
}
