// The inline text properties of CSS Text 3, CSS Text Decoration 3 and CSS Fonts 4 that the
// typesetter acts on beyond the basics in `ComputedStyle`: spacing, wrapping, the last
// line's alignment, the indent's keywords, decoration longhands, OpenType features and the
// finer vertical alignments. They live in one value (`ComputedStyle.text`) so the shared
// style struct gains one field, and the cascade copies the inherited ones in one line
// (`inherited()`).
//
// Units: lengths are `Length.rem`, computed against the element's font size when parsed
// (CSS inherits letter and word spacing as absolute lengths; their percentages are of
// the font size, so they too become rem). Bounds: feature lists hold at most
// `TextStyle.maxFeatures` entries, every number is clamped when parsed
// (`TextProperties`), so a hostile sheet cannot make a style large or a value absurd.

import Foundation
import QuireCore

/// `word-break`.
package enum WordBreak: String, Sendable, Hashable, Codable {
  case normal, breakAll, keepAll
}

/// `line-break` (CSS Text 3 §5.3): how strictly CJK punctuation and small kana are kept
/// from starting a line. `auto` is `normal`, as browsers do; `anywhere` is kept as `loose`.
/// `text-autospace` (CSS Text 4 §6.4): where the ¼ em space goes between ideographs (and
/// kana) and non-CJK letters or digits.
package struct Autospace: OptionSet, Sendable, Hashable, Codable {
  package let rawValue: UInt8
  package init(rawValue: UInt8) { self.rawValue = rawValue }
  /// Between CJK and non-CJK letters (`ideograph-alpha`).
  package static let alpha = Autospace(rawValue: 1)
  /// Between CJK and non-CJK digits (`ideograph-numeric`).
  package static let numeric = Autospace(rawValue: 2)
  /// `normal`: both.
  package static let normal: Autospace = [.alpha, .numeric]
}

package enum LineBreakRule: String, Sendable, Hashable, Codable {
  /// Small kana and the prolonged sound mark (UAX #14 class CJ) may start a line, and so
  /// may the hyphens ‐ – 〜 ゠.
  case normal
  /// They may not (JLREQ's strict set).
  case strict
  /// `normal`, and iteration marks, centred punctuation and inseparable leaders may start
  /// a line too (CSS Text 3 §5.3, Typeset CJK/LooseLineBreak.swift).
  case loose
}

/// `overflow-wrap` (and its alias `word-wrap`).
package enum OverflowWrap: String, Sendable, Hashable, Codable {
  case normal, breakWord, anywhere
}

/// `text-decoration-style`.
package enum DecorationStyle: String, Sendable, Hashable, Codable {
  case solid, double, dotted, dashed, wavy
}

/// The `vertical-align` keywords and lengths beyond `ComputedStyle.verticalAlign`'s
/// baseline/sub/super (which stay there).
package enum VerticalShift: Sendable, Hashable, Codable {
  case top, textTop, middle, bottom, textBottom
  /// Raise (positive) or lower by a length.
  case length(Length)
  /// Raise by a percentage of the element's line height.
  case lineHeightPercent(Double)
}

/// One OpenType feature setting (`font-feature-settings: "smcp" 1`).
package struct FontFeature: Sendable, Hashable, Codable {
  /// Four ASCII characters.
  package var tag: String
  package var value: UInt32
  package init(_ tag: String, _ value: UInt32 = 1) {
    self.tag = tag
    self.value = value
  }
}

/// Inline text properties (see the file comment).
package struct TextStyle: Sendable, Hashable, Codable {
  /// Entries kept per feature list (`font-feature-settings`, the variant properties).
  package static let maxFeatures = 32

  // Inherited.
  /// `letter-spacing`; nil for `normal`.
  package var letterSpacing: Length? = nil
  /// `word-spacing`, added to every word space's natural width.
  package var wordSpacing: Length? = nil
  /// `text-align-last`; nil for `auto` (the last line follows `text-align`, `justify`
  /// giving `start`).
  package var alignLast: TextAlign? = nil
  /// `text-indent: … hanging` (every line but the first is indented) and `each-line`
  /// (lines after a forced break are indented as the first).
  package var indentHanging = false
  package var indentEachLine = false
  package var wordBreak = WordBreak.normal
  package var overflowWrap = OverflowWrap.normal
  /// `white-space: break-spaces` (preserved spaces never hang at a line end).
  package var breakSpaces = false
  /// `tab-size` in spaces (a length is converted to spaces at layout).
  package var tabSize: Double = 8
  /// `text-underline-position: under` (below the descenders) instead of `auto`.
  package var underlineUnder = false
  /// `text-underline-offset`; nil for `auto` (the font's underline position).
  package var underlineOffset: Length? = nil
  /// `all-small-caps`: capitals become small capitals too (`c2sc`).
  package var allSmallCaps = false
  /// `font-variant-numeric`, `font-variant-ligatures` and `font-kerning`, as features.
  package var variantFeatures: [FontFeature] = []
  /// `font-feature-settings`, applied after the variant features.
  package var featureSettings: [FontFeature] = []

  // Propagated to descendants like `ComputedStyle.underline` (copied by the cascade).
  package var overline = false
  /// `text-decoration-color`; nil for `currentColor`.
  package var decorationColor: RGBA? = nil
  package var decorationStyle = DecorationStyle.solid
  /// `text-decoration-thickness`; nil for `auto` (the font's).
  package var decorationThickness: Length? = nil

  // Not inherited.
  /// `vertical-align` values other than baseline/sub/super.
  package var verticalShift: VerticalShift? = nil

  /// The background colour of the nearest inline ancestor that has one, painted behind
  /// the run's content area (Style/InlineBackground.swift); kept by inline descendants,
  /// cleared by block-level elements.
  package var inlineBackground: RGBA? = nil
  /// The decorated inline boxes the run sits in, outermost first
  /// (Document/InlineBoxDecoration.swift); kept by inline descendants, cleared by
  /// block-level elements.
  package var inlineBoxes: [InlineBoxDecoration] = []

  // Inherited.
  /// `line-break`.
  package var lineBreak = LineBreakRule.normal
  /// `text-autospace`.
  package var autospace = Autospace.normal
  /// `writing-mode`, `text-orientation` (inherited) and `text-combine-upright` (not).
  package var writing = WritingStyle()

  package init() {}

  /// What a child starts from: everything but the non-inherited properties.
  package func inherited() -> TextStyle {
    var t = self
    t.verticalShift = nil
    t.writing.combine = .none
    return t
  }

  /// Every feature the style asks HarfBuzz for, variant properties first.
  package var features: [FontFeature] { variantFeatures + featureSettings }
}
