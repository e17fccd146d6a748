// CSS rules, declarations and selectors from tokens. Error recovery follows CSS Syntax:
// a bad declaration is skipped to the next `;`, a rule with no valid selector is dropped,
// unknown at-rules are skipped with their block. Nothing here is ever fatal.
//
// Bounds: `maxSheetBytes` per sheet (larger sheets are cut, with a warning), `maxRules`
// per sheet, `maxCompounds` per selector, `maxSelectorsPerRule`, `maxNesting` for nested
// at-rule blocks, `maxImportDepth` for @import chains (cycles are cut by a visited set).

import Foundation
import QuireCore

enum CSSLimits {
  static let maxSheetBytes = 2 << 20
  static let maxRules = 50_000
  static let maxCompounds = 32
  static let maxSelectorsPerRule = 256
  static let maxNesting = 16
  static let maxImportDepth = 8
  static let maxSheets = 64
}

struct CSSDeclaration: Sendable, Hashable {
  var name: String
  var value: [CSSToken]
  var important: Bool
}

enum AttributeMatch: Sendable, Hashable {
  case exists
  case equals(String)
  case includes(String)  // ~=
  case dashMatch(String)  // |=
  case prefix(String)
  case suffix(String)
  case substring(String)
}

struct CompoundSelector: Sendable, Hashable {
  var tag: String? = nil
  var ids: [String] = []
  var classes: [String] = []
  /// `[name op value]`; `ignoreCase` is the ` i` flag (ASCII case-insensitive values).
  var attributes: [(name: String, match: AttributeMatch, ignoreCase: Bool)] = []
  var firstChild = false
  var lastChild = false
  /// Pseudo-elements and pseudo-classes we do not evaluate: the selector never matches.
  var neverMatches = false
  /// Pseudo-classes other than :first-child/:last-child (SelectorPseudo.swift).
  var pseudoClasses: [PseudoClass] = []
  /// The pseudo-element this compound selects; only ever set on a selector's last compound.
  var pseudoElement: PseudoElement? = nil

  static func == (a: CompoundSelector, b: CompoundSelector) -> Bool {
    a.tag == b.tag && a.ids == b.ids && a.classes == b.classes && a.firstChild == b.firstChild
      && a.lastChild == b.lastChild && a.neverMatches == b.neverMatches
      && a.attributes.map(\.name) == b.attributes.map(\.name)
      && a.attributes.map(\.match) == b.attributes.map(\.match)
      && a.attributes.map(\.ignoreCase) == b.attributes.map(\.ignoreCase)
      && a.pseudoClasses == b.pseudoClasses && a.pseudoElement == b.pseudoElement
  }
  func hash(into h: inout Hasher) {
    h.combine(tag)
    h.combine(ids)
    h.combine(classes)
  }
}

enum Combinator: Sendable, Hashable { case descendant, child, adjacent, sibling }

struct Selector: Sendable, Hashable {
  /// Left to right; `combinators[i]` joins `compounds[i]` and `compounds[i + 1]`.
  var compounds: [CompoundSelector]
  var combinators: [Combinator]
  var specificity: Int {
    var a = 0
    var b = 0
    var c = 0
    for s in compounds {
      a += s.ids.count
      b += s.classes.count + s.attributes.count + (s.firstChild ? 1 : 0) + (s.lastChild ? 1 : 0)
      c += (s.tag == nil ? 0 : 1) + (s.pseudoElement == nil ? 0 : 1)
    }
    return a * 10_000 + b * 100 + c + compounds.reduce(0) { $0 + $1.pseudoClassSpecificity }
  }
}

struct StyleRule: Sendable {
  var selectors: [Selector]
  var declarations: [CSSDeclaration]
}

struct StyleSheet: Sendable {
  var rules: [StyleRule] = []
  var fontFaces: [FontFaceRule] = []
  var warnings: [String] = []
}

/// Loads and parses style sheets, following @import inside the archive.
struct StyleSheetLoader {
  var loadResource: @Sendable (String) -> Data?
  var viewport = MediaViewport()
  var visited: Set<String> = []
  var sheetsLoaded = 0

  /// Parses a sheet whose relative URLs resolve against `baseHref` (the sheet's own href,
  /// or the chapter's for <style>).
  mutating func parse(
    _ text: String, baseHref: String, depth: Int = 0, into sheet: inout StyleSheet
  ) {
    var text = text
    if text.utf8.count > CSSLimits.maxSheetBytes {
      sheet.warnings.append(
        "\(QuotedInput.elided(baseHref)): style sheet larger than \(CSSLimits.maxSheetBytes) bytes was cut"
      )
      text = String(decoding: text.utf8.prefix(CSSLimits.maxSheetBytes), as: UTF8.self)
    }
    let tokens = CSSTokenizer.tokenize(text)
    var parser = CSSRuleParser(tokens: tokens, viewport: viewport)
    parser.parseRules(0, tokens.count, nesting: 0) { event in
      switch event {
      case .rule(var rule):
        rule.declarations = CSSURL.resolving(rule.declarations, against: baseHref)
        if sheet.rules.count < CSSLimits.maxRules { sheet.rules.append(rule) }
      case .fontFace(let decls):
        if let face = Self.fontFace(decls, baseHref: baseHref) { sheet.fontFaces.append(face) }
      case .importURL(let url):
        load(href: PathResolver.resolve(url, against: baseHref), depth: depth + 1, into: &sheet)
      }
    }
  }

  mutating func load(href: String, depth: Int, into sheet: inout StyleSheet) {
    guard depth <= CSSLimits.maxImportDepth else {
      sheet.warnings.append(
        "\(QuotedInput.elided(href)): @import nested deeper than \(CSSLimits.maxImportDepth) ignored"
      )
      return
    }
    guard !visited.contains(href) else { return }  // cycle, or already applied
    guard sheetsLoaded < CSSLimits.maxSheets else { return }
    visited.insert(href)
    sheetsLoaded += 1
    guard let data = loadResource(href) else {
      sheet.warnings.append("\(QuotedInput.elided(href)): style sheet not found")
      return
    }
    parse(decodeCSS(data), baseHref: href, depth: depth, into: &sheet)
  }

  func decodeCSS(_ data: Data) -> String {
    var bytes = data
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
    return String(decoding: bytes, as: UTF8.self)
  }

  static func fontFace(_ decls: [CSSDeclaration], baseHref: String) -> FontFaceRule? {
    var family: String?
    var descriptors = FontFaceDescriptors()
    var sources: [FontFaceSource] = []
    typealias P = FontFaceDescriptorParser
    for d in decls {
      switch d.name {
      case "font-family":
        let value = d.value.filter { !$0.isWhitespace }
        family = value.first.map {
          $0.kind == .string
            ? $0.text : d.value.map(\.text).joined().trimmingCharacters(in: .whitespaces)
        }
      case "font-weight": descriptors.weight = P.weight(d.value) ?? descriptors.weight
      case "font-style": descriptors.slant = P.slant(d.value) ?? descriptors.slant
      case "font-stretch": descriptors.stretch = P.stretch(d.value) ?? descriptors.stretch
      case "unicode-range": descriptors.unicodeRange = P.unicodeRange(d.value)
      case "src": sources = P.sources(d.value, baseHref: baseHref)
      default: break
      }
    }
    guard let family, !family.isEmpty, !sources.isEmpty else { return nil }
    return FontFaceRule(family: family, descriptors: descriptors, sources: sources)
  }
}

enum CSSRuleEvent {
  case rule(StyleRule)
  case fontFace([CSSDeclaration])
  case importURL(String)
}

struct CSSRuleParser {
  let tokens: [CSSToken]
  var viewport = MediaViewport()

  /// Index just past the block that opens at `open` (an open bracket), or `end`.
  func blockEnd(_ open: Int, _ end: Int) -> Int {
    var depth = 0
    var i = open
    while i < end {
      switch tokens[i].kind {
      case .openCurly, .openSquare, .openParen, .function: depth += 1
      case .closeCurly, .closeSquare, .closeParen:
        depth -= 1
        if depth == 0 { return i + 1 }
      default: break
      }
      i += 1
    }
    return end
  }

  mutating func parseRules(_ start: Int, _ end: Int, nesting: Int, emit: (CSSRuleEvent) -> Void) {
    var i = start
    while i < end {
      let t = tokens[i]
      switch t.kind {
      case .whitespace, .cdo, .cdc, .semicolon:
        i += 1
      case .atKeyword:
        // Prelude up to ';' or a {block}.
        var j = i + 1
        while j < end, tokens[j].kind != .semicolon, tokens[j].kind != .openCurly {
          if [.function, .openParen, .openSquare].contains(tokens[j].kind) {
            j = blockEnd(j, end)
          } else {
            j += 1
          }
        }
        let prelude = Array(tokens[(i + 1)..<min(j, end)])
        if j < end, tokens[j].kind == .openCurly {
          let close = blockEnd(j, end)
          let inner = (j + 1, max(j + 1, close - 1))
          switch t.text {
          case "media":
            if nesting < CSSLimits.maxNesting, Self.mediaApplies(prelude, viewport: viewport) {
              parseRules(inner.0, inner.1, nesting: nesting + 1, emit: emit)
            }
          case "supports":
            // Feature queries: assume supported (publishers use them for progressive
            // enhancement whose fallback we would equally get wrong).
            if nesting < CSSLimits.maxNesting {
              parseRules(inner.0, inner.1, nesting: nesting + 1, emit: emit)
            }
          case "font-face":
            emit(.fontFace(parseDeclarations(inner.0, inner.1)))
          default: break  // @page, @keyframes, @namespace blocks…
          }
          i = close
        } else {
          if t.text == "import" {
            let meaningful = prelude.filter { !$0.isWhitespace }
            var url: String?
            var rest: [CSSToken] = []
            if let first = meaningful.first {
              if first.kind == .url || first.kind == .string {
                url = first.text
                rest = Array(meaningful.dropFirst())
              } else if first.kind == .function, first.text == "url", meaningful.count > 1,
                meaningful[1].kind == .string
              {
                url = meaningful[1].text
                rest = Array(meaningful.dropFirst(3))
              }
            }
            if let url, rest.isEmpty || Self.mediaApplies(rest, viewport: viewport) {
              emit(.importURL(url))
            }
          }
          i = j + 1
        }
      default:
        // Qualified rule: prelude up to '{'.
        var j = i
        while j < end, tokens[j].kind != .openCurly {
          if [.function, .openParen, .openSquare].contains(tokens[j].kind) {
            j = blockEnd(j, end)
          } else {
            j += 1
          }
        }
        guard j < end else { return }
        let close = blockEnd(j, end)
        let selectors = SelectorParser.parseList(Array(tokens[i..<j]))
        if !selectors.isEmpty {
          let decls = parseDeclarations(j + 1, max(j + 1, close - 1))
          if !decls.isEmpty { emit(.rule(StyleRule(selectors: selectors, declarations: decls))) }
        }
        i = close
      }
    }
  }

  /// Media queries (Media Queries 3) against the reader's page: a list applies when one of
  /// its queries does. A query is an optional `only`/`not`, a media type (`all` and `screen`
  /// match; `print`, `speech` and vendor types do not) and `and (feature: value)` terms:
  /// orientation, (min-|max-)width/height and aspect-ratio in px against `viewport`, and
  /// `color`/`monochrome`/`grid`/`scan`-style features answered for a colour screen.
  /// An unknown feature makes its query false, as in browsers.
  static func mediaApplies(_ prelude: [CSSToken], viewport: MediaViewport = MediaViewport()) -> Bool
  {
    let parts = prelude.split(whereSeparator: { $0.kind == .comma })
    if parts.isEmpty { return true }
    for part in parts where queryApplies(Array(part), viewport) { return true }
    return false
  }

  private static func queryApplies(_ tokens: [CSSToken], _ viewport: MediaViewport) -> Bool {
    var words = tokens.filter { !$0.isWhitespace }
    if words.isEmpty { return true }
    var negate = false
    if let f = words.first, f.kind == .ident {
      switch f.text.lowercased() {
      case "only": words.removeFirst()
      case "not":
        negate = true
        words.removeFirst()
      default: break
      }
    }
    var ok = true
    var i = 0
    if i < words.count, words[i].kind == .ident, words[i].text.lowercased() != "and" {
      let type = words[i].text.lowercased()
      ok = type == "all" || type == "screen"
      i += 1
    }
    while i < words.count, ok {
      let w = words[i]
      if w.kind == .ident, w.text.lowercased() == "and" {
        i += 1
        continue
      }
      guard w.kind == .openParen else { return false }  // malformed: "not all"
      var close = i + 1
      while close < words.count, words[close].kind != .closeParen { close += 1 }
      ok = featureApplies(Array(words[(i + 1)..<min(close, words.count)]), viewport)
      i = close + 1
    }
    return ok != negate
  }

  private static func featureApplies(_ t: [CSSToken], _ v: MediaViewport) -> Bool {
    guard let nameToken = t.first, nameToken.kind == .ident else { return false }
    let name = nameToken.text.lowercased()
    let value = t.count >= 3 && t[1].kind == .colon ? Array(t[2...]) : []
    func length() -> Double? {
      guard let first = value.first, first.kind == .number || first.kind == .dimension else {
        return nil
      }
      let n = first.number
      switch first.kind == .number ? "" : first.unit {
      case "", "px": return n
      case "em", "rem": return n * 16
      case "pt": return n * 4 / 3
      case "in": return n * 96
      case "cm": return n * 96 / 2.54
      case "mm": return n * 96 / 25.4
      default: return nil
      }
    }
    let w = Double(v.width)
    let h = Double(v.height)
    switch name {
    case "orientation":
      let o = value.first?.text.lowercased()
      return o == (h >= w ? "portrait" : "landscape")
    case "width", "device-width": return length().map { abs($0 - w) < 0.5 } ?? false
    case "height", "device-height": return length().map { abs($0 - h) < 0.5 } ?? false
    case "min-width", "min-device-width": return length().map { w >= $0 } ?? false
    case "max-width", "max-device-width": return length().map { w <= $0 } ?? false
    case "min-height", "min-device-height": return length().map { h >= $0 } ?? false
    case "max-height", "max-device-height": return length().map { h <= $0 } ?? false
    case "color": return true
    case "monochrome", "grid": return value.first?.text == "0"
    case "prefers-color-scheme": return value.first?.text.lowercased() == "light"
    default: return false
    }
  }

  func parseDeclarations(_ start: Int, _ end: Int) -> [CSSDeclaration] {
    var out: [CSSDeclaration] = []
    var i = start
    while i < end {
      // One declaration: up to the next top-level ';'.
      var j = i
      while j < end, tokens[j].kind != .semicolon {
        if [.function, .openParen, .openSquare, .openCurly].contains(tokens[j].kind) {
          j = blockEnd(j, end)
        } else {
          j += 1
        }
      }
      var parts = Array(tokens[i..<min(j, end)])
      i = j + 1
      while let f = parts.first, f.isWhitespace { parts.removeFirst() }
      guard parts.count >= 2, parts[0].kind == .ident else { continue }
      var k = 1
      while k < parts.count, parts[k].isWhitespace { k += 1 }
      guard k < parts.count, parts[k].kind == .colon else { continue }
      var value = Array(parts[(k + 1)...])
      while let l = value.last, l.isWhitespace { value.removeLast() }
      var important = false
      if let l = value.last, l.kind == .ident, l.text.lowercased() == "important" {
        var m = value.count - 2
        while m >= 0, value[m].isWhitespace { m -= 1 }
        if m >= 0, value[m].kind == .delim, value[m].text == "!" {
          important = true
          value.removeSubrange(m...)
          while let l = value.last, l.isWhitespace { value.removeLast() }
        }
      }
      while let f = value.first, f.isWhitespace { value.removeFirst() }
      guard !value.isEmpty else { continue }
      out.append(
        CSSDeclaration(name: parts[0].text.lowercased(), value: value, important: important))
      if out.count > 1_000 { break }
    }
    return out
  }

  /// A `style` attribute's declarations.
  /// The declarations of a `style` attribute; relative URLs resolve against `baseHref`
  /// (the document's href).
  static func styleAttribute(_ text: String, baseHref: String) -> [CSSDeclaration] {
    let tokens = CSSTokenizer.tokenize(String(text.prefix(64 * 1024)))
    return CSSURL.resolving(
      CSSRuleParser(tokens: tokens).parseDeclarations(0, tokens.count), against: baseHref)
  }
}

enum SelectorParser {
  /// Parses a selector list; invalid selectors are dropped (a lenient reading of the rule
  /// that an invalid list drops the whole rule, which keeps more of a sloppy sheet).
  static func parseList(_ tokens: [CSSToken], depth: Int = 0) -> [Selector] {
    var out: [Selector] = []
    for part in splitTopLevel(tokens) {
      if out.count >= CSSLimits.maxSelectorsPerRule { break }
      if let s = parse(part, depth: depth) { out.append(s) }
    }
    return out
  }

  /// `tokens` split at the commas outside parentheses (`:is(a, b), c` is two selectors).
  static func splitTopLevel(_ tokens: [CSSToken]) -> [[CSSToken]] {
    var parts: [[CSSToken]] = [[]]
    var depth = 0
    for t in tokens {
      switch t.kind {
      case .function, .openParen, .openSquare: depth += 1
      case .closeParen, .closeSquare: depth = max(0, depth - 1)
      case .comma where depth == 0:
        parts.append([])
        continue
      default: break
      }
      parts[parts.count - 1].append(t)
    }
    return parts
  }

  /// One complex selector; `depth` counts the :not()/:is()/:where() around it.
  static func parse(_ tokens: [CSSToken], depth: Int = 0) -> Selector? {
    var compounds: [CompoundSelector] = []
    var combinators: [Combinator] = []
    var current = CompoundSelector()
    var hasCurrent = false
    var pending: Combinator? = nil
    var i = 0
    let n = tokens.count

    func startCompound() -> Bool {
      if !hasCurrent {
        if !compounds.isEmpty {
          combinators.append(pending ?? .descendant)
        } else if pending != nil && pending != .descendant {
          return false  // leading '>'
        }
        pending = nil
        hasCurrent = true
      }
      return true
    }
    func finishCompound() {
      if hasCurrent {
        compounds.append(current)
        current = CompoundSelector()
        hasCurrent = false
      }
    }

    while i < n {
      let t = tokens[i]
      // Nothing but white space may follow a pseudo-element.
      if current.pseudoElement != nil || compounds.last?.pseudoElement != nil, !t.isWhitespace {
        return nil
      }
      switch t.kind {
      case .whitespace:
        finishCompound()
        if pending == nil, !compounds.isEmpty { pending = .descendant }
        i += 1
      case .delim where [">", "+", "~"].contains(t.text):
        finishCompound()
        guard !compounds.isEmpty, pending == nil || pending == .descendant else { return nil }
        pending = t.text == ">" ? .child : t.text == "+" ? .adjacent : .sibling
        i += 1
      case .ident:
        guard !hasCurrent || current.tag == nil, current.classes.isEmpty, current.ids.isEmpty else {
          return nil
        }
        guard startCompound() else { return nil }
        // Namespaced type selectors (`svg|text`) keep only the local name.
        if i + 2 < n, tokens[i + 1].kind == .delim, tokens[i + 1].text == "|",
          tokens[i + 2].kind == .ident
        {
          current.tag = tokens[i + 2].text.lowercased()
          i += 3
        } else {
          current.tag = t.text.lowercased()
          i += 1
        }
      case .delim where t.text == "*":
        guard startCompound() else { return nil }
        i += 1
        if i + 1 < n, tokens[i].kind == .delim, tokens[i].text == "|" { i += 1 }
      case .hash:
        guard startCompound() else { return nil }
        current.ids.append(t.text)
        i += 1
      case .delim where t.text == ".":
        guard i + 1 < n, tokens[i + 1].kind == .ident, startCompound() else { return nil }
        current.classes.append(tokens[i + 1].text)
        i += 2
      case .openSquare:
        guard startCompound() else { return nil }
        var j = i + 1
        var inner: [CSSToken] = []
        while j < n, tokens[j].kind != .closeSquare {
          if !tokens[j].isWhitespace { inner.append(tokens[j]) }
          j += 1
        }
        guard j < n, let test = attributeTest(inner) else { return nil }
        current.attributes.append(test)
        i = j + 1
      case .colon:
        guard startCompound(), let next = parsePseudo(tokens, i, into: &current, depth: depth)
        else { return nil }
        i = next
      default:
        return nil
      }
      if compounds.count + (hasCurrent ? 1 : 0) > CSSLimits.maxCompounds { return nil }
    }
    finishCompound()
    guard !compounds.isEmpty, combinators.count == compounds.count - 1 else { return nil }
    if let p = pending, p != .descendant { return nil }  // trailing combinator
    return Selector(compounds: compounds, combinators: combinators)
  }

  static func attributeTest(_ t: [CSSToken]) -> (
    name: String, match: AttributeMatch, ignoreCase: Bool
  )? {
    var t = t
    var ignoreCase = false
    // The ` i`/` s` flag after the value (white space is already filtered out).
    if t.count >= 3, let f = t.last, f.kind == .ident, ["i", "s"].contains(f.text.lowercased()),
      [.ident, .string].contains(t[t.count - 2].kind)
    {
      ignoreCase = f.text.lowercased() == "i"
      t.removeLast()
    }
    guard let first = t.first else { return nil }
    var i = 0
    var name: String
    if first.kind == .delim, first.text == "|" || first.text == "*", t.count > 2,
      t[1].kind == .delim, t[1].text == "|"
    {
      return nil
    }
    guard first.kind == .ident else { return nil }
    name = first.text.lowercased()
    i = 1
    if i + 1 < t.count, t[i].kind == .delim, t[i].text == "|", t[i + 1].kind == .ident {
      // [epub|type]: our attribute names carry the document's prefix, which is "epub" in
      // every real book; match the conventional prefix.
      name = name + ":" + t[i + 1].text.lowercased()
      i += 2
    }
    if i == t.count { return (name, .exists, false) }
    var op = ""
    if t[i].kind == .delim, t[i].text == "=" {
      op = "="
      i += 1
    } else if i + 1 < t.count, t[i].kind == .delim, t[i + 1].kind == .delim, t[i + 1].text == "=" {
      op = t[i].text + "="
      i += 2
    } else {
      return nil
    }
    guard i < t.count, t[i].kind == .ident || t[i].kind == .string else { return nil }
    guard i == t.count - 1 else { return nil }
    let v = ignoreCase ? t[i].text.lowercased() : t[i].text
    let match: AttributeMatch
    switch op {
    case "=": match = .equals(v)
    case "~=": match = .includes(v)
    case "|=": match = .dashMatch(v)
    case "^=": match = .prefix(v)
    case "$=": match = .suffix(v)
    case "*=": match = .substring(v)
    default: return nil
    }
    return (name, match, ignoreCase)
  }
}

/// Resolves hrefs inside the archive: relative to a base file, percent-decoded, `.` and `..`
/// removed, never escaping the archive root. Absolute URLs (with a scheme) are returned as is.
///
/// ASCII hrefs and bases without a percent sign (nearly all) take the same steps on their
/// UTF-8 bytes: there every byte is a character (a CR LF pair fails the scheme test either
/// way), the trimmed white space is U+0009…U+000D and U+0020, and nothing is decoded. The
/// general path bridges to NSString and walks graphemes, ~70 K instructions a call.
package enum PathResolver {
  package static func resolve(_ href: String, against base: String) -> String {
    resolveASCII(href, against: base) ?? resolveGraphemes(href, against: base)
  }

  /// `resolve` for any href, on characters (the reference the ASCII path must agree with).
  static func resolveGraphemes(_ href: String, against base: String) -> String {
    var ref = href.trimmingCharacters(in: .whitespacesAndNewlines)
    var fragment = ""
    if let hashIdx = ref.firstIndex(of: "#") {
      fragment = String(ref[hashIdx...])
      ref = String(ref[..<hashIdx])
    }
    if let colon = ref.firstIndex(of: ":"),
      ref[..<colon].allSatisfy({ $0.isLetter || $0.isNumber || "+-.".contains($0) }),
      ref[..<colon].count > 1
    {
      return href  // http:, mailto:, data: …
    }
    if let q = ref.firstIndex(of: "?") { ref = String(ref[..<q]) }
    let decoded = ref.removingPercentEncoding ?? ref
    if decoded.isEmpty { return base + fragment }
    var parts: [Substring]
    if decoded.hasPrefix("/") {
      parts = []
    } else {
      parts = base.split(separator: "/", omittingEmptySubsequences: false)
      parts.removeLast()  // the base file's own name
    }
    for seg in decoded.split(separator: "/", omittingEmptySubsequences: true) {
      if seg == "." { continue }
      if seg == ".." {
        if !parts.isEmpty { parts.removeLast() }
        continue
      }
      parts.append(seg)
    }
    return parts.filter { !$0.isEmpty }.joined(separator: "/") + fragment
  }

  /// `resolve` on bytes, for an ASCII `href` without `%` and an ASCII `base`; nil otherwise.
  private static func resolveASCII(_ href: String, against base: String) -> String? {
    let percent = UInt8(ascii: "%")
    guard href.utf8.allSatisfy({ $0 < 0x80 && $0 != percent }),
      base.utf8.allSatisfy({ $0 < 0x80 })
    else { return nil }
    let bytes = Array(href.utf8)
    func isSpace(_ c: UInt8) -> Bool { c == 0x20 || (0x09...0x0D).contains(c) }
    var lo = 0
    var hi = bytes.count
    while lo < hi, isSpace(bytes[lo]) { lo += 1 }
    while hi > lo, isSpace(bytes[hi - 1]) { hi -= 1 }
    var ref = bytes[lo..<hi]
    var fragment = ""
    if let hash = ref.firstIndex(of: UInt8(ascii: "#")) {
      fragment = String(decoding: ref[hash...], as: UTF8.self)
      ref = ref[..<hash]
    }
    func isSchemeByte(_ c: UInt8) -> Bool {
      switch c {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "-"),
        UInt8(ascii: "."):
        return true
      default: return false
      }
    }
    if let colon = ref.firstIndex(of: UInt8(ascii: ":")), ref[..<colon].allSatisfy(isSchemeByte),
      colon - ref.startIndex > 1
    {
      return href  // http:, mailto:, data: …
    }
    if let q = ref.firstIndex(of: UInt8(ascii: "?")) { ref = ref[..<q] }
    if ref.isEmpty { return base + fragment }
    let slash = UInt8(ascii: "/")
    var parts: [ArraySlice<UInt8>]
    if ref.first == slash {
      parts = []
    } else {
      parts = Array(base.utf8).split(separator: slash, omittingEmptySubsequences: false)
      parts.removeLast()  // the base file's own name
    }
    let dot = UInt8(ascii: ".")
    for seg in ref.split(separator: slash, omittingEmptySubsequences: true) {
      if seg.elementsEqual([dot]) { continue }
      if seg.elementsEqual([dot, dot]) {
        if !parts.isEmpty { parts.removeLast() }
        continue
      }
      parts.append(seg)
    }
    var out: [UInt8] = []
    for part in parts where !part.isEmpty {
      if !out.isEmpty { out.append(slash) }
      out.append(contentsOf: part)
    }
    return String(decoding: out, as: UTF8.self) + fragment
  }
}
