// Generated content properties (CSS 2.1 §12, CSS Lists 3, CSS Generated Content 3): what
// the cascade computes for `content`, `counter-reset`/`-increment`/`-set`, `quotes` and
// `list-style-*`. The builder turns them into text (Markup/GeneratedText.swift).
//
// Values are parsed once per declaration into small enums; every list is capped
// (`GeneratedLimits`), so a hostile `content` or `counter-reset` costs a bounded amount per
// element. `content` only acts on ::before, ::after and ::marker; `quotes: auto` (the
// initial value) means "marks for the element's language", looked up when a quote is
// generated, which is what Chromium does.

/// One item of a `content` value.
enum ContentItem: Sendable, Hashable {
  case string(String)
  /// `attr(name)`: the element's attribute, lower-cased name.
  case attr(String)
  case counter(name: String, style: CounterStyle)
  case counters(name: String, separator: String, style: CounterStyle)
  case openQuote, closeQuote, noOpenQuote, noCloseQuote
}

/// A `content` value: `normal` and `none` generate no box.
enum ContentValue: Sendable, Hashable {
  case normal, none
  case items([ContentItem])
}

/// One name of `counter-reset`, `counter-increment` or `counter-set`.
struct CounterChange: Sendable, Hashable {
  var name: String
  var value: Int
  /// `counter-reset: reversed(name)`: counts down (CSS Lists 3).
  var reversed = false
  /// A reversed reset without an integer: the builder starts from the number of items.
  var countsItems = false
}

/// An opening and a closing quotation mark.
struct QuotePair: Sendable, Hashable {
  var open: String
  var close: String
}

enum GeneratedLimits {
  /// Items of one `content` value, names of one counter property, pairs of `quotes`.
  static let maxItems = 32
  /// Scalars of one generated string (a `counters()` over 200 levels is still short).
  static let maxGeneratedScalars = 1_024
}

/// The generated-content part of an element's computed style.
struct GeneratedStyle: Sendable, Equatable {
  var content: ContentValue = .normal
  /// nil when not declared (`none` is the empty list).
  var counterReset: [CounterChange]? = nil
  var counterIncrement: [CounterChange]? = nil
  var counterSet: [CounterChange]? = nil
  /// nil for `auto` (marks by language); inherited.
  var quotes: [QuotePair]? = nil
  /// `list-style-position: inside`; inherited.
  var markerInside = false

  /// What a child inherits.
  var inherited: GeneratedStyle {
    var g = GeneratedStyle()
    g.quotes = quotes
    g.markerInside = markerInside
    return g
  }
}

extension StyleComputer {
  /// Applies a generated-content or list-style declaration; false when `d` is none of them.
  @discardableResult
  static func applyGenerated(_ d: CSSDeclaration, _ s: inout ElementStyle) -> Bool {
    let v = d.value.filter { !$0.isWhitespace }
    let k = keyword(v)
    switch d.name {
    case "content":
      if k == "normal" || k == "initial" {
        s.generated.content = .normal
      } else if k == "none" {
        s.generated.content = ContentValue.none
      } else if let items = contentItems(d.value) {
        s.generated.content = .items(items)
      }
    case "counter-reset": s.generated.counterReset = counterChanges(v, default: 0) ?? []
    case "counter-increment": s.generated.counterIncrement = counterChanges(v, default: 1) ?? []
    case "counter-set": s.generated.counterSet = counterChanges(v, default: 0) ?? []
    case "quotes":
      if k == "auto" || k == "initial" {
        s.generated.quotes = nil
      } else if k == "none" {
        s.generated.quotes = []
      } else if v.count % 2 == 0, v.allSatisfy({ $0.kind == .string }) {
        s.generated.quotes = stride(from: 0, to: min(v.count, 2 * GeneratedLimits.maxItems), by: 2)
          .map { QuotePair(open: v[$0].text, close: v[$0 + 1].text) }
      }
    case "list-style-type":
      if let t = v.first, v.count == 1, let style = counterStyle(t) { s.listStyle = style }
    case "list-style-position":
      if k == "inside" || k == "outside" { s.generated.markerInside = k == "inside" }
    case "list-style": applyListStyleShorthand(v, &s)
    default: return false
    }
    return true
  }

  /// `inherit` for the properties above; false when `name` is none of them.
  @discardableResult
  static func inheritGenerated(_ name: String, _ s: inout ElementStyle, parent: ElementStyle)
    -> Bool
  {
    switch name {
    case "content": s.generated.content = parent.generated.content
    case "counter-reset": s.generated.counterReset = parent.generated.counterReset
    case "counter-increment": s.generated.counterIncrement = parent.generated.counterIncrement
    case "counter-set": s.generated.counterSet = parent.generated.counterSet
    case "quotes": s.generated.quotes = parent.generated.quotes
    case "list-style-type": s.listStyle = parent.listStyle
    case "list-style-position": s.generated.markerInside = parent.generated.markerInside
    case "list-style":
      s.listStyle = parent.listStyle
      s.generated.markerInside = parent.generated.markerInside
    default: return false
    }
    return true
  }

  /// A `list-style-type` value: a predefined name (unknown names mean `decimal`, as for an
  /// undefined @counter-style) or a string.
  static func counterStyle(_ t: CSSToken) -> CounterStyle? {
    switch t.kind {
    case .string: return .string(String(t.text.unicodeScalars.prefix(64)))
    case .ident:
      switch t.text.lowercased() {
      case "inherit", "initial", "unset", "revert": return nil
      default: return CounterStyle.named(t.text) ?? .decimal
      }
    default: return nil
    }
  }

  /// `list-style: [type] [position] [image]`; what is left out resets to its initial value.
  private static func applyListStyleShorthand(_ v: [CSSToken], _ s: inout ElementStyle) {
    var type: CounterStyle? = nil
    var inside: Bool? = nil
    var nones = 0
    for t in v {
      switch t.kind {
      case .ident:
        let k = t.text.lowercased()
        if k == "inside" || k == "outside" {
          inside = k == "inside"
        } else if k == "none" {
          nones += 1
        } else if let c = CounterStyle.named(k) {
          type = c
        } else {
          return  // invalid shorthand
        }
      case .string: type = counterStyle(t)
      case .url, .function: continue  // list-style-image: not drawn
      default: return
      }
    }
    if type == nil && nones > 0 { type = CounterStyle.none }
    s.listStyle = type ?? .disc
    s.generated.markerInside = inside ?? false
  }

  /// `name [integer]`… (capped); nil when malformed, [] for `none`.
  static func counterChanges(_ v: [CSSToken], default value: Int) -> [CounterChange]? {
    if keyword(v) == "none" { return [] }
    var out: [CounterChange] = []
    var i = 0
    while i < v.count, out.count < GeneratedLimits.maxItems {
      var change: CounterChange
      if v[i].kind == .ident {
        change = CounterChange(name: v[i].text, value: value)
        i += 1
      } else if v[i].kind == .function, v[i].text.lowercased() == "reversed", i + 2 < v.count,
        v[i + 1].kind == .ident, v[i + 2].kind == .closeParen
      {
        change = CounterChange(name: v[i + 1].text, value: value, reversed: true, countsItems: true)
        i += 3
      } else {
        return nil
      }
      if ["none", "inherit", "initial", "unset"].contains(change.name.lowercased()) { return nil }
      if i < v.count, v[i].kind == .number, v[i].number == v[i].number.rounded() {
        let m = Double(CounterStyle.maxMagnitude)
        change.value = Int(max(-m, min(m, v[i].number)))
        change.countsItems = false
        i += 1
      }
      out.append(change)
    }
    return out
  }

  /// The items of a `content` value (whitespace kept in `tokens` so strings stay whole);
  /// nil when malformed. Images (`url()`) and alt text after `/` are dropped.
  static func contentItems(_ tokens: [CSSToken]) -> [ContentItem]? {
    let v = tokens.filter { !$0.isWhitespace }
    var out: [ContentItem] = []
    var i = 0
    while i < v.count, out.count < GeneratedLimits.maxItems {
      let t = v[i]
      i += 1
      switch t.kind {
      case .string: out.append(.string(t.text))
      case .url: continue
      case .delim where t.text == "/": return out
      case .ident:
        switch t.text.lowercased() {
        case "open-quote": out.append(.openQuote)
        case "close-quote": out.append(.closeQuote)
        case "no-open-quote": out.append(.noOpenQuote)
        case "no-close-quote": out.append(.noCloseQuote)
        default: return nil
        }
      case .function:
        var args: [CSSToken] = []
        while i < v.count, v[i].kind != .closeParen {
          if v[i].kind != .comma { args.append(v[i]) }
          i += 1
        }
        i += 1
        guard let item = functionItem(t.text.lowercased(), args) else {
          if t.text.lowercased() == "url" || t.text.lowercased().hasSuffix("gradient") {
            continue
          }
          return nil
        }
        out.append(item)
      default: return nil
      }
    }
    return out
  }

  private static func functionItem(_ name: String, _ args: [CSSToken]) -> ContentItem? {
    guard let first = args.first, first.kind == .ident else { return nil }
    switch name {
    case "attr":
      return .attr(first.text.lowercased())
    case "counter":
      let style = args.count > 1 ? counterStyle(args[1]) ?? .decimal : .decimal
      return .counter(name: first.text, style: style)
    case "counters":
      guard args.count >= 2, args[1].kind == .string else { return nil }
      let style = args.count > 2 ? counterStyle(args[2]) ?? .decimal : .decimal
      return .counters(name: first.text, separator: args[1].text, style: style)
    default: return nil
    }
  }
}
