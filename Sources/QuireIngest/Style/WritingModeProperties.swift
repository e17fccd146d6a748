// Vertical writing properties (CSS Writing Modes 3): `writing-mode`, `text-orientation` and
// `text-combine-upright`, with the `-epub-` and `-webkit-` prefixes EPUB 3 books use
// (`-epub-text-combine` and `-epub-text-combine-horizontal` are the old names of
// `text-combine-upright`). They live in one value (`TextStyle.writing`) so the shared style
// struct gains one field.
//
// The typesetter takes the writing mode per document: the value on `html` or `body`
// (`Chapter.writingMode`), as EPUB 3 Reading Systems do; a vertical paragraph inside a
// horizontal page (or the reverse) is laid out in the page's mode. Orientation and
// tate-chu-yoko apply per character run.
//
// Bounds: `digits n` is clamped to 2…4 as the spec says; anything else is skipped as
// invalid CSS.

import Foundation
import QuireCore

/// `writing-mode`: the direction of lines and of their stacking.
package enum WritingMode: String, Sendable, Hashable, Codable {
  case horizontalTB = "horizontal-tb"
  /// Lines top to bottom, columns right to left (Japanese and Chinese books).
  case verticalRL = "vertical-rl"
  /// Lines top to bottom, columns left to right (Mongolian).
  case verticalLR = "vertical-lr"

  /// Whether lines run top to bottom.
  package var isVertical: Bool { self != .horizontalTB }
}

/// `text-orientation`: how characters of a vertical line stand.
package enum TextOrientation: String, Sendable, Hashable, Codable {
  /// CJK upright, other scripts rotated 90° clockwise (UAX #50).
  case mixed
  /// Every character upright.
  case upright
  /// Every character rotated 90° clockwise, as horizontal text turned on its side.
  case sideways
}

/// `text-combine-upright`: characters set horizontally inside one em of a vertical line.
package enum TextCombine: Sendable, Hashable, Codable {
  case none
  /// The whole element's text.
  case all
  /// Runs of at most `n` ASCII digits (2…4).
  case digits(Int)
}

/// The vertical writing properties of an element (`TextStyle.writing`).
package struct WritingStyle: Sendable, Hashable, Codable {
  /// Inherited.
  package var mode = WritingMode.horizontalTB
  /// Inherited.
  package var orientation = TextOrientation.mixed
  /// Not inherited.
  package var combine = TextCombine.none
  /// Inherited: where the element sits in a `<ruby>` (Markup/RubyMarkup.swift).
  package var ruby = RubyPart.none
  /// On a ruby base's text runs only: the annotation set beside them.
  package var rubyText: String? = nil
  /// On a ruby base's text runs only: the second annotation (an `<rtc>`), set on the other
  /// side of the line.
  package var rubyOtherText: String? = nil
  /// `ruby-position` (inherited).
  package var rubyPosition = AnnotationSide.over
  /// `text-emphasis-*` (inherited); nil for none.
  package var emphasis: EmphasisMark? = nil
  package init() {}
}

/// Where text sits in a `<ruby>` element; `group` tells one ruby element from another.
package enum RubyPart: Sendable, Hashable, Codable {
  case none
  /// Base text; `segment` is the `<rb>` element's node index (-1: the ruby's own text).
  case base(group: Int, segment: Int)
  /// Annotation text at `level` (0: `<rt>`, 1: inside an `<rtc>`); `segment` is the `<rt>`
  /// (or `<rtc>`) element's node index.
  case annotation(group: Int, level: Int, segment: Int)
}

/// The side of the line an annotation goes on: over is above a horizontal line and right
/// of a vertical one (CSS Ruby 1, `ruby-position`; `text-emphasis-position`).
package enum AnnotationSide: String, Sendable, Hashable, Codable {
  case over, under
}

/// `text-emphasis-style`, `-color` and `-position` (CSS Text Decoration 3 §3).
package struct EmphasisMark: Sendable, Hashable, Codable {
  /// The mark: one of the spec's shapes ("sesame", "dot", "circle", "double-circle",
  /// "triangle"), "" for the writing mode's default, or a string's first character.
  package var shape = ""
  /// A shape's open form (ignored for a string).
  package var open = false
  /// nil: the text colour.
  package var color: RGBA? = nil
  /// The side in horizontal text: `over` or `under` of `text-emphasis-position`.
  package var side = AnnotationSide.over
  /// The side in vertical text: `right` (`.over`, the line's over side) or `left`.
  package var verticalSide = AnnotationSide.over
  package var isString = false
  package init() {}
}

enum WritingModeProperties {
  /// The unprefixed name of a vertical writing property, nil for other properties.
  static func canonical(_ name: String) -> String? {
    var n = name
    for prefix in ["-epub-", "-webkit-"] where n.hasPrefix(prefix) {
      n.removeFirst(prefix.count)
    }
    switch n {
    case "writing-mode", "text-orientation", "text-combine-upright", "ruby-position": return n
    case "text-emphasis", "text-emphasis-style", "text-emphasis-color", "text-emphasis-position":
      return n
    case "text-combine", "text-combine-horizontal": return "text-combine-upright"
    default: return nil
    }
  }

  /// Applies a declaration; false when `name` is not a vertical writing property.
  static func apply(_ name: String, _ v: [CSSToken], _ s: inout ComputedStyle) -> Bool {
    guard let n = canonical(name) else { return false }
    let words = v.filter { $0.kind == .ident }.map { $0.text.lowercased() }
    switch n {
    case "writing-mode": if let m = mode(words) { s.text.writing.mode = m }
    case "text-orientation": if let o = orientation(words) { s.text.writing.orientation = o }
    case "text-combine-upright": if let c = combine(v, words) { s.text.writing.combine = c }
    case "ruby-position":
      if words.contains("under") || words.contains("after") {
        s.text.writing.rubyPosition = .under
      } else if words.contains("over") || words.contains("before") {
        s.text.writing.rubyPosition = .over
      }
    default: EmphasisProperties.apply(n, v, words, &s)
    }
    return true
  }

  /// `inherit` for the vertical writing properties.
  static func inherit(_ name: String, _ s: inout ComputedStyle, parent p: ComputedStyle) -> Bool {
    guard let n = canonical(name) else { return false }
    switch n {
    case "writing-mode": s.text.writing.mode = p.text.writing.mode
    case "text-orientation": s.text.writing.orientation = p.text.writing.orientation
    case "text-combine-upright": s.text.writing.combine = p.text.writing.combine
    case "ruby-position": s.text.writing.rubyPosition = p.text.writing.rubyPosition
    default: s.text.writing.emphasis = p.text.writing.emphasis
    }
    return true
  }

  static func mode(_ words: [String]) -> WritingMode? {
    guard words.count == 1 else { return nil }
    switch words[0] {
    case "horizontal-tb", "lr", "lr-tb", "rl", "rl-tb": return .horizontalTB
    case "vertical-rl", "tb", "tb-rl": return .verticalRL
    case "vertical-lr", "tb-lr": return .verticalLR
    default: return nil
    }
  }

  static func orientation(_ words: [String]) -> TextOrientation? {
    guard words.count == 1 else { return nil }
    switch words[0] {
    case "mixed", "vertical-right": return .mixed
    case "upright": return .upright
    case "sideways", "sideways-right": return .sideways
    default: return nil
    }
  }

  static func combine(_ v: [CSSToken], _ words: [String]) -> TextCombine? {
    switch words.first {
    case "none" where words.count == 1 && v.count == 1: return TextCombine.none
    case "all" where words.count == 1 && v.count == 1: return .all
    case "horizontal" where words.count == 1 && v.count == 1: return .all  // -epub-text-combine
    case "digits":
      let numbers = v.filter { $0.kind == .number }
      // `digits <integer [2,4]>?`: anything else is invalid.
      guard words.count == 1, numbers.count <= 1 else { return nil }
      let raw = numbers.first?.number ?? 2
      guard raw == raw.rounded(), (2...4).contains(raw) else { return nil }
      return .digits(Int(raw))
    default: return nil
    }
  }
}
