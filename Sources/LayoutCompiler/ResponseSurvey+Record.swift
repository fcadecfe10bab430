public import ContentTree
public import LayoutRecord
public import Mapping

extension ResponseSurvey {
    /// A response's content items (`tree`) and what it was compiled to (`record`): every row's model and
    /// renderer, every supplementary view's renderer.
    public mutating func add(_ record: LayoutRecord, tree: ContentTree) {
        addResponse(tree)
        for section in record.sections {
            for row in section.rows {
                addRow(
                    model: row.model, in: record.document, sectionType: section.type, adaptor: section.adaptor,
                    renderer: row.renderer)
            }
            for view in section.supplementary {
                addSupplementary(
                    kind: view.kind, sectionType: section.type, adaptor: section.adaptor, renderer: view.renderer)
            }
        }
    }
}
