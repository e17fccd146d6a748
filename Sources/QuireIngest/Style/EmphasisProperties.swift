// `text-emphasis` and its longhands (CSS Text Decoration 3 §3), with the `-epub-` and
// `-webkit-` prefixes (WritingModeProperties strips them): the marks Japanese sets beside
// each character for emphasis (圏点). The style is kept as written — a shape keyword or a
// string, filled or open, a colour, a side — and the typesetter picks the glyph
// (Inline/LineAnnotations.swift), since the default shape depends on the writing mode.
// Invalid values are skipped, as CSS says; a string keeps its first character only.

import Foundation
import QuireCore

enum EmphasisProperties {
  static let shapes: Set<String> = ["dot", "circle", "double-circle", "triangle", "sesame"]

  /// Applies `text-emphasis`, `-style`, `-color` or `-position` (unprefixed `name`).
  static func apply(_ name: String, _ v: [CSSToken], _ words: [String], _ s: inout ComputedStyle) {
    switch name {
    case "text-emphasis-style":
      if words == ["none"] {
        s.text.writing.emphasis = nil
      } else if let mark = style(v, words, keeping: s.text.writing.emphasis) {
        s.text.writing.emphasis = mark
      }
    case "text-emphasis-color":
      guard let c = StyleComputer.color(v) else { return }
      var mark = s.text.writing.emphasis ?? EmphasisMark()
      mark.color = c
      if s.text.writing.emphasis != nil { s.text.writing.emphasis = mark }
    case "text-emphasis-position":
      // `[over | under] && [right | left]?` (right when omitted, CSS Text Decoration 4).
      guard var mark = s.text.writing.emphasis,
        let side = words.first(where: { $0 == "over" || $0 == "under" }),
        words.count == 1
          || (words.count == 2 && (words.contains("right") || words.contains("left")))
      else { return }
      mark.side = side == "under" ? .under : .over
      mark.verticalSide = words.contains("left") ? .under : .over
      s.text.writing.emphasis = mark
    default:  // the shorthand: a style and a colour
      if words == ["none"] {
        s.text.writing.emphasis = nil
        return
      }
      let styleTokens = v.filter {
        $0.kind == .string || ($0.kind == .ident && isStyleWord($0.text.lowercased()))
      }
      let colorTokens = v.filter {
        !$0.isWhitespace && $0.kind != .string
          && !($0.kind == .ident && isStyleWord($0.text.lowercased()))
      }
      // The shorthand resets the colour, not the position.
      var old = s.text.writing.emphasis
      old?.color = nil
      guard var mark = style(styleTokens, words.filter(isStyleWord), keeping: old) else { return }
      if !colorTokens.isEmpty {
        guard let c = StyleComputer.color(colorTokens) else { return }
        mark.color = c
      }
      s.text.writing.emphasis = mark
    }
  }

  static func isStyleWord(_ w: String) -> Bool {
    w == "filled" || w == "open" || shapes.contains(w)
  }

  /// A `text-emphasis-style` value; colour and side kept from `old`.
  static func style(_ v: [CSSToken], _ words: [String], keeping old: EmphasisMark?) -> EmphasisMark?
  {
    var mark = EmphasisMark()
    mark.color = old?.color
    mark.side = old?.side ?? .over
    mark.verticalSide = old?.verticalSide ?? .over
    if let string = v.first(where: { $0.kind == .string }) {
      guard words.isEmpty, let first = string.text.first else { return nil }
      mark.shape = String(first)
      mark.isString = true
      return mark
    }
    guard !words.isEmpty, words.count <= 2, words.allSatisfy(isStyleWord) else { return nil }
    for w in words {
      if w == "open" {
        mark.open = true
      } else if w != "filled" {
        mark.shape = w
      }
    }
    return mark
  }
}
