// Pseudo-classes and pseudo-elements (Selectors Level 3 and 4, CSS 2.1 §5.12): what the
// parser understands after a `:` or `::`, and the An+B microsyntax of `:nth-child()`.
//
// Structural pseudo-classes are evaluated from facts precomputed once per element in
// `SelectorSubject` (index among element siblings and among siblings of its type, sibling
// counts, emptiness, inherited language), so each test is O(1). `:not()`, `:is()` and
// `:where()` take selector lists (Level 4: complex selectors) nested at most
// `PseudoLimits.maxNesting` deep; deeper nesting makes the selector invalid. An+B values are
// clamped to ±`NthPattern.bound`, so the arithmetic never overflows whatever the sheet says.
//
// Pseudo-elements: `::before`, `::after`, `::first-letter`, `::marker` (and the CSS 2
// single-colon forms) select generated boxes the builder creates; `::first-line` gives the
// runs of a block their first-line style (ChapterBuilder+FirstLine.swift); unknown ones
// (`::selection`) never match.
//
// `:nth-child(An+B of S)` / `:nth-last-child(An+B of S)` (Level 4): the element matches S
// and its position among the siblings that match S is An+B. Counting those siblings per
// element would be quadratic in a long sibling list, so the positions of one sibling list
// for one S are computed once and kept (`NthOfMemo`: one check of S per sibling), at most
// `NthOfMemo.maxSteps` checks per chapter; past that, such selectors stop matching.

/// An+B: matches the 1-based positions a·n + b for some integer n ≥ 0.
struct NthPattern: Sendable, Hashable {
  var a: Int
  var b: Int
  /// |a| and |b| are clamped to this: positions never exceed the element count.
  static let bound = 1_000_000_000

  init(a: Int, b: Int) {
    self.a = max(-Self.bound, min(Self.bound, a))
    self.b = max(-Self.bound, min(Self.bound, b))
  }

  func matches(_ position: Int) -> Bool {
    let d = position - b
    if a == 0 { return d == 0 }
    return d % a == 0 && d / a >= 0
  }

  /// Parses the An+B microsyntax from a pseudo-class's argument tokens (`odd`, `even`,
  /// `3`, `-n+2`, `2n + 1`…); nil when malformed.
  static func parse(_ tokens: [CSSToken]) -> NthPattern? {
    var text = ""
    for t in tokens where !t.isWhitespace {
      switch t.kind {
      case .ident: text += t.text.lowercased()
      case .delim where t.text == "+" || t.text == "-": text += t.text
      case .number, .dimension:
        guard t.number == t.number.rounded() else { return nil }
        let n = Int(max(-Double(bound), min(Double(bound), t.number)))
        // A signed B after "An" loses its sign in the token; a bare number after `n` is B.
        if t.kind == .number, n >= 0, let last = text.last, last != "+", last != "-" {
          text += "+"
        }
        text += String(n) + (t.kind == .dimension ? t.unit : "")
      default: return nil
      }
    }
    return parse(text)
  }

  static func parse(_ text: String) -> NthPattern? {
    switch text {
    case "odd": return NthPattern(a: 2, b: 1)
    case "even": return NthPattern(a: 2, b: 0)
    default: break
    }
    func integer(_ s: Substring) -> Int? {
      let digits = s.drop { $0 == "+" || $0 == "-" }
      guard s.count - digits.count <= 1, !digits.isEmpty, digits.allSatisfy(\.isASCII),
        digits.allSatisfy(\.isNumber)
      else { return nil }
      let magnitude = digits.count > 10 ? bound : Int(digits) ?? bound
      return s.hasPrefix("-") ? -magnitude : magnitude
    }
    guard let n = text.firstIndex(of: "n") else {
      return integer(Substring(text)).map { NthPattern(a: 0, b: $0) }
    }
    let head = text[..<n]
    let tail = text[text.index(after: n)...]
    let a: Int?
    switch head {
    case "", "+": a = 1
    case "-": a = -1
    default: a = integer(head)
    }
    guard let a else { return nil }
    if tail.isEmpty { return NthPattern(a: a, b: 0) }
    guard tail.first == "+" || tail.first == "-", let b = integer(tail) else { return nil }
    return NthPattern(a: a, b: b)
  }
}

/// Pseudo-classes evaluated by the matcher (StyleResolver+Pseudo.swift).
indirect enum PseudoClass: Sendable, Hashable {
  case nthChild(NthPattern)
  case nthLastChild(NthPattern)
  case nthOfType(NthPattern)
  case nthLastOfType(NthPattern)
  /// `:nth-child(An+B of S)`, `:nth-last-child(An+B of S)` (`last`).
  case nthChildOf(NthPattern, [Selector], last: Bool)
  case onlyChild
  case onlyOfType
  case empty
  case root
  /// Language ranges, lower-cased (`:lang(de, "fr-CA")`); "*" matches any language.
  case lang([String])
  case not([Selector])
  case `is`([Selector])
  /// As `is`, with zero specificity.
  case `where`([Selector])
}

/// Pseudo-elements the builder generates boxes for.
enum PseudoElement: Sendable, Hashable {
  case before, after, firstLetter, firstLine, marker
}

enum PseudoLimits {
  /// :not()/:is()/:where() nested deeper than this make the selector invalid.
  static let maxNesting = 4
}

extension CompoundSelector {
  /// What the pseudo-classes add to specificity (as a·10⁴ + b·10² + c): one class-level
  /// unit each, the most specific argument for :not()/:is(), nothing for :where().
  var pseudoClassSpecificity: Int {
    pseudoClasses.reduce(0) { sum, p in
      switch p {
      case .not(let list), .is(let list): return sum + (list.map(\.specificity).max() ?? 0)
      case .nthChildOf(_, let list, _): return sum + 100 + (list.map(\.specificity).max() ?? 0)
      case .where: return sum
      default: return sum + 100
      }
    }
  }
}

extension SelectorParser {
  /// Parses the pseudo-class or pseudo-element at `tokens[i]` (a colon) into `compound`;
  /// returns the index after it, or nil when the selector is invalid.
  static func parsePseudo(
    _ tokens: [CSSToken], _ i: Int, into compound: inout CompoundSelector, depth: Int
  ) -> Int? {
    let n = tokens.count
    if i + 2 < n, tokens[i + 1].kind == .colon, tokens[i + 2].kind == .ident {
      setPseudoElement(tokens[i + 2].text.lowercased(), &compound)
      return i + 3
    }
    guard i + 1 < n else { return nil }
    let t = tokens[i + 1]
    if t.kind == .ident {
      pseudoClass(t.text.lowercased(), &compound)
      return i + 2
    }
    guard t.kind == .function else { return nil }
    var level = 0
    var j = i + 1
    while j < n {
      switch tokens[j].kind {
      case .function, .openParen: level += 1
      case .closeParen: level -= 1
      default: break
      }
      j += 1
      if level == 0 { break }
    }
    guard level == 0 else { return nil }
    let args = Array(tokens[(i + 2)..<(j - 1)])
    guard functionalPseudoClass(t.text.lowercased(), args, &compound, depth: depth) else {
      return nil
    }
    return j
  }

  private static func setPseudoElement(_ name: String, _ c: inout CompoundSelector) {
    switch name {
    case "before": c.pseudoElement = .before
    case "after": c.pseudoElement = .after
    case "first-letter": c.pseudoElement = .firstLetter
    case "first-line": c.pseudoElement = .firstLine
    case "marker": c.pseudoElement = .marker
    default: c.neverMatches = true  // ::selection, ::placeholder…
    }
  }

  private static func pseudoClass(_ name: String, _ c: inout CompoundSelector) {
    switch name {
    case "first-child": c.firstChild = true
    case "last-child": c.lastChild = true
    case "only-child": c.pseudoClasses.append(.onlyChild)
    case "first-of-type": c.pseudoClasses.append(.nthOfType(NthPattern(a: 0, b: 1)))
    case "last-of-type": c.pseudoClasses.append(.nthLastOfType(NthPattern(a: 0, b: 1)))
    case "only-of-type": c.pseudoClasses.append(.onlyOfType)
    case "empty": c.pseudoClasses.append(.empty)
    case "root": c.pseudoClasses.append(.root)
    case "link", "any-link": c.attributes.append(("href", .exists, false))
    case "before", "after", "first-letter", "first-line": setPseudoElement(name, &c)
    default: c.neverMatches = true  // :hover, :visited, :focus…
    }
  }

  /// A functional pseudo-class; false when its argument is malformed (the selector is
  /// invalid), true otherwise (unknown functions make the compound never match).
  private static func functionalPseudoClass(
    _ name: String, _ args: [CSSToken], _ c: inout CompoundSelector, depth: Int
  ) -> Bool {
    switch name {
    case "nth-child", "nth-last-child", "nth-of-type", "nth-last-of-type":
      if let of = args.firstIndex(where: { $0.kind == .ident && $0.text.lowercased() == "of" }) {
        return nthOf(name, args, of: of, &c, depth: depth)
      }
      guard let p = NthPattern.parse(args) else { return false }
      switch name {
      case "nth-child": c.pseudoClasses.append(.nthChild(p))
      case "nth-last-child": c.pseudoClasses.append(.nthLastChild(p))
      case "nth-of-type": c.pseudoClasses.append(.nthOfType(p))
      default: c.pseudoClasses.append(.nthLastOfType(p))
      }
    case "lang":
      let ranges = args.filter { $0.kind == .ident || $0.kind == .string }.map {
        $0.text.lowercased()
      }
      guard !ranges.isEmpty else { return false }
      c.pseudoClasses.append(.lang(Array(ranges.prefix(16))))
    case "not", "is", "where", "matches", "-webkit-any", "-moz-any":
      guard depth < PseudoLimits.maxNesting else { return false }
      // Arguments never hold pseudo-elements.
      let list = parseList(args, depth: depth + 1).filter {
        $0.compounds.last?.pseudoElement == nil
      }
      switch name {
      case "not":
        guard !list.isEmpty else { return false }
        c.pseudoClasses.append(.not(list))
      case "where": c.pseudoClasses.append(.where(list))
      default: c.pseudoClasses.append(.is(list))
      }
    default: c.neverMatches = true
    }
    return true
  }

  /// `:nth-child(An+B of S)` and `:nth-last-child(An+B of S)`; false when malformed (the
  /// `of` form is invalid in `:nth-of-type()`).
  private static func nthOf(
    _ name: String, _ args: [CSSToken], of: Int, _ c: inout CompoundSelector, depth: Int
  ) -> Bool {
    guard name == "nth-child" || name == "nth-last-child", depth < PseudoLimits.maxNesting,
      let p = NthPattern.parse(Array(args[..<of]))
    else { return false }
    let list = parseList(Array(args[(of + 1)...]), depth: depth + 1).filter {
      $0.compounds.last?.pseudoElement == nil
    }
    guard !list.isEmpty else { return false }
    c.pseudoClasses.append(.nthChildOf(p, list, last: name == "nth-last-child"))
    return true
  }
}
