// The multi-column properties of one element (CSS Multi-column Layout 1): what makes a
// block a multi-column container (`column-count`, `column-width`, the `columns`
// shorthand), the gap and rule between its columns, how its last columns fill, and
// `column-span` on a child. None inherit, so they live on `BoxStyle`.

import QuireCore

/// `column-fill` (CSS Multi-column 1 §7.1).
package enum ColumnFill: String, Sendable, Hashable, Codable { case balance, auto }

/// The column properties of an element; the defaults are CSS's initial values.
package struct ColumnStyle: Sendable, Hashable, Codable {
  /// `column-count` (nil: `auto`), clamped to 1…`ColumnStyle.maxCount` at parse time.
  package var count: Int? = nil
  /// `column-width` (nil: `auto`); a length, never a percentage.
  package var width: Length? = nil
  /// `column-gap` (nil: `normal`, 1 em of the element's font).
  package var gap: Length? = nil
  /// `column-rule-*`: drawn between two non-empty columns when its style is visible.
  package var rule = BorderSide()
  package var fill: ColumnFill = .balance
  /// `column-span: all`: the element spans every column of its multi-column ancestor.
  package var spanAll = false

  /// The most columns a `column-count` asks for (hostile sheets write 100000).
  package static let maxCount = 1000

  package init() {}

  /// Whether the element establishes a multi-column container (CSS Multi-column 1 §2: a
  /// `column-count` or `column-width` other than `auto`).
  package var isMultiColumn: Bool { count != nil || width != nil }
}
