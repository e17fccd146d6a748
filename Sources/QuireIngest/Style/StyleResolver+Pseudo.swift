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
    var typeCounts: [String: Int] = [:]
    for (parent, node) in tree.nodes.enumerated() where node.kind == .element || parent == 0 {
      let elements = node.children.filter { tree.nodes[$0].kind == .element }
      typeCounts.removeAll(keepingCapacity: true)
      for c in elements { typeCounts[tree.nodes[c].name, default: 0] += 1 }
      var seen: [String: Int] = [:]
      let parentLang = parent == tree.root ? rootLang : subjects[parent]?.position.lang
      for (k, c) in elements.enumerated() {
        let child = tree.nodes[c]
        var p = SiblingPosition()
        p.index = k + 1
        p.count = elements.count
        let typeIndex = (seen[child.name] ?? 0) + 1
        seen[child.name] = typeIndex
        p.typeIndex = typeIndex
        p.typeCount = typeCounts[child.name] ?? 1
        p.isEmpty = !child.children.contains {
          tree.nodes[$0].kind == .element || !tree.nodes[$0].text.isEmpty
        }
        if let own = child.attribute("xml:lang") ?? child.attribute("lang") {
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
