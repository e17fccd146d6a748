// Evaluating pseudo-classes (SelectorPseudo.swift) against an element. The structural
// facts are computed once per document in one pass over every child list (linear in
// nodes), so `:nth-last-of-type(2n+1)` costs the same as `.class`.

/// Where an element stands among its element siblings, and what it holds.
struct SiblingPosition: Sendable {
  /// 1-based position among the parent's element children, and their count.
  var index = 1
  var count = 1
  /// 1-based position among the siblings with the same name, and their count.
  var typeIndex = 1
  var typeCount = 1
  /// No element children and no text (comments are not kept; white space counts as text).
  var isEmpty = true
  /// The inherited `xml:lang`/`lang` (or the book's language), lower-cased; nil when unknown.
  var lang: String?
}

extension StyleResolver {
  /// Fills `position` of every subject. Parents precede their children in `tree.nodes`, so
  /// languages inherit in one forward pass.
  static func fillPositions(
    _ subjects: inout [SelectorSubject?], tree: MarkupTree, language: String?
  ) {
    let rootLang = language.flatMap { $0.isEmpty ? nil : $0.lowercased() }
    var names = SiblingNames()
    var elements: [Int] = []
    for parent in tree.nodes.indices
    where tree.nodes[parent].kind == .element || parent == tree.root {
      elements.removeAll(keepingCapacity: true)
      for c in tree.nodes[parent].children where tree.nodes[c].kind == .element {
        elements.append(c)
      }
      if elements.isEmpty { continue }
      names.count(elements, in: tree)
      let parentLang = parent == tree.root ? rootLang : subjects[parent]?.position.lang
      for (k, c) in elements.enumerated() {
        var p = SiblingPosition()
        p.index = k + 1
        p.count = elements.count
        (p.typeIndex, p.typeCount) = names.position(k)
        p.isEmpty = !tree.nodes[c].children.contains {
          tree.nodes[$0].kind == .element || !tree.nodes[$0].text.isEmpty
        }
        if let own = tree.nodes[c].attribute("xml:lang") ?? tree.nodes[c].attribute("lang") {
          p.lang = own.isEmpty ? nil : own.lowercased()
        } else {
          p.lang = parentLang
        }
        subjects[c]?.position = p
      }
    }
  }

  func pseudoClassMatches(_ p: PseudoClass, _ e: Int, _ s: SelectorSubject) -> Bool {
    let pos = s.position
    switch p {
    case .nthChild(let n): return n.matches(pos.index)
    case .nthLastChild(let n): return n.matches(pos.count - pos.index + 1)
    case .nthOfType(let n): return n.matches(pos.typeIndex)
    case .nthLastOfType(let n): return n.matches(pos.typeCount - pos.typeIndex + 1)
    case .onlyChild: return pos.count == 1
    case .onlyOfType: return pos.typeCount == 1
    case .empty: return pos.isEmpty
    case .root: return s.parent == nil
    case .lang(let ranges):
      guard let lang = pos.lang else { return false }
      return ranges.contains { Self.languageMatches(lang, range: $0) }
    case .nthChildOf(let n, let list, let last):
      guard let (index, count) = nthOfPosition(list, e) else { return false }
      return n.matches(last ? count - index + 1 : index)
    case .not(let list): return !list.contains { matches($0, e) }
    case .is(let list), .where(let list): return list.contains { matches($0, e) }
    }
  }

  /// `e`'s 1-based position among its siblings that match `list`, and their count; nil
  /// when `e` does not match `list` (or the chapter's budget of such checks is spent).
  func nthOfPosition(_ list: [Selector], _ e: Int) -> (Int, Int)? {
    let parent = subjects[e]?.parent ?? tree.root
    let key = NthOfMemo.Key(list: list, parent: parent)
    if let known = nthOf.positions[key] { return known[e].map { ($0, known.count) } }
    let siblings = tree.nodes[parent].children.filter { subjects[$0] != nil }
    guard nthOf.steps + siblings.count <= NthOfMemo.maxSteps else { return nil }
    nthOf.steps += siblings.count
    var positions = NthOfMemo.Positions()
    for c in siblings where list.contains(where: { matches($0, c) }) {
      positions.count += 1
      positions.index[c] = positions.count
    }
    nthOf.positions[key] = positions
    return positions[e].map { ($0, positions.count) }
  }

  /// BCP 47 prefix matching (`:lang(de)` matches "de", "de-CH", not "den"); both sides
  /// lower-cased; "*" matches any language.
  static func languageMatches(_ lang: String, range: String) -> Bool {
    if range == "*" { return true }
    guard lang.hasPrefix(range) else { return false }
    return lang.count == range.count || lang.dropFirst(range.count).first == "-"
  }
}

/// Positions of siblings among those matching the S of `:nth-child(An+B of S)`, per sibling
/// list and S, filled on first use (SelectorPseudo.swift). A class: the matcher's checks
/// are non-mutating; one resolver styles one chapter on one thread.
final class NthOfMemo {
  struct Key: Hashable {
    var list: [Selector]
    var parent: Int
  }
  struct Positions {
    var index: [Int: Int] = [:]
    var count = 0
    subscript(_ e: Int) -> Int? { index[e] }
  }
  /// Checks of S against siblings per chapter (each memo entry costs one per sibling).
  static let maxSteps = 2_000_000
  var positions: [Key: Positions] = [:]
  var steps = 0
}

/// Names of one child list, for `:nth-of-type` and friends: each child's name as a number
/// in order of first appearance, and how many children bear each. A child list holds a few
/// names, so they are found by a linear scan (no hashing, no allocation once the buffers
/// grew); past `maxScanned` names a dictionary takes over, so a list of many distinct
/// names stays linear.
private struct SiblingNames {
  static let maxScanned = 16
  private var names: [String] = []
  private var index: [String: Int] = [:]
  private var totals: [Int] = []
  private var seen: [Int] = []
  /// Each child's name number, by position in the list.
  private var numbers: [Int] = []

  /// Numbers the names of `elements` (element nodes of `tree`, in order).
  mutating func count(_ elements: [Int], in tree: MarkupTree) {
    names.removeAll(keepingCapacity: true)
    index.removeAll(keepingCapacity: true)
    totals.removeAll(keepingCapacity: true)
    numbers.removeAll(keepingCapacity: true)
    for c in elements {
      let j = number(tree.nodes[c].name)
      totals[j] += 1
      numbers.append(j)
    }
    seen.removeAll(keepingCapacity: true)
    seen.append(contentsOf: repeatElement(0, count: names.count))
  }

  private mutating func number(_ name: String) -> Int {
    if names.count <= Self.maxScanned {
      if let j = names.firstIndex(of: name) { return j }
    } else if let j = index[name] {
      return j
    }
    names.append(name)
    totals.append(0)
    if names.count == Self.maxScanned + 1 {
      for (j, n) in names.enumerated() { index[n] = j }
    } else if names.count > Self.maxScanned + 1 {
      index[name] = names.count - 1
    }
    return names.count - 1
  }

  /// The `k`-th child's 1-based position among the siblings with its name, and their count
  /// (children asked in order).
  mutating func position(_ k: Int) -> (Int, Int) {
    let j = numbers[k]
    seen[j] += 1
    return (seen[j], totals[j])
  }
}
