// Parsing of the inline text properties into `TextStyle` (CSS Text 3, Text Decoration 3,
// Fonts 4): the cascade's `apply` hands every declaration it has no case of to `apply` here,
// and a few of its own cases (`text-decoration`, `text-indent`, `white-space`,
// `vertical-align`, `font-variant`) call the helpers below for the values they ignore.
//
// Values are computed here: lengths to rem against the element's font size (which the
// cascade sets before anything else), spacing percentages of the font size, features to
// OpenType tags. Invalid values are skipped, as CSS says; every number is clamped and
// every list capped (`TextStyle.maxFeatures`), so a hostile declaration costs a few
// comparisons and a small style.
//
// The `font-variant-*` properties become OpenType features (CSS Fonts 4 §6): numeric
// (lnum/onum, pnum/tnum, frac, ordn, zero), ligatures (liga/clig, dlig, hlig, calt; `none`
// turns all four off) and `font-kerning: none` (kern 0). `font-feature-settings` is kept
// apart and applied after them, as the spec orders it.

import Foundation
import QuireCore

enum TextProperties {
  /// Applies a declaration the cascade's switch does not know; false when it is not a text
  /// property either (then it is ignored).
  @discardableResult
  static func apply(
    _ name: String, _ v: [CSSToken], _ s: inout ComputedStyle, parent: ComputedStyle
  ) -> Bool {
    let k = StyleComputer.keyword(v)
    if k == "initial" {
      return inherit(name, &s, parent: ComputedStyle())
    }
    switch name {
    case "letter-spacing": s.text.letterSpacing = k == "normal" ? nil : spacing(v, s.fontSize)
    case "word-spacing": s.text.wordSpacing = k == "normal" ? nil : spacing(v, s.fontSize)
    case "text-align-last": if let k { s.text.alignLast = alignLast(k) }
    case "word-break":
      switch k {
      case "normal": s.text.wordBreak = .normal
      case "break-all": s.text.wordBreak = .breakAll
      case "keep-all": s.text.wordBreak = .keepAll
      case "break-word":  // deprecated: word-break normal with overflow-wrap anywhere
        s.text.wordBreak = .normal
        s.text.overflowWrap = .anywhere
      default: break
      }
    case "line-break":
      switch k {
      case "auto", "normal", "anywhere": s.text.lineBreak = .normal
      case "loose": s.text.lineBreak = .loose
      case "strict": s.text.lineBreak = .strict
      default: break
      }
    case "text-autospace", "-webkit-text-autospace":
      if let a = autospace(v) { s.text.autospace = a }
    case "text-spacing":
      if let a = textSpacing(v) { s.text.autospace = a }
    case "overflow-wrap", "word-wrap":
      switch k {
      case "normal": s.text.overflowWrap = .normal
      case "break-word": s.text.overflowWrap = .breakWord
      case "anywhere": s.text.overflowWrap = .anywhere
      default: break
      }
    case "tab-size", "-moz-tab-size", "-o-tab-size": tabSize(v, &s)
    case "text-decoration-color": if let c = StyleComputer.color(v) { s.text.decorationColor = c }
    case "text-decoration-style":
      if let k, let st = decorationStyle(k) { s.text.decorationStyle = st }
    case "text-decoration-thickness", "text-decoration-width":
      s.text.decorationThickness = thickness(v, s.fontSize)
    case "text-underline-position":
      let words = Set(v.filter { $0.kind == .ident }.map { $0.text.lowercased() })
      if words.contains("under") {
        s.text.underlineUnder = true
      } else if words.contains("auto") || words.contains("from-font") {
        s.text.underlineUnder = false
      }
    case "text-underline-offset": s.text.underlineOffset = thickness(v, s.fontSize)
    case "font-variant-numeric": if let f = numericFeatures(v) { s.text.variantFeatures = f }
    case "font-variant-ligatures": if let f = ligatureFeatures(v) { s.text.variantFeatures = f }
    case "font-kerning":
      if k == "none" {
        s.text.variantFeatures = replacing("kern", 0, in: s.text.variantFeatures)
      } else if k == "auto" || k == "normal" {
        s.text.variantFeatures.removeAll { $0.tag == "kern" }
      }
    case "font-feature-settings": if let f = featureSettings(v) { s.text.featureSettings = f }
    default: return WritingModeProperties.apply(name, v, &s)
    }
    return true
  }

  /// `text-autospace`: `normal`/`auto` (both spacings), `no-autospace`, or any of
  /// `ideograph-alpha`, `ideograph-numeric`, `punctuation`, `insert`, `replace` (the last
  /// three accepted, not acted on: Quire inserts no spacing at punctuation and has no
  /// spaces to replace); nil for anything else (the declaration is ignored).
  static func autospace(_ v: [CSSToken]) -> Autospace? {
    let words = v.filter { $0.kind != .whitespace }
    guard !words.isEmpty, words.count <= 5, words.allSatisfy({ $0.kind == .ident }) else {
      return nil
    }
    let names = words.map { $0.text.lowercased() }
    if names == ["normal"] || names == ["auto"] { return .normal }
    if names == ["no-autospace"] { return [] }
    var out: Autospace = []
    for name in names {
      switch name {
      case "ideograph-alpha": out.insert(.alpha)
      case "ideograph-numeric": out.insert(.numeric)
      case "punctuation", "insert", "replace": break
      default: return nil
      }
    }
    return out
  }

  /// The older `text-spacing` (CSS Text 4 drafts before `text-autospace` split from it, still
  /// found in EPUB style sheets): `normal`/`auto` both spacings, `none` none, else its
  /// `ideograph-alpha`/`ideograph-numeric` keywords (the trim and punctuation ones are
  /// accepted, not acted on); nil for anything else.
  static func textSpacing(_ v: [CSSToken]) -> Autospace? {
    let words = v.filter { $0.kind != .whitespace }
    guard !words.isEmpty, words.count <= 8, words.allSatisfy({ $0.kind == .ident }) else {
      return nil
    }
    let names = words.map { $0.text.lowercased() }
    if names == ["normal"] || names == ["auto"] { return .normal }
    if names == ["none"] { return [] }
    let accepted: Set = [
      "trim-start", "space-start", "space-first", "trim-end", "space-end", "allow-end",
      "trim-adjacent", "space-adjacent", "no-compress", "punctuation",
    ]
    var out: Autospace = []
    for name in names {
      switch name {
      case "ideograph-alpha": out.insert(.alpha)
      case "ideograph-numeric": out.insert(.numeric)
      default: guard accepted.contains(name) else { return nil }
      }
    }
    return out
  }

  /// `inherit` (and `initial`, with a default parent) for the properties of `apply`.
  @discardableResult
  static func inherit(_ name: String, _ s: inout ComputedStyle, parent p: ComputedStyle) -> Bool {
    switch name {
    case "letter-spacing": s.text.letterSpacing = p.text.letterSpacing
    case "word-spacing": s.text.wordSpacing = p.text.wordSpacing
    case "text-align-last": s.text.alignLast = p.text.alignLast
    case "word-break": s.text.wordBreak = p.text.wordBreak
    case "line-break": s.text.lineBreak = p.text.lineBreak
    case "text-autospace", "-webkit-text-autospace", "text-spacing":
      s.text.autospace = p.text.autospace
    case "overflow-wrap", "word-wrap": s.text.overflowWrap = p.text.overflowWrap
    case "tab-size", "-moz-tab-size", "-o-tab-size": s.text.tabSize = p.text.tabSize
    case "text-decoration-color": s.text.decorationColor = p.text.decorationColor
    case "text-decoration-style": s.text.decorationStyle = p.text.decorationStyle
    case "text-decoration-thickness", "text-decoration-width":
      s.text.decorationThickness = p.text.decorationThickness
    case "text-underline-position": s.text.underlineUnder = p.text.underlineUnder
    case "text-underline-offset": s.text.underlineOffset = p.text.underlineOffset
    case "font-variant-numeric", "font-variant-ligatures", "font-kerning":
      s.text.variantFeatures = p.text.variantFeatures
    case "font-feature-settings": s.text.featureSettings = p.text.featureSettings
    default: return WritingModeProperties.inherit(name, &s, parent: p)
    }
    return true
  }

  /// A spacing length (`letter-spacing`, `word-spacing`): a length, or a percentage of the
  /// font size (`fontSize` in rem); bounded to ±1 em of the reader's size times 8.
  static func spacing(_ v: [CSSToken], _ fontSize: Double) -> Length? {
    guard v.count == 1 else { return nil }
    let t = v[0]
    var rem: Double
    if t.kind == .percentage {
      rem = t.number / 100 * fontSize
    } else if case .rem(let r)? = StyleComputer.length(t, fontSize: fontSize) {
      rem = r
    } else {
      return nil
    }
    guard rem.isFinite else { return nil }
    rem = max(-8, min(8, rem))
    return .rem(rem)
  }

  /// A decoration thickness or offset: a length or a percentage of 1 em; nil for `auto`.
  static func thickness(_ v: [CSSToken], _ fontSize: Double) -> Length? {
    guard StyleComputer.keyword(v) == nil else { return nil }
    return spacing(v, fontSize)
  }

  static func alignLast(_ k: String) -> TextAlign? {
    switch k {
    case "auto": return nil
    case "left": return .left
    case "right": return .right
    case "center": return .center
    case "justify": return .justify
    case "start": return .start
    case "end": return .end
    default: return nil
    }
  }

  static func decorationStyle(_ k: String) -> DecorationStyle? {
    switch k {
    case "solid": return .solid
    case "double": return .double
    case "dotted": return .dotted
    case "dashed": return .dashed
    case "wavy": return .wavy
    default: return nil
    }
  }

  /// `tab-size`: a number of spaces (0…64), or a length converted at 0.5 em a space.
  static func tabSize(_ v: [CSSToken], _ s: inout ComputedStyle) {
    guard v.count == 1 else { return }
    if v[0].kind == .number, v[0].number >= 0 {
      s.text.tabSize = min(64, v[0].number)
    } else if case .rem(let r)? = StyleComputer.length(v[0], fontSize: s.fontSize), r >= 0 {
      s.text.tabSize = min(64, r / max(0.01, s.fontSize) * 2)
    }
  }

  /// The `text-decoration` shorthand's longhands other than the line (which the cascade
  /// sets): overline, colour, style, thickness. `none` clears the overline.
  static func applyDecorationShorthand(_ v: [CSSToken], _ s: inout ComputedStyle) {
    var color: RGBA? = nil
    var style = DecorationStyle.solid
    var thick: Length? = nil
    for t in v {
      if t.kind == .ident {
        let k = t.text.lowercased()
        if k == "none" { s.text.overline = false }
        if k == "overline" { s.text.overline = true }
        if let st = decorationStyle(k) { style = st }
      }
      if let c = StyleComputer.color([t]), t.kind == .hash || t.kind == .ident {
        color = c
      }
      if t.kind == .dimension || t.kind == .percentage { thick = spacing([t], s.fontSize) }
    }
    if let i = v.firstIndex(where: { $0.kind == .function }),
      let c = StyleComputer.color(Array(v[i...]))
    {
      color = c
    }
    if v.contains(where: { $0.kind == .ident && $0.text.lowercased() == "overline" })
      || v.contains(where: {
        $0.kind == .ident && ["underline", "line-through"].contains($0.text.lowercased())
      })
    {
      s.text.decorationColor = color
      s.text.decorationStyle = style
      s.text.decorationThickness = thick
    }
  }

  /// `text-transform`: none, or a case (capitalize, uppercase, lowercase) and/or
  /// `full-width` (CSS Text 3 §2.1; `-epub-fullwidth` is EPUB 3's name for it). A value
  /// with an unknown word or two cases is invalid and ignored.
  static func applyTransform(_ v: [CSSToken], _ s: inout ComputedStyle) {
    let words = v.filter { $0.kind == .ident }.map { $0.text.lowercased() }
    guard !words.isEmpty, words.count == v.filter({ $0.kind != .whitespace }).count else {
      return
    }
    if words == ["none"] {
      s.textTransform = .none
      s.textFullWidth = false
      return
    }
    var transform = TextTransform.none
    var fullWidth = false
    for w in words {
      if w == "full-width" || w == "-epub-fullwidth" {
        fullWidth = true
      } else if let t = TextTransform(rawValue: w), t != .none, transform == .none {
        transform = t
      } else if w != "full-size-kana" {
        return
      }
    }
    s.textTransform = transform
    s.textFullWidth = fullWidth
  }

  /// `text-indent`'s keywords, `hanging` and `each-line`, and its length wherever it is.
  static func applyIndentKeywords(_ v: [CSSToken], _ s: inout ComputedStyle) {
    let fs = s.fontSize
    if let l = v.lazy.compactMap({ StyleComputer.length($0, fontSize: fs) }).first {
      s.textIndent = l
    }
    let words = Set(v.filter { $0.kind == .ident }.map { $0.text.lowercased() })
    s.text.indentHanging = words.contains("hanging")
    s.text.indentEachLine = words.contains("each-line")
  }

  /// `vertical-align` values past baseline/sub/super: keywords, lengths, percentages (of
  /// the line height, resolved at layout).
  static func verticalShift(_ v: [CSSToken], fontSize: Double) -> VerticalShift? {
    guard v.count == 1 else { return nil }
    let t = v[0]
    switch t.kind {
    case .ident:
      switch t.text.lowercased() {
      case "top": return .top
      case "text-top": return .textTop
      case "middle": return .middle
      case "bottom": return .bottom
      case "text-bottom": return .textBottom
      default: return nil
      }
    case .percentage:
      return t.number.isFinite ? .lineHeightPercent(max(-1000, min(1000, t.number))) : nil
    default:
      return spacing(v, fontSize).map { .length($0) }
    }
  }

  /// `feature` set to `value` in `list` (replacing an earlier setting of it).
  static func replacing(_ tag: String, _ value: UInt32, in list: [FontFeature]) -> [FontFeature] {
    var out = list.filter { $0.tag != tag }
    if out.count < TextStyle.maxFeatures { out.append(FontFeature(tag, value)) }
    return out
  }

  static func numericFeatures(_ v: [CSSToken]) -> [FontFeature]? {
    var out: [FontFeature] = []
    for t in v {
      guard t.kind == .ident else { return nil }
      switch t.text.lowercased() {
      case "normal": return []
      case "lining-nums": out.append(FontFeature("lnum"))
      case "oldstyle-nums": out.append(FontFeature("onum"))
      case "proportional-nums": out.append(FontFeature("pnum"))
      case "tabular-nums": out.append(FontFeature("tnum"))
      case "diagonal-fractions": out.append(FontFeature("frac"))
      case "stacked-fractions": out.append(FontFeature("afrc"))
      case "ordinal": out.append(FontFeature("ordn"))
      case "slashed-zero": out.append(FontFeature("zero"))
      default: return nil
      }
    }
    return Array(out.prefix(TextStyle.maxFeatures))
  }

  static func ligatureFeatures(_ v: [CSSToken]) -> [FontFeature]? {
    var out: [FontFeature] = []
    for t in v {
      guard t.kind == .ident else { return nil }
      let k = t.text.lowercased()
      switch k {
      case "normal": return []
      case "none": return ["liga", "clig", "dlig", "hlig", "calt"].map { FontFeature($0, 0) }
      case "common-ligatures", "no-common-ligatures":
        let on: UInt32 = k.hasPrefix("no-") ? 0 : 1
        out += [FontFeature("liga", on), FontFeature("clig", on)]
      case "discretionary-ligatures": out.append(FontFeature("dlig"))
      case "no-discretionary-ligatures": out.append(FontFeature("dlig", 0))
      case "historical-ligatures": out.append(FontFeature("hlig"))
      case "no-historical-ligatures": out.append(FontFeature("hlig", 0))
      case "contextual": out.append(FontFeature("calt"))
      case "no-contextual": out.append(FontFeature("calt", 0))
      default: return nil
      }
    }
    return Array(out.prefix(TextStyle.maxFeatures))
  }

  /// `font-feature-settings: "smcp", "liga" 0, "ss01" on`; `normal` clears.
  static func featureSettings(_ v: [CSSToken]) -> [FontFeature]? {
    if StyleComputer.keyword(v) == "normal" { return [] }
    var out: [FontFeature] = []
    var current: FontFeature? = nil
    for t in v + [CSSToken(kind: .comma, text: ",")] {
      switch t.kind {
      case .string:
        guard t.text.count == 4,
          t.text.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value < 0x7F })
        else { return nil }
        current = FontFeature(t.text, 1)
      case .number:
        guard current != nil, t.number >= 0, t.number <= 0xFFFF else { return nil }
        current?.value = UInt32(t.number)
      case .ident:
        let k = t.text.lowercased()
        guard current != nil, k == "on" || k == "off" else { return nil }
        current?.value = k == "on" ? 1 : 0
      case .comma:
        guard let f = current else { return nil }
        if out.count < TextStyle.maxFeatures { out.append(f) }
        current = nil
      default: return nil
      }
    }
    return out
  }
}
