import Adaptors
import LayoutJSON
import Mapping

/// Everything the compiler looks up by content type, worked out once per type (shared, immutable).
final class SectionPlan: Sendable {
    let adaptor: any ContentItemAdaptor
    let grouper: RowGrouper?
    let mappings: SectionMappings
    /// Section attributes the config copies from the item's fields.
    let attributes: [(name: String, path: FieldPath)]

    init(
        adaptor: any ContentItemAdaptor, grouper: RowGrouper?, mappings: SectionMappings,
        attributes: [(name: String, path: FieldPath)] = []
    ) {
        self.adaptor = adaptor
        self.grouper = grouper
        self.mappings = mappings
        self.attributes = attributes
    }
}
