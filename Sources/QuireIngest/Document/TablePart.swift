// What a table element is in its table (CSS 2.1 §17, HTML "table processing model"): the
// spans of a cell, the row group of a row, the columns (`<col>`/`<colgroup>`) of a table,
// and the table properties that only tables read (caption side, table-layout, a cell's
// vertical alignment).
//
// Spans are bounded as HTML bounds them (colspan 1…1000, rowspan 0…65534, 0 meaning "to
// the end of the row group"); the typesetter bounds the grid as a whole.

import Foundation

/// The row group a row came from (`thead`, `tbody`, `tfoot`, or `display: table-*-group`).
package enum TableRowGroup: String, Sendable, Hashable, Codable { case header, body, footer }

/// `caption-side`.
package enum CaptionSide: String, Sendable, Hashable, Codable { case top, bottom }

/// `vertical-align` as a table cell reads it (CSS 2.1 §17.5.3).
package enum CellAlign: String, Sendable, Hashable, Codable { case baseline, top, middle, bottom }

/// Table properties of one element. `captionSide` and `cellAlign` travel down the tree (the
/// first inherits in CSS; the second reaches cells from their row and row group, as HTML's
/// user-agent sheet arranges with `vertical-align: inherit`).
package struct TableStyle: Sendable, Hashable, Codable {
  package var captionSide: CaptionSide = .top
  package var cellAlign: CellAlign = .baseline
  /// `table-layout: fixed` (§17.5.2.1); read on tables only, never inherited.
  package var fixedLayout = false
  /// `display: table-header-group` / `table-footer-group` / `table-row-group`.
  package var rowGroup: TableRowGroup? = nil
  package init() {}

  /// What a child element starts from.
  package var inherited: TableStyle {
    var s = TableStyle()
    s.captionSide = captionSide
    s.cellAlign = cellAlign
    return s
  }
}

/// One `<col>` (or a `<colgroup>` without cols): its `span` and width.
package struct TableColumn: Sendable, Hashable, Codable {
  package var span: Int
  /// nil: auto.
  package var width: Length?
  package init(span: Int, width: Length?) {
    self.span = span
    self.width = width
  }
}

/// A table element's place in its table; the defaults fit every other block.
package struct TablePart: Sendable, Hashable, Codable {
  /// Cells: columns spanned, 1…`maxColumnSpan`.
  package var columnSpan = 1
  /// Cells: rows spanned, 0…`maxRowSpan` (0: to the end of the row group).
  package var rowSpan = 1
  /// Rows: the group they belong to.
  package var rowGroup: TableRowGroup = .body
  /// Tables: the columns of its `col`/`colgroup` elements, in order.
  package var columns: [TableColumn] = []
  package var style = TableStyle()
  package init() {}

  /// HTML's bounds on `colspan` and `rowspan`.
  package static let maxColumnSpan = 1000
  package static let maxRowSpan = 65534
  /// Columns declared by `col`/`colgroup` kept per table (their spans summed).
  package static let maxDeclaredColumns = 1000
}
