// `::first-line` (CSS 2.1 §5.12.1, CSS Pseudo 4 §3.1): the styles a block's runs take on its
// first formatted line. Which text that is depends on line breaking, so ingest does not
// split anything: it gives every run of the block, besides its own style, the style it
// would have inside the fictional `::first-line` inline box (`ComputedStyle.firstLine`), and
// Typeset restyles the text its first line holds (Typeset/Inline/FirstLine.swift).
//
// Inheritance follows the fictional tag sequence of CSS 2.1 §5.12.1: the pseudo-element sits
// inside the block, around the inline elements of the first line, so an inline element's
// first-line style is its own declarations computed with the first-line style of its parent
// as parent. A block whose first in-flow child is a block (a `div` whose first child is a
// `p`) hands its first-line style down to that child, which computes its own style (and its
// own `::first-line`, if any) on top of it. Only the properties Pseudo 4 §3.1.1 lists apply:
// font, colour, background, text decoration, text transform, letter and word spacing,
// line height, vertical alignment (and text shadow and emphasis, which Quire does not paint).
//
// Cost: nothing for an element outside a first-line block (one nil test); one extra style
// computation per inline element inside one.

import Foundation

enum FirstLineCascade {
  /// Whether a declaration may apply to `::first-line` (CSS Pseudo 4 §3.1.1).
  static func applies(_ d: CSSDeclaration) -> Bool {
    let name = d.name
    if name.hasPrefix("font") || name.hasPrefix("background") || name.hasPrefix("text-decoration") {
      return true
    }
    switch name {
    case "color", "text-transform", "letter-spacing", "word-spacing", "line-height",
      "vertical-align", "text-shadow", "-webkit-text-decoration", "text-underline-position",
      "-epub-text-transform":
      return true
    default: return false
    }
  }

  /// The block's own `::first-line` style, over `base` (the block's style, or its style
  /// under the first-line style its parent handed down); nil when it has none.
  static func own(_ decls: [CSSDeclaration]?, base: ElementStyle) -> ElementStyle? {
    guard let decls else { return nil }
    let kept = decls.filter(applies)
    guard !kept.isEmpty else { return nil }
    var s = StyleComputer.compute(kept, parent: base, base: ElementStyle.inheriting(from: base))
    // The pseudo-element is an inline box: it holds none of the block's box properties.
    s.display = .inline
    return s
  }

  /// An element's style inside the first-line box: its own declarations with the
  /// first-line style of its parent (`parent`) as parent.
  static func descendant(_ decls: [CSSDeclaration], element: ElementStyle, parent: ElementStyle)
    -> ElementStyle
  {
    var base = ElementStyle.inheriting(from: parent)
    base.computed.direction = element.computed.direction
    var s = StyleComputer.compute(decls, parent: parent, base: base)
    s.display = element.display
    s.computed.verticalAlign =
      s.computed.verticalAlign == .baseline
      ? element.computed.verticalAlign : s.computed.verticalAlign
    return s
  }

  /// `style` with its first-line variant attached (`first` nil: unchanged).
  static func attach(_ first: ComputedStyle?, to style: ComputedStyle) -> ComputedStyle {
    guard var first else { return style }
    first.firstLine = nil
    var s = style
    s.firstLine = .style(first)
    return s
  }
}
