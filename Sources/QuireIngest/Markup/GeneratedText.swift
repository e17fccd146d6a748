// Generated text: counters with CSS 2.1 §12.4 scoping, quotation marks with nesting depth,
// list markers (the `list-item` counter of CSS Lists 3) and the text of `content` values,
// as the builder walks the tree in document order.
//
// Counter scope: a counter instantiated by an element (`counter-reset`, or an increment or
// set of a counter not in scope) is visible to that element, its following siblings and all
// their descendants. The builder keeps, per open element, the names its children
// instantiated (`siblingScope`); when the element closes, those instances end. A sibling
// resetting a name a previous sibling instantiated replaces that instance's value (CSS
// Lists 3: "a new counter with the same name replaces it"). Order per element: reset,
// increment (list items increment `list-item` by 1, or −1 in a reversed list, unless
// `counter-increment` names it), set.
// `counter()`/`counters()` of a name not in scope show 0: CSS Lists 3 §4.5 instantiates it
// on the pseudo-element that uses it, and that instance's scope ends with the element, so no
// other element can see it and nothing is instantiated here (the cases in
// ImplicitCounterTests print as headless Chromium prints them).
//
// Locations: generated text is not book text. Its `TextRun`s carry `generated: true`, take
// the Location of the source character that follows them and advance no offset, so
// Locations, anchors and `Chapter.length` count the source alone (Document.swift).
//
// Bounds: at most `maxCounterNames` distinct names per chapter (more are ignored), values
// clamped to ±`CounterStyle.maxMagnitude`, quote depth capped, generated strings cut at
// `GeneratedLimits.maxGeneratedScalars`.

import Foundation

/// The counters in scope at the builder's current element.
struct CounterScopes {
  private struct Counter {
    var value: Int
    var reversed: Bool
  }
  /// Innermost instance last, per name.
  private var stacks: [String: [Counter]] = [:]
  private var names: Set<String> = []
  static let maxCounterNames = 1_000

  private static func clamp(_ v: Int) -> Int {
    max(-CounterStyle.maxMagnitude, min(CounterStyle.maxMagnitude, v))
  }

  /// Instantiates `name` in the scope of the current element's parent (`siblingScope`: the
  /// names its children instantiated so far).
  mutating func reset(
    _ name: String, to value: Int, reversed: Bool, siblingScope: inout Set<String>
  ) {
    let counter = Counter(value: Self.clamp(value), reversed: reversed)
    if siblingScope.contains(name), !(stacks[name]?.isEmpty ?? true) {
      stacks[name]![stacks[name]!.count - 1] = counter
      return
    }
    guard names.contains(name) || names.count < Self.maxCounterNames else { return }
    names.insert(name)
    stacks[name, default: []].append(counter)
    siblingScope.insert(name)
  }

  mutating func increment(_ name: String, by delta: Int, siblingScope: inout Set<String>) {
    if stacks[name]?.isEmpty ?? true {
      reset(name, to: 0, reversed: false, siblingScope: &siblingScope)
    }
    guard let top = stacks[name]?.indices.last else { return }
    stacks[name]![top].value = Self.clamp(stacks[name]![top].value + delta)
  }

  mutating func set(_ name: String, to value: Int, siblingScope: inout Set<String>) {
    guard let top = stacks[name]?.indices.last else {
      reset(name, to: value, reversed: false, siblingScope: &siblingScope)
      return
    }
    stacks[name]![top].value = Self.clamp(value)
  }

  /// The innermost instance's value (0 when none is in scope).
  func value(_ name: String) -> Int { stacks[name]?.last?.value ?? 0 }

  /// Whether the innermost instance counts down.
  func isReversed(_ name: String) -> Bool { stacks[name]?.last?.reversed ?? false }

  /// Every instance's value, outermost first.
  func values(_ name: String) -> [Int] { stacks[name]?.map(\.value) ?? [] }

  /// Ends the instances an element's children created (the element is closing).
  mutating func end(_ scope: Set<String>) {
    for name in scope {
      stacks[name]?.removeLast()
      if stacks[name]?.isEmpty == true { stacks[name] = nil }
    }
  }
}

/// Counters and quote depth through one chapter, and the text they generate.
struct GeneratedText {
  var counters = CounterScopes()
  private(set) var quoteDepth = 0
  static let maxQuoteDepth = 10_000

  /// Applies an element's counter properties in CSS Lists 3 order; `listItem` adds the
  /// automatic `list-item` increment. `itemCount` gives the items of a reversed list.
  mutating func applyCounters(
    _ g: GeneratedStyle, listItem: Bool, siblingScope: inout Set<String>,
    itemCount: () -> Int
  ) {
    for r in g.counterReset ?? [] {
      let value = r.countsItems ? itemCount() + 1 : r.value
      counters.reset(r.name, to: value, reversed: r.reversed, siblingScope: &siblingScope)
    }
    let increments = g.counterIncrement ?? []
    for i in increments { counters.increment(i.name, by: i.value, siblingScope: &siblingScope) }
    if listItem, !increments.contains(where: { $0.name == "list-item" }) {
      let delta = counters.isReversed("list-item") ? -1 : 1
      counters.increment("list-item", by: delta, siblingScope: &siblingScope)
    }
    for s in g.counterSet ?? [] {
      counters.set(s.name, to: s.value, siblingScope: &siblingScope)
    }
  }

  /// The text of a `content` value for an element with attributes `node`, quotation marks
  /// `quotes` (nil: by `lang`).
  mutating func text(
    _ items: [ContentItem], node: MarkupNode, quotes: [QuotePair]?, lang: String?
  ) -> String {
    var out = ""
    for item in items {
      switch item {
      case .string(let s): out += s
      case .attr(let name): out += node.attribute(name) ?? ""
      case .counter(let name, let style): out += style.text(counters.value(name))
      case .counters(let name, let separator, let style):
        let values = counters.values(name)
        out += (values.isEmpty ? [0] : values).map(style.text).joined(separator: separator)
      case .openQuote, .noOpenQuote:
        let marks = quotes ?? QuoteMarks.forLanguage(lang)
        if item == .openQuote, !marks.isEmpty {
          out += marks[min(quoteDepth, marks.count - 1)].open
        }
        quoteDepth = min(Self.maxQuoteDepth, quoteDepth + 1)
      case .closeQuote, .noCloseQuote:
        guard quoteDepth > 0 else { continue }
        quoteDepth -= 1
        let marks = quotes ?? QuoteMarks.forLanguage(lang)
        if item == .closeQuote, !marks.isEmpty {
          out += marks[min(quoteDepth, marks.count - 1)].close
        }
      }
      if out.unicodeScalars.count > GeneratedLimits.maxGeneratedScalars { break }
    }
    return String(
      String.UnicodeScalarView(out.unicodeScalars.prefix(GeneratedLimits.maxGeneratedScalars)))
  }

  /// A list item's marker from the `list-item` counter: "3. " (inside) or "3." (outside,
  /// where the typesetter sets its own gap).
  func marker(_ style: CounterStyle, inside: Bool) -> String {
    let m = style.marker(counters.value("list-item"))
    guard !inside else { return m }
    var trimmed = Substring(m)
    while trimmed.last?.isWhitespace == true { trimmed.removeLast() }
    return String(trimmed)
  }
}

/// Quotation marks by language (`quotes: auto`), outer pair first: CLDR's delimiters for
/// the languages books are written in, English marks otherwise.
enum QuoteMarks {
  static func forLanguage(_ lang: String?) -> [QuotePair] {
    let tag = (lang ?? "en").lowercased()
    let primary = String(tag.prefix { $0 != "-" && $0 != "_" })
    func pairs(_ a: String, _ b: String, _ c: String, _ d: String) -> [QuotePair] {
      [QuotePair(open: a, close: b), QuotePair(open: c, close: d)]
    }
    switch primary {
    case "de", "cs", "sk", "sl", "hr", "lt", "et", "is", "ka":
      return pairs("„", "“", "‚", "‘")
    case "fr": return pairs("«\u{A0}", "\u{A0}»", "“", "”")
    case "ru", "uk", "be", "bg": return pairs("«", "»", "„", "“")
    case "es", "it", "el", "ca", "eu", "nb", "no", "nn": return pairs("«", "»", "“", "”")
    case "pt":
      return tag.hasPrefix("pt-pt") ? pairs("«", "»", "“", "”") : pairs("“", "”", "‘", "’")
    case "pl", "ro", "hu": return pairs("„", "”", "«", "»")
    case "sv", "fi": return pairs("”", "”", "’", "’")
    case "ja": return pairs("「", "」", "『", "』")
    case "zh":
      let traditional = ["zh-tw", "zh-hk", "zh-mo", "zh-hant"].contains { tag.hasPrefix($0) }
      return traditional ? pairs("「", "」", "『", "』") : pairs("“", "”", "‘", "’")
    case "he": return pairs("”", "”", "’", "’")
    case "ar", "fa": return pairs("«", "»", "“", "”")
    default: return pairs("“", "”", "‘", "’")
    }
  }
}

/// The `::first-letter` of a block's first text (CSS Pseudo 4 §2.1): punctuation before,
/// the first letter or digit, and punctuation right after it.
enum FirstLetter {
  static let maxPunctuation = 8

  /// `text` as (leading white space, the letter unit, the rest); nil when it starts with
  /// no letter or digit after at most `maxPunctuation` punctuation characters.
  static func split(_ text: String) -> (lead: String, letter: String, rest: String)? {
    var i = text.startIndex
    while i < text.endIndex, text[i].isWhitespace { i = text.index(after: i) }
    let start = i
    var marks = 0
    while i < text.endIndex, text[i].isPunctuation, marks < maxPunctuation {
      i = text.index(after: i)
      marks += 1
    }
    guard i < text.endIndex, text[i].isLetter || text[i].isNumber else { return nil }
    i = text.index(after: i)
    marks = 0
    while i < text.endIndex, text[i].isPunctuation, marks < maxPunctuation,
      !"([{«‹“‘„‚¿¡".contains(text[i])
    {
      i = text.index(after: i)
      marks += 1
    }
    return (String(text[..<start]), String(text[start..<i]), String(text[i...]))
  }
}
