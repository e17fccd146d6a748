// Computed CSS values after the cascade: what the typesetter reads. Only properties the
// typesetter acts on are here; everything else is dropped by the cascade.

import Foundation
import QuireCore

package enum Length: Sendable, Hashable, Codable {
  /// Root ems: multiply by the reader's font size to get pixels.
  case rem(Double)
  /// Percent of the containing block's width.
  case percent(Double)
  package static let zero = Length.rem(0)
}

package enum TextAlign: String, Sendable, Hashable, Codable {
  case start, end, left, right, center, justify
}
package enum TextTransform: String, Sendable, Hashable, Codable {
  case none, uppercase, lowercase, capitalize
}
package enum WhiteSpace: String, Sendable, Hashable, Codable {
  case normal, pre, preWrap, preLine, nowrap
}
package enum VerticalAlign: String, Sendable, Hashable, Codable { case baseline, sub, `super` }
package enum Hyphens: String, Sendable, Hashable, Codable { case none, manual, auto }
/// `break-before/after/inside` (CSS Fragmentation 3 §3): `column` and `avoid-column` act
/// inside a multi-column container only.
package enum BreakRule: String, Sendable, Hashable, Codable {
  case auto, avoid, page, column
  case avoidColumn = "avoid-column"
}
package enum LineHeight: Sendable, Hashable, Codable {
  case normal
  /// A multiple of the element's font size.
  case factor(Double)
  case length(Length)
}

package struct EdgeLengths: Sendable, Hashable, Codable {
  package var top: Length, right: Length, bottom: Length, left: Length
  package init(
    top: Length = .zero, right: Length = .zero, bottom: Length = .zero, left: Length = .zero
  ) {
    self.top = top
    self.right = right
    self.bottom = bottom
    self.left = left
  }
  package static let zero = EdgeLengths()
}

package struct ComputedStyle: Sendable, Hashable, Codable {
  /// Font families in preference order, as written by the publisher ("serif", "monospace"
  /// and the other generic names included).
  package var fontFamilies: [String] = []
  /// Font size in root ems (1 = the reader's font size).
  package var fontSize: Double = 1
  package var italic: Bool = false
  /// 100…900 (400 normal, 700 bold).
  package var fontWeight: Int = 400
  package var smallCaps: Bool = false
  package var textAlign: TextAlign = .start
  package var textIndent: Length = .zero
  package var textTransform: TextTransform = .none
  /// `text-transform: full-width` (or EPUB's `-epub-fullwidth`): characters set in their
  /// fullwidth forms (CSS Text 3 §2.1); inherited with `text-transform`.
  package var textFullWidth = false
  package var margin: EdgeLengths = .zero
  package var padding: EdgeLengths = .zero
  package var lineHeight: LineHeight = .normal
  package var breakBefore: BreakRule = .auto
  package var breakAfter: BreakRule = .auto
  package var breakInside: BreakRule = .auto
  package var whiteSpace: WhiteSpace = .normal
  package var verticalAlign: VerticalAlign = .baseline
  package var hyphens: Hyphens = .manual
  package var widows: Int = 2
  package var orphans: Int = 2
  package var direction: TextDirection? = nil
  package var color: RGBA = .black
  package var underline: Bool = false
  package var lineThrough: Bool = false
  /// Inline text properties beyond the above (TextStyle.swift).
  package var text = TextStyle()
  /// On the runs of a block that has a `::first-line`: the style this run takes where it is
  /// set on the block's first formatted line (CSS Pseudo 4 §3.1.1: the run's own
  /// declarations over the `::first-line` ones, inherited through its inline ancestors).
  /// Never inherited; nil everywhere else. Typeset applies it after breaking
  /// (Inline/FirstLine.swift).
  package var firstLine: FirstLineStyle? = nil

  package init() {}
}

/// The style a run takes on its block's first formatted line (`ComputedStyle.firstLine`),
/// boxed: a style cannot hold a style by value.
package indirect enum FirstLineStyle: Sendable, Hashable, Codable {
  case style(ComputedStyle)

  /// The first-line style.
  package var style: ComputedStyle {
    switch self {
    case .style(let s): return s
    }
  }
}

extension ComputedStyle {
  /// Hashes the values that tell a book's styles apart (first family, size, weight, slant,
  /// colour, decoration, line height, indent, top and left margin, direction); `==` still
  /// compares every value, so equal styles hash equally and unequal ones that agree on these
  /// only share a bucket. A style holds ~60 values, arrays and nested styles, and its
  /// keyword enums hash their raw strings: hashing all of them cost ~8 K instructions a
  /// lookup in the typesetter's table of a chapter's run styles (ChapterFlow), where a
  /// book holds a few dozen distinct styles.
  package func hash(into hasher: inout Hasher) {
    hasher.combine(fontFamilies.first)
    hasher.combine(fontSize)
    hasher.combine(italic)
    hasher.combine(fontWeight)
    hasher.combine(smallCaps)
    hasher.combine(color)
    hasher.combine(underline)
    hasher.combine(lineThrough)
    hasher.combine(lineHeight)
    hasher.combine(textIndent)
    hasher.combine(margin.top)
    hasher.combine(margin.left)
    hasher.combine(direction.map { $0 == .rtl ? 2 : 1 } ?? 0)
    hasher.combine(firstLine != nil)
  }
}
