// FontFaceDescriptors: what an @font-face rule says about its face (CSS Fonts 4 §4).
//
// Read here: `src` as an ordered list of sources — `url(…)` with its `format()`/`tech()`
// hints and a `#fragment` (a collection's face index or name), `local("Name")` — where a
// source whose hints name a format or technology Quire cannot use is dropped at parse time,
// so the loader simply tries the rest in order; `font-weight` (one value or a range,
// `normal`/`bold`), `font-style` (`normal`, `italic`, `oblique` with an angle or an angle
// range, 14deg by default), `font-stretch` (keywords or percentages, one or a range), and
// `unicode-range` (U+hex, U+lo-hi, U+4?? wildcards). `font-display` and the other loading
// descriptors are ignored: fonts are loaded before layout, never swapped in.
//
// `unicode-range` has no token of its own since CSS Syntax 3; like the spec (§7.1) we glue the
// source text of the tokens back together — numeric tokens keep theirs in `CSSToken.raw` —
// and parse that, because `U+00E0` tokenizes as "U" and the number 0e0.
//
// Bounds: at most `maxSources` sources and `maxRanges` ranges per rule; code points above
// U+10FFFF are clamped; a malformed range drops that range only.

/// How a face is slanted, as its @font-face `font-style` declares it.
package enum FontFaceSlant: Sendable, Hashable {
  case normal
  case italic
  /// Degrees, clockwise; `oblique` alone is 14deg.
  case oblique(ClosedRange<Double>)
}

/// The matching descriptors of an @font-face rule.
package struct FontFaceDescriptors: Sendable, Hashable {
  /// 1…1000; one value is a range of one.
  package var weight: ClosedRange<Double> = 400...400
  package var slant: FontFaceSlant = .normal
  /// Percent of normal width (50…200).
  package var stretch: ClosedRange<Double> = 100...100
  /// The characters the face may draw; empty means all.
  package var unicodeRange: [ClosedRange<UInt32>] = []

  package init(
    weight: ClosedRange<Double> = 400...400, slant: FontFaceSlant = .normal,
    stretch: ClosedRange<Double> = 100...100, unicodeRange: [ClosedRange<UInt32>] = []
  ) {
    self.weight = weight
    self.slant = slant
    self.stretch = stretch
    self.unicodeRange = unicodeRange
  }

  /// Whether `unicode-range` lets the face draw `scalar`.
  package func covers(_ scalar: UInt32) -> Bool {
    unicodeRange.isEmpty || unicodeRange.contains { $0.contains(scalar) }
  }
}

/// One entry of an @font-face `src` list.
package enum FontFaceSource: Sendable, Hashable {
  /// A file in the book (href resolved inside the archive); `fragment` picks a face of a
  /// collection by index ("2") or by name.
  case url(href: String, fragment: String?)
  /// An installed face by its full or PostScript name.
  case local(String)
}

/// Parses @font-face descriptor values.
enum FontFaceDescriptorParser {
  static let maxSources = 8
  static let maxRanges = 64

  /// `format()` strings Quire opens (FreeType/HarfBuzz read sfnt, collections, WOFF, WOFF2;
  /// variable fonts draw their default instance).
  static let formats: Set<String> = [
    "woff", "woff2", "truetype", "opentype", "collection", "woff-variations",
    "woff2-variations", "truetype-variations", "opentype-variations",
  ]
  /// `tech()` keywords Quire supports: OpenType/AAT layout through HarfBuzz, variations (the
  /// default instance). Colour fonts, palettes, Graphite and incremental loading are not.
  static let techs: Set<String> = ["features-opentype", "features-aat", "variations"]

  static func sources(_ value: [CSSToken], baseHref: String) -> [FontFaceSource] {
    var out: [FontFaceSource] = []
    for entry in split(value, atComma: true) where out.count < maxSources {
      if let s = source(entry, baseHref: baseHref) { out.append(s) }
    }
    return out
  }

  /// One `src` entry, nil when it is malformed or its hints name something unsupported.
  private static func source(_ tokens: [CSSToken], baseHref: String) -> FontFaceSource? {
    var result: FontFaceSource?
    var i = 0
    while i < tokens.count {
      let t = tokens[i]
      let args = arguments(tokens, from: i)
      switch (t.kind, t.text.lowercased()) {
      case (.url, _): result = url(t.text, baseHref)
      case (.function, "url"):
        result = args.first { $0.kind == .string }.flatMap { url($0.text, baseHref) }
      case (.function, "local"):
        let name = args.filter { !$0.isWhitespace }.map(\.text).joined(separator: " ")
        result = name.isEmpty ? nil : .local(name)
      case (.function, "format"):
        let names = args.filter { $0.kind == .string || $0.kind == .ident }
        if !names.contains(where: { formats.contains($0.text.lowercased()) }) { return nil }
      case (.function, "tech"):
        let names = args.filter { $0.kind == .ident }
        if !names.allSatisfy({ techs.contains($0.text.lowercased()) }) { return nil }
      default: break
      }
      i = t.kind == .function ? i + args.count + 2 : i + 1
    }
    return result
  }

  private static func url(_ text: String, _ baseHref: String) -> FontFaceSource? {
    guard !text.isEmpty, !text.lowercased().hasPrefix("data:") else { return nil }
    let parts = text.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
    let path = String(parts[0])
    let fragment = parts.count > 1 ? String(parts[1]).removingPercentEncoding : nil
    guard !path.isEmpty else { return nil }
    return .url(href: PathResolver.resolve(path, against: baseHref), fragment: fragment)
  }

  /// The tokens between the function token at `i` and its closing parenthesis.
  private static func arguments(_ tokens: [CSSToken], from i: Int) -> [CSSToken] {
    guard tokens[i].kind == .function else { return [] }
    var depth = 0
    var j = i + 1
    while j < tokens.count {
      switch tokens[j].kind {
      case .function, .openParen: depth += 1
      case .closeParen:
        if depth == 0 { return Array(tokens[(i + 1)..<j]) }
        depth -= 1
      default: break
      }
      j += 1
    }
    return Array(tokens[(i + 1)...])
  }

  /// Top-level comma-separated parts of a value.
  static func split(_ value: [CSSToken], atComma: Bool) -> [[CSSToken]] {
    var parts: [[CSSToken]] = [[]]
    var depth = 0
    for t in value {
      switch t.kind {
      case .function, .openParen: depth += 1
      case .closeParen: depth = max(0, depth - 1)
      case .comma where depth == 0:
        parts.append([])
        continue
      default: break
      }
      parts[parts.count - 1].append(t)
    }
    return parts.filter { !$0.isEmpty }
  }

  /// `font-weight`: `normal`, `bold`, a number, or two of them (a range); `auto` is 400.
  static func weight(_ value: [CSSToken]) -> ClosedRange<Double>? {
    let values = value.filter { !$0.isWhitespace }.compactMap { t -> Double? in
      switch (t.kind, t.text.lowercased()) {
      case (.number, _): return min(1000, max(1, t.number))
      case (.ident, "normal"), (.ident, "auto"): return 400
      case (.ident, "bold"): return 700
      default: return nil
      }
    }
    return range(values)
  }

  /// `font-stretch`: keywords or percentages, one or a range.
  static func stretch(_ value: [CSSToken]) -> ClosedRange<Double>? {
    let keywords: [String: Double] = [
      "ultra-condensed": 50, "extra-condensed": 62.5, "condensed": 75, "semi-condensed": 87.5,
      "normal": 100, "auto": 100, "semi-expanded": 112.5, "expanded": 125,
      "extra-expanded": 150, "ultra-expanded": 200,
    ]
    let values = value.filter { !$0.isWhitespace }.compactMap { t -> Double? in
      if t.kind == .percentage, t.number > 0, t.number <= 1000 { return t.number }
      return t.kind == .ident ? keywords[t.text.lowercased()] : nil
    }
    return range(values)
  }

  /// `font-style`: normal | italic | oblique [<angle>{1,2}].
  static func slant(_ value: [CSSToken]) -> FontFaceSlant? {
    let tokens = value.filter { !$0.isWhitespace }
    guard let first = tokens.first, first.kind == .ident else { return nil }
    switch first.text.lowercased() {
    case "normal", "auto": return .normal
    case "italic": return .italic
    case "oblique":
      let angles = tokens.dropFirst().compactMap(degrees)
      if tokens.count > 1, angles.count != tokens.count - 1 { return nil }
      if angles.isEmpty { return .oblique(14...14) }
      return range(angles).map { .oblique($0) }
    default: return nil
    }
  }

  private static func degrees(_ t: CSSToken) -> Double? {
    guard t.kind == .dimension || (t.kind == .number && t.number == 0) else { return nil }
    let d: Double
    switch t.unit {
    case "deg", "": d = t.number
    case "rad": d = t.number * 180 / .pi
    case "grad": d = t.number * 0.9
    case "turn": d = t.number * 360
    default: return nil
    }
    return (-90...90).contains(d) ? d : nil
  }

  private static func range(_ values: [Double]) -> ClosedRange<Double>? {
    guard let a = values.first, values.count <= 2 else { return nil }
    let b = values.count == 2 ? values[1] : a
    return min(a, b)...max(a, b)
  }

  /// `unicode-range`: comma-separated U+hex, U+lo-hi and U+h?? ranges.
  static func unicodeRange(_ value: [CSSToken]) -> [ClosedRange<UInt32>] {
    var out: [ClosedRange<UInt32>] = []
    for part in split(value, atComma: true) where out.count < maxRanges {
      let text = part.filter { !$0.isWhitespace }.map { t -> String in
        switch t.kind {
        case .number, .percentage: return t.raw
        case .dimension: return t.raw
        default: return t.text
        }
      }.joined()
      if let r = urange(text) { out.append(r) }
    }
    return out
  }

  /// One `U+…` range from its source text; nil when malformed.
  static func urange(_ text: String) -> ClosedRange<UInt32>? {
    let upper = text.uppercased()
    guard upper.hasPrefix("U+") else { return nil }
    let body = upper.dropFirst(2)
    let ends = body.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
    func hex(_ s: Substring, wildcard: Bool) -> (lo: UInt32, hi: UInt32)? {
      let digits = s.prefix { $0 != "?" }
      let marks = s.count - digits.count
      guard s.count >= 1, s.count <= 6, s.dropFirst(digits.count).allSatisfy({ $0 == "?" }),
        wildcard || marks == 0, digits.allSatisfy(\.isHexDigit)
      else { return nil }
      let base = UInt32(digits.isEmpty ? "0" : String(digits), radix: 16) ?? 0
      let shift = UInt32(4 * marks)
      return (base << shift, (base << shift) | ((1 << shift) - 1))
    }
    if ends.count == 2 {
      guard let a = hex(ends[0], wildcard: false), let b = hex(ends[1], wildcard: false),
        a.lo <= b.lo
      else { return nil }
      return a.lo...min(b.lo, 0x10FFFF)
    }
    guard let r = hex(ends[0], wildcard: true), r.lo <= 0x10FFFF else { return nil }
    return r.lo...min(r.hi, 0x10FFFF)
  }
}
