// The cascade: which declarations win for an element, and the computed values that follow.
//
// Units: every computed length is in root ems (`Length.rem`) or a percentage of the
// containing block's width (Document.swift's essay). `font-size` in em/% is relative to the
// parent's computed font size; other em lengths are relative to the element's own font
// size, so `font-size` is applied before every other declaration. px are converted with the
// CSS reference root of 16 px (1pt = 4/3 px, so 12pt = 1rem).
//
// Order: user-agent normal < author normal < style attribute < author !important (UA
// !important is never used). Within an origin: specificity, then source order.
//
// Matching is right to left with a per-element memo of failed (compound, element) pairs,
// so a selector of n compounds costs O(n · depth) at worst instead of exponential.
//
// Which rules an element checks (browser-style rule hashing): rules are bucketed by the
// rightmost compound's id, else first class, else tag (else the universal bucket), and an
// element visits only the buckets of its own id, classes and tag. Inside a bucket, rules are
// grouped by one key (id, class or tag) of their nearest ancestor compound. While the
// builder walks the tree, the resolver keeps the keys of the current element's ancestors on
// a stack and in a counting Bloom filter (`AncestorFilter`): a group is visited only when
// its key is an ancestor's (by the stack's keys or by the groups, whichever is fewer), and a
// rule is checked only when every key its ancestor compounds require may be present. So
// `.c17 p` costs nothing on a `p` without a `.c17` ancestor, and 2,000 such rules over
// 30,000 elements cost a few checks per element instead of 2,000. Cascade order does not
// depend on the order candidates are found: declarations sort by (band, specificity, source
// order, position in the rule). `MatchLimits` bounds what no hashing can (every rule
// matching every element): selectors per document, classes per element, and full checks per
// chapter. The `~` combinator remembers, per rule, which elements have a matching previous
// sibling (`SiblingMemo`), so a 20,000-element sibling list costs one step per element
// instead of a scan back to its start for each. Pseudo-classes are evaluated from facts
// precomputed per element (StyleResolver+Pseudo.swift); rules for pseudo-elements share the
// buckets of their element and come back separately (`MatchedDeclarations`).
// `StyleResolver(reference: true)` is the plain matcher, kept for tests.
//
// Computing values costs more than matching (each declaration's tokens are read again for
// every element it applies to), so computed styles are shared (`StyleSharing`, after
// WebKit's style sharing): matching reports which rules an element matched, and an element
// without a style attribute or presentational hints whose parent, `dir` and matched rules
// equal an earlier sibling's takes that sibling's computed style. Matching still runs for
// every element, so structural pseudo-classes and sibling combinators need no special case:
// they change the matched rules, hence the key. Behind that per-chapter memo, the chapters
// of a book that link the same sheets share one keyed by the parent's style by value
// (`BookStyleSharing`): chapter after chapter repeats the same `body`, section and
// paragraph styles, and computes each once for the book.

import Foundation
import QuireCore

enum Display: Sendable, Hashable {
  case block, inline, none, listItem, table, tableRow, tableCell, tableRowGroup, tableCaption
}

/// The computed style of one element, with the few values Document does not carry.
struct ElementStyle: Sendable, Equatable {
  var computed = ComputedStyle()
  var display: Display = .inline
  var listStyle: CounterStyle = .disc
  /// content, counters, quotes, list-style-position (GeneratedContent.swift).
  var generated = GeneratedStyle()
  /// Box properties (not inherited but for the table border model's two).
  var box = BoxStyle()
  /// Table properties (Document/TablePart.swift).
  var table = TableStyle()

  /// The inherited part of `parent`: what a child starts from before its own declarations.
  static func inheriting(from parent: ElementStyle) -> ElementStyle {
    var s = ElementStyle()
    let p = parent.computed
    s.computed.fontFamilies = p.fontFamilies
    s.computed.fontSize = p.fontSize
    s.computed.italic = p.italic
    s.computed.fontWeight = p.fontWeight
    s.computed.smallCaps = p.smallCaps
    s.computed.textAlign = p.textAlign
    s.computed.textIndent = p.textIndent
    s.computed.textTransform = p.textTransform
    s.computed.textFullWidth = p.textFullWidth
    s.computed.lineHeight = p.lineHeight
    s.computed.whiteSpace = p.whiteSpace
    s.computed.hyphens = p.hyphens
    s.computed.widows = p.widows
    s.computed.orphans = p.orphans
    s.computed.direction = p.direction
    s.computed.color = p.color
    s.computed.underline = p.underline
    s.computed.lineThrough = p.lineThrough
    s.computed.text = p.text.inherited()
    s.listStyle = parent.listStyle
    s.generated = parent.generated.inherited
    s.box.collapsesBorders = parent.box.collapsesBorders
    s.box.borderSpacingX = parent.box.borderSpacingX
    s.box.borderSpacingY = parent.box.borderSpacingY
    s.table = parent.table.inherited
    return s
  }
}

/// Bounds of selector matching, so that styling a chapter costs time linear in its elements
/// whatever its style sheets hold (see the essay at the top of this file).
enum MatchLimits {
  /// Selectors kept per document (user agent and author sheets together, in source order);
  /// later ones are dropped with one warning. The largest publisher sheets seen hold a few
  /// thousand; every selector costs a bucket entry and possibly a check per element.
  static let maxSelectors = 20_000
  /// Classes of one element that rule lookup and matching see (`class="a b c …"`); the
  /// rest are ignored. Real markup uses a handful; this bounds the buckets an element opens
  /// and the ancestor keys it pushes.
  static let maxClassesPerElement = 64
  /// Full selector checks (those that pass the buckets and the ancestor filter) per chapter.
  /// Past it, the rest of the chapter is styled by the user-agent sheet and style attributes
  /// only, with one warning. Ordinary chapters need a few per element; 20 M is about a
  /// second of matching in a release build and far beyond any real book.
  static let maxSelectorChecksPerChapter = 20_000_000
}

/// The attributes selectors look at, per element, precomputed once per document (and not
/// changed after). A class: matching reads an element's subject for every compound it
/// checks, and copying its strings and arrays each time cost ~350 instructions a check.
final class SelectorSubject {
  let name: String
  let id: String?
  /// At most `MatchLimits.maxClassesPerElement`, duplicates removed.
  let classes: [String]
  let parent: Int?
  let previousSibling: Int?
  var isLast = false
  /// Structural facts for pseudo-classes (StyleResolver+Pseudo.swift).
  var position = SiblingPosition()

  init(name: String, id: String?, classes: [String], parent: Int?, previousSibling: Int?) {
    self.name = name
    self.id = id
    self.classes = classes
    self.parent = parent
    self.previousSibling = previousSibling
  }
}

struct MatchedRule: Sendable {
  var selector: Selector
  var declarations: [CSSDeclaration]
  var origin: Int  // 0 user agent, 1 author
  var order: Int
  var specificity: Int
}

/// What a key of the ancestor filter names: an element's tag, id or one of its classes.
enum AncestorKey {
  static func tag(_ s: String) -> UInt32 { hash(0, s) }
  static func id(_ s: String) -> UInt32 { hash(1, s) }
  static func `class`(_ s: String) -> UInt32 { hash(2, s) }

  private static func hash(_ kind: UInt8, _ s: String) -> UInt32 {
    var h = Hasher()
    h.combine(kind)
    h.combine(s)
    return UInt32(truncatingIfNeeded: h.finalize())
  }

  /// The keys an element pushes for its descendants.
  static func keys(of s: SelectorSubject) -> [UInt32] {
    var keys = [tag(s.name)]
    if let i = s.id { keys.append(id(i)) }
    for c in s.classes { keys.append(`class`(c)) }
    return keys
  }
}

/// Rules whose rightmost compound names the same id, class or tag (or none), sub-divided by
/// one feature their nearest ancestor compound requires, so that an element only visits
/// rules whose ancestor could exist.
struct RuleBucket: Sendable {
  /// Rules without an ancestor compound (or whose ancestor compounds name nothing).
  var unkeyed: [Int] = []
  /// Rules by one key (`AncestorKey`) that some ancestor of a matching element must have.
  var byAncestorKey: [UInt32: [Int]] = [:]

  mutating func add(_ idx: Int, key: UInt32?) {
    if let key { byAncestorKey[key, default: []].append(idx) } else { unkeyed.append(idx) }
  }
}

/// All rules that apply to one document, bucketed for matching.
struct RuleSet: Sendable {
  var rules: [MatchedRule] = []
  /// Per rule: every key its ancestor compounds require (for the ancestor filter).
  var ancestorKeys: [[UInt32]] = []
  var byID: [String: RuleBucket] = [:]
  var byClass: [String: RuleBucket] = [:]
  var byTag: [String: RuleBucket] = [:]
  var universal = RuleBucket()
  /// Selectors dropped past `MatchLimits.maxSelectors`.
  var droppedSelectors = 0

  /// What dropping selectors cost the reader, for the chapter's diagnostics.
  var warnings: [String] {
    droppedSelectors == 0
      ? []
      : [
        "\(droppedSelectors) selectors past the first \(MatchLimits.maxSelectors) were ignored"
      ]
  }

  mutating func add(_ sheet: StyleSheet, origin: Int) {
    for rule in sheet.rules {
      for sel in rule.selectors {
        guard rules.count < MatchLimits.maxSelectors else {
          droppedSelectors += 1
          continue
        }
        let idx = rules.count
        rules.append(
          MatchedRule(
            selector: sel, declarations: rule.declarations, origin: origin, order: idx,
            specificity: sel.specificity))
        let (keys, groupKey) = Self.ancestorKeys(sel)
        ancestorKeys.append(keys)
        guard let last = sel.compounds.last, !last.neverMatches else { continue }
        if let id = last.ids.first {
          byID[id, default: RuleBucket()].add(idx, key: groupKey)
        } else if let c = last.classes.first {
          byClass[c, default: RuleBucket()].add(idx, key: groupKey)
        } else if let t = last.tag {
          byTag[t, default: RuleBucket()].add(idx, key: groupKey)
        } else {
          universal.add(idx, key: groupKey)
        }
      }
    }
  }

  /// The keys a selector's ancestor compounds require (a compound is an ancestor of the
  /// subject when the combinator on its right is a child or descendant one: `A > B ~ C`
  /// puts A above C, `A ~ B > C` does not), and the one key of the nearest such compound
  /// that buckets it (its id, else a class, else its tag).
  static func ancestorKeys(_ sel: Selector) -> (keys: [UInt32], group: UInt32?) {
    var keys: [UInt32] = []
    var group: UInt32? = nil
    var k = sel.compounds.count - 2
    while k >= 0 {
      defer { k -= 1 }
      guard sel.combinators[k] == .child || sel.combinators[k] == .descendant else { continue }
      let c = sel.compounds[k]
      var own: [UInt32] = c.ids.map(AncestorKey.id) + c.classes.map(AncestorKey.class)
      if let t = c.tag { own.append(AncestorKey.tag(t)) }
      if group == nil { group = own.first }
      keys += own
    }
    return (Array(keys.prefix(8)), group)
  }
}

/// A counting Bloom filter over the keys of the current element's ancestors, maintained as
/// the builder walks the tree: a key that is absent from it is absent from every ancestor.
struct AncestorFilter {
  private static let bits = 12
  private var counts = [UInt16](repeating: 0, count: 1 << bits)

  private static func slots(_ key: UInt32) -> (Int, Int) {
    let mask = UInt32(1 << bits - 1)
    return (Int(key & mask), Int((key >> UInt32(bits)) & mask))
  }

  func mayContain(_ key: UInt32) -> Bool {
    let (a, b) = Self.slots(key)
    return counts[a] != 0 && counts[b] != 0
  }

  /// Saturated counters stay saturated (never decremented): only false positives follow.
  mutating func insert(_ key: UInt32) {
    let (a, b) = Self.slots(key)
    if counts[a] != .max { counts[a] += 1 }
    if counts[b] != .max { counts[b] += 1 }
  }

  mutating func remove(_ key: UInt32) {
    let (a, b) = Self.slots(key)
    if counts[a] != .max { counts[a] -= 1 }
    if counts[b] != .max { counts[b] -= 1 }
  }
}

struct StyleResolver {
  let tree: MarkupTree
  let rules: RuleSet
  var subjects: [SelectorSubject?]
  /// Every rule is a candidate and no filter applies: the plain matcher the fast path must
  /// agree with (tests only).
  let reference: Bool
  /// Full selector checks so far (after bucket and ancestor-filter rejections).
  private(set) var selectorChecks = 0
  /// Set once `MatchLimits.maxSelectorChecksPerChapter` was reached: author rules stop.
  private(set) var budgetExhausted = false

  /// The ancestors whose keys are in `filter`, outermost first, and their keys.
  private var ancestorStack: [Int] = []
  private var onStack: [Bool]
  private var stackKeys: [UInt32] = []
  private var stackKeyStarts: [Int] = []
  private var filter = AncestorFilter()
  /// Results of `~` scans by rule, kept across elements (the fast path only).
  private var siblingMemo = SiblingMemo()
  /// Sibling positions for `:nth-child(An+B of S)` (StyleResolver+Pseudo.swift).
  let nthOf = NthOfMemo()
  /// Sibling steps of `~` scans so far (see `SiblingMemo`).
  var siblingSteps: Int { siblingMemo.steps }

  init(tree: MarkupTree, rules: RuleSet, reference: Bool = false, language: String? = nil) {
    self.tree = tree
    self.rules = rules
    self.reference = reference
    self.onStack = [Bool](repeating: false, count: tree.nodes.count)
    var subjects = [SelectorSubject?](repeating: nil, count: tree.nodes.count)
    // One pass over every child list: previous element sibling and last-child flags.
    for parent in tree.nodes.indices where tree.nodes[parent].kind == .element {
      var prev: Int? = nil
      var lastElement: Int? = nil
      for child in tree.nodes[parent].children where tree.nodes[child].kind == .element {
        let c = tree.nodes[child]
        subjects[child] = SelectorSubject(
          name: c.name, id: c.attribute("id"),
          classes: Self.classNames(c.attribute("class") ?? ""),
          parent: parent == tree.root ? nil : parent, previousSibling: prev)
        prev = child
        lastElement = child
      }
      if let l = lastElement { subjects[l]?.isLast = true }
    }
    Self.fillPositions(&subjects, tree: tree, language: language)
    self.subjects = subjects
  }

  func compoundMatches(_ c: CompoundSelector, _ e: Int) -> Bool {
    guard let s = subjects[e] else { return false }
    if c.neverMatches { return false }
    if let t = c.tag, t != s.name { return false }
    for id in c.ids where s.id != id { return false }
    for cl in c.classes where !s.classes.contains(cl) { return false }
    if c.firstChild && s.previousSibling != nil { return false }
    if c.lastChild && !s.isLast { return false }
    for (name, match, ignoreCase) in c.attributes {
      guard var v = tree.nodes[e].attribute(name) else { return false }
      if ignoreCase { v = v.lowercased() }
      switch match {
      case .exists: break
      case .equals(let x): if v != x { return false }
      case .includes(let x):
        if !v.split(whereSeparator: { $0.isWhitespace }).contains(Substring(x)) { return false }
      case .dashMatch(let x): if !(v == x || v.hasPrefix(x + "-")) { return false }
      case .prefix(let x): if x.isEmpty || !v.hasPrefix(x) { return false }
      case .suffix(let x): if x.isEmpty || !v.hasSuffix(x) { return false }
      case .substring(let x): if x.isEmpty || !v.contains(x) { return false }
      }
    }
    for p in c.pseudoClasses where !pseudoClassMatches(p, e, s) { return false }
    return true
  }

  func matches(_ sel: Selector, _ e: Int) -> Bool {
    var memo = SiblingMemo()
    return matches(sel, e, &memo)
  }

  /// `sel` against `e`; `memo` carries what `~` scans learnt across elements (when its
  /// `rule` is set).
  func matches(_ sel: Selector, _ e: Int, _ memo: inout SiblingMemo) -> Bool {
    let n = sel.compounds.count
    guard n > 0, compoundMatches(sel.compounds[n - 1], e) else { return false }
    if sel.compounds.count == 1 { return true }
    var failed = FailedPairs()
    return match(sel, sel.compounds.count - 1, e, &failed, &memo)
  }

  private func match(
    _ sel: Selector, _ k: Int, _ e: Int, _ failed: inout FailedPairs, _ memo: inout SiblingMemo
  ) -> Bool {
    let key = k &* tree.nodes.count &+ e
    if failed.contains(key) { return false }
    var ok = false
    if compoundMatches(sel.compounds[k], e) {
      if k == 0 {
        ok = true
      } else {
        switch sel.combinators[k - 1] {
        case .child:
          if let p = subjects[e]?.parent { ok = match(sel, k - 1, p, &failed, &memo) }
        case .descendant:
          var a = subjects[e]?.parent
          while let p = a, !ok {
            ok = match(sel, k - 1, p, &failed, &memo)
            a = subjects[p]?.parent
          }
        case .adjacent:
          if let p = subjects[e]?.previousSibling { ok = match(sel, k - 1, p, &failed, &memo) }
        case .sibling:
          ok = previousSiblingMatches(sel, k, e, &failed, &memo)
        }
      }
    }
    if !ok { failed.insert(key) }
    return ok
  }

  /// Whether some previous sibling of `e` matches `sel.compounds[...k-1]` (the `~` at k).
  /// S(e) = M(prev e) or S(prev e): with the rule's memo, a long sibling list costs one
  /// step per element, not a scan back to its start for each (quadratic).
  private func previousSiblingMatches(
    _ sel: Selector, _ k: Int, _ e: Int, _ failed: inout FailedPairs, _ memo: inout SiblingMemo
  ) -> Bool {
    var chain: [Int] = []
    var x = e
    var result = false
    while true {
      if let known = memo.known(k, x, nodes: tree.nodes.count) {
        result = known
        break
      }
      chain.append(x)
      guard let p = subjects[x]?.previousSibling else { break }
      if match(sel, k - 1, p, &failed, &memo) {
        result = true
        break
      }
      x = p
    }
    for c in chain { memo.record(k, c, result, nodes: tree.nodes.count) }
    return result
  }

  /// Makes the filter hold exactly the ancestors of `e`. In document order (the builder's
  /// walk) every element is pushed and popped once; any order stays correct.
  private mutating func moveFilter(to e: Int) {
    var missing: [Int] = []
    var a = subjects[e]?.parent
    while let p = a, !onStack[p] {
      missing.append(p)
      a = subjects[p]?.parent
    }
    while let top = ancestorStack.last, top != a {
      ancestorStack.removeLast()
      onStack[top] = false
      let start = stackKeyStarts.removeLast()
      for key in stackKeys[start...] { filter.remove(key) }
      stackKeys.removeSubrange(start...)
    }
    for p in missing.reversed() {
      guard let s = subjects[p] else { continue }
      ancestorStack.append(p)
      onStack[p] = true
      stackKeyStarts.append(stackKeys.count)
      for key in AncestorKey.keys(of: s) {
        stackKeys.append(key)
        filter.insert(key)
      }
    }
  }

  /// The rules of `bucket` whose ancestor key is present: by the keys on the stack or by
  /// the bucket's groups, whichever is fewer.
  private func collect(_ bucket: RuleBucket, into out: inout [Int]) {
    out += bucket.unkeyed
    if bucket.byAncestorKey.isEmpty { return }
    if stackKeys.count < bucket.byAncestorKey.count {
      for key in stackKeys { if let g = bucket.byAncestorKey[key] { out += g } }
    } else {
      for (key, g) in bucket.byAncestorKey where filter.mayContain(key) { out += g }
    }
  }

  /// The rules that may match element `s`, each possibly more than once.
  private mutating func candidates(_ e: Int, _ s: SelectorSubject) -> [Int] {
    if reference { return Array(rules.rules.indices) }
    moveFilter(to: e)
    var out: [Int] = []
    collect(rules.universal, into: &out)
    if let id = s.id, let b = rules.byID[id] { collect(b, into: &out) }
    for c in s.classes { if let b = rules.byClass[c] { collect(b, into: &out) } }
    if let b = rules.byTag[s.name] { collect(b, into: &out) }
    return out
  }

  /// The element's declarations in cascade order (later wins).
  /// `hints` are HTML's presentational hints: below every author rule, above the user agent.
  mutating func declarations(
    for e: Int, inlineStyle: [CSSDeclaration], hints: [CSSDeclaration] = []
  ) -> [CSSDeclaration] {
    match(e, inlineStyle: inlineStyle, hints: hints).element
  }

  /// The element's declarations and those of its pseudo-elements, each in cascade order.
  mutating func match(
    _ e: Int, inlineStyle: [CSSDeclaration], hints: [CSSDeclaration] = []
  ) -> MatchedDeclarations {
    guard let s = subjects[e] else { return MatchedDeclarations(element: hints + inlineStyle) }
    typealias Weighted = (key: (Int, Int, Int, Int), decl: CSSDeclaration)
    var weighted: [Weighted] = []
    var pseudo: [PseudoElement: [Weighted]] = [:]
    var own: [Int32] = []
    weighted.reserveCapacity(32)
    own.reserveCapacity(16)
    for idx in Self.firstOccurrences(candidates(e, s)) {
      // The rule is bound (its selector and declarations retained) only once it matched.
      if !reference {
        if budgetExhausted && rules.rules[idx].origin != 0 { continue }
        guard rules.ancestorKeys[idx].allSatisfy(filter.mayContain) else { continue }
      }
      selectorChecks += 1
      if selectorChecks >= MatchLimits.maxSelectorChecksPerChapter && !reference {
        budgetExhausted = true
      }
      var memo = siblingMemo
      siblingMemo = SiblingMemo()
      if !reference { memo.rule = idx }
      let matched = matches(rules.rules[idx].selector, e, &memo)
      siblingMemo = memo
      guard matched else { continue }
      let r = rules.rules[idx]
      let target = r.selector.compounds.last?.pseudoElement
      if target == nil { own.append(Int32(idx)) }
      for (i, d) in r.declarations.enumerated() {
        let band = d.important ? (r.origin == 0 ? 3 : 2) : r.origin
        let w: Weighted = ((band, r.specificity, r.order, i), d)
        if let target { pseudo[target, default: []].append(w) } else { weighted.append(w) }
      }
    }
    for (i, d) in hints.enumerated() { weighted.append(((1, -1, 0, i), d)) }
    for (i, d) in inlineStyle.enumerated() {
      weighted.append(((d.important ? 2 : 1, 1_000_000, Int.max / 2, i), d))
    }
    weighted.sort { $0.key < $1.key }
    own.sort()
    return MatchedDeclarations(
      element: weighted.map(\.decl),
      pseudo: pseudo.mapValues { $0.sorted { $0.key < $1.key }.map(\.decl) }, rules: own)
  }
}

extension StyleResolver {
  /// The names in a `class` attribute, split at white space, without repeats, at most
  /// `MatchLimits.maxClassesPerElement`. ASCII values (nearly all) are split on their UTF-8
  /// bytes: the ASCII white space of `Character.isWhitespace` is U+0009…U+000D and U+0020,
  /// so the result is the same as the general path's without reading graphemes.
  static func classNames(_ value: String) -> [String] {
    var classes: [String] = []
    func add<S: StringProtocol>(_ name: S) -> Bool {
      guard classes.count < MatchLimits.maxClassesPerElement else { return false }
      let s = String(name)
      if !classes.contains(s) { classes.append(s) }
      return true
    }
    if value.utf8.allSatisfy({ $0 < 0x80 }) {
      for name in value.utf8.split(whereSeparator: { $0 == 0x20 || (0x09...0x0D).contains($0) }) {
        guard add(Substring(name)) else { break }
      }
    } else {
      for name in value.split(whereSeparator: { $0.isWhitespace }) {
        guard add(name) else { break }
      }
    }
    return classes
  }

  /// `candidates` without repeats, in the order found. An element meets a handful of
  /// candidates: comparing each with those kept is cheaper than hashing them into a Set
  /// (~800 instructions an insert, with its allocation); long lists still use one.
  static func firstOccurrences(_ candidates: [Int]) -> [Int] {
    if candidates.count > 32 {
      var seen = Set<Int>()
      return candidates.filter { seen.insert($0).inserted }
    }
    var out: [Int] = []
    out.reserveCapacity(candidates.count)
    for c in candidates where !out.contains(c) { out.append(c) }
    return out
  }
}

/// The (compound, element) pairs one selector check found not to match (the memo that keeps
/// right-to-left matching polynomial). A check meets a few: they are kept in a short array
/// scanned linearly, and move to a Set once there are more than `maxScanned` (so a deep or
/// wide check stays linear).
struct FailedPairs {
  static let maxScanned = 16
  private var few: [Int] = []
  private var many: Set<Int>? = nil

  func contains(_ key: Int) -> Bool {
    if let many { return many.contains(key) }
    return few.contains(key)
  }

  mutating func insert(_ key: Int) {
    if many != nil {
      many?.insert(key)
      return
    }
    few.append(key)
    if few.count > Self.maxScanned {
      many = Set(few)
      few = []
    }
  }
}

/// For the `~` combinator: whether some previous sibling of an element matches the part
/// of a rule's selector left of a `~`, by (rule, compound, element). Only set for the rule
/// being checked (`rule`); cleared when it grows past `maxEntries`.
struct SiblingMemo {
  var rule: Int? = nil
  private var results: [Int: Bool] = [:]
  /// Sibling steps taken by `~` scans (one per element of a scan), for tests.
  private(set) var steps = 0
  static let maxEntries = 1 << 20

  private func key(_ k: Int, _ e: Int, _ nodes: Int) -> Int? {
    guard let rule else { return nil }
    return (rule &* (CSSLimits.maxCompounds + 1) &+ k) &* nodes &+ e
  }

  func known(_ k: Int, _ e: Int, nodes: Int) -> Bool? {
    key(k, e, nodes).flatMap { results[$0] }
  }

  mutating func record(_ k: Int, _ e: Int, _ value: Bool, nodes: Int) {
    steps += 1
    guard let key = key(k, e, nodes) else { return }
    if results.count >= Self.maxEntries { results.removeAll() }
    results[key] = value
  }
}

/// What matching found for one element: its own declarations and, per pseudo-element
/// (`::before`, `::after`, `::first-letter`, `::marker`), that pseudo-element's.
struct MatchedDeclarations {
  var element: [CSSDeclaration]
  var pseudo: [PseudoElement: [CSSDeclaration]] = [:]
  /// The rules (indices into `RuleSet.rules`, ascending) whose declarations make up
  /// `element`, before hints and the style attribute: with those two empty, elements that
  /// matched the same rules under the same parent style compute the same style
  /// (`StyleSharing`).
  var rules: [Int32] = []
}

/// Computed styles shared between elements (WebKit's style sharing, keyed by what the
/// computation reads rather than by a guess at it): an element's computed style is a
/// function of its parent's style, its `dir` attribute, and the declarations it matched —
/// which, without a style attribute or presentational hints, are fixed by the set of rules it
/// matched. Siblings such as a chapter's thousand `<p>`s under one parent compute theirs
/// once. Parents are named by a number the builder gives each element context, so only
/// elements under the same parent element share (cousins do not). Bounded: the memo is
/// emptied when it reaches `maxEntries`.
struct StyleSharing {
  struct Key: Hashable {
    /// The parent element context's number (`ChapterBuilder`).
    var parent: Int
    /// 0 no (or another) `dir`, 1 `rtl`, 2 `ltr`.
    var dir: UInt8
    var rules: [Int32]
  }
  static let maxEntries = 4_096
  private var styles: [Key: ElementStyle] = [:]
  /// Lookups answered from the memo (tests and profiles).
  private(set) var hits = 0

  /// The style for `key`, computing and remembering it when it is not known.
  mutating func style(_ key: Key, compute: () -> ElementStyle) -> ElementStyle {
    if let s = styles[key] {
      hits += 1
      return s
    }
    let s = compute()
    if styles.count >= Self.maxEntries { styles.removeAll(keepingCapacity: true) }
    styles[key] = s
    return s
  }
}

/// Computed styles shared by a book's chapters (those that link the same style sheets, so
/// rule numbers mean the same rules): the second level behind `StyleSharing`, which shares
/// only under one parent element. Keyed by the parent's style by value (what the
/// computation reads: the chapters of a book repeat the same few parents, `body`, a
/// section, a paragraph), its `dir` and the matched rules. The hash reads the parent's
/// computed style only (its partial hash, ComputedStyle.swift); equality compares every
/// value. Chapters are converted in parallel, hence the mutex; the lock is not held while a
/// style is computed (the computation is a pure function of the key, so whichever worker
/// stores it stores the same value). Bounded like `StyleSharing`.
final class BookStyleSharing: Sendable {
  struct Key: Hashable {
    var parent: ElementStyle
    var dir: UInt8
    var rules: [Int32]

    func hash(into hasher: inout Hasher) {
      hasher.combine(parent.computed)
      hasher.combine(dir)
      hasher.combine(rules)
    }
  }
  static let maxEntries = 4_096
  private let styles = Mutex<[Key: ElementStyle]>([:])
  private let answered = Mutex(0)
  /// Lookups answered from the memo (tests and profiles).
  var hits: Int { answered.withLock { $0 } }

  /// The style for `key`, computing and remembering it when it is not known.
  func style(_ key: Key, compute: () -> ElementStyle) -> ElementStyle {
    if let s = styles.withLock({ $0[key] }) {
      answered.withLock { $0 += 1 }
      return s
    }
    let s = compute()
    styles.withLock { styles in
      if styles.count >= Self.maxEntries { styles.removeAll(keepingCapacity: true) }
      styles[key] = s
    }
    return s
  }
}

/// Applies declarations to a style, resolving values against the parent.
enum StyleComputer {

  static func compute(_ decls: [CSSDeclaration], parent: ElementStyle, base: ElementStyle)
    -> ElementStyle
  {
    var s = base
    // font-size first: em lengths of every other property depend on it.
    for d in decls where d.name == "font-size" || d.name == "font" {
      applyFont(d, &s, parent: parent, sizeOnly: true)
    }
    for d in decls where d.name != "font-size" {
      apply(d, &s, parent: parent)
    }
    s.resolveInlineBackground()
    return s
  }

  static func keyword(_ v: [CSSToken]) -> String? {
    guard v.count == 1, v[0].kind == .ident else { return nil }
    return v[0].text.lowercased()
  }

  /// A length in rem (or percent), for properties other than font-size.
  static func length(_ t: CSSToken, fontSize: Double) -> Length? {
    // Hostile sheets write 1e300px; nothing a page can show needs more than this.
    switch rawLength(t, fontSize: fontSize) {
    case .rem(let r)?: return .rem(max(-10_000, min(10_000, r)))
    case .percent(let p)?: return .percent(max(-10_000, min(10_000, p)))
    case nil: return nil
    }
  }

  static func rawLength(_ t: CSSToken, fontSize: Double) -> Length? {
    switch t.kind {
    case .number: return t.number == 0 ? .zero : nil
    case .percentage: return .percent(t.number)
    case .dimension:
      switch t.unit {
      case "px": return .rem(t.number / 16)
      case "pt": return .rem(t.number / 12)
      case "pc": return .rem(t.number / 1)
      case "in": return .rem(t.number * 6)
      case "cm": return .rem(t.number * 6 / 2.54)
      case "mm": return .rem(t.number * 6 / 25.4)
      case "q": return .rem(t.number * 6 / 101.6)
      case "em": return .rem(t.number * fontSize)
      case "rem": return .rem(t.number)
      case "ex", "ch": return .rem(t.number * fontSize * 0.5)
      case "vw", "vh", "vmin", "vmax": return .percent(t.number)
      default: return nil
      }
    case .ident where t.text.lowercased() == "auto": return .zero
    default: return nil
    }
  }

  /// A font size in rem relative to the parent's, or nil.
  static func fontSize(_ t: CSSToken, parent: Double) -> Double? {
    switch t.kind {
    case .percentage: return parent * t.number / 100
    case .dimension:
      switch t.unit {
      case "em": return parent * t.number
      case "ex", "ch": return parent * t.number * 0.5
      default:
        if case .rem(let r) = length(t, fontSize: parent) { return r }
        return nil
      }
    case .number: return t.number == 0 ? 0 : nil
    case .ident:
      switch t.text.lowercased() {
      case "xx-small": return 9.0 / 16
      case "x-small": return 10.0 / 16
      case "small": return 13.0 / 16
      case "medium": return 1
      case "large": return 18.0 / 16
      case "x-large": return 24.0 / 16
      case "xx-large": return 2
      case "xxx-large": return 3
      case "smaller": return parent / 1.2
      case "larger": return parent * 1.2
      default: return nil
      }
    default: return nil
    }
  }

  static func fontWeight(_ t: CSSToken, parent: Int) -> Int? {
    switch t.kind {
    case .number:
      let w = Int(max(0, min(10_000, t.number)))
      return (1...1000).contains(w) ? min(900, max(100, (w + 50) / 100 * 100)) : nil
    case .ident:
      switch t.text.lowercased() {
      case "normal": return 400
      case "bold": return 700
      case "bolder": return parent < 350 ? 400 : parent < 550 ? 700 : 900
      case "lighter": return parent < 550 ? 100 : parent < 750 ? 400 : 700
      default: return nil
      }
    default: return nil
    }
  }

  static func lineHeight(_ v: [CSSToken], fontSize: Double) -> LineHeight? {
    guard let t = v.first else { return nil }
    switch t.kind {
    case .ident where t.text.lowercased() == "normal": return .normal
    case .number: return t.number >= 0 ? .factor(min(100, t.number)) : nil
    // A percentage computes to a length (CSS 2.1 §10.8.1): children inherit the length, not
    // the percentage (a number is inherited as a factor of each child's own size).
    case .percentage:
      return t.number >= 0 ? .length(.rem(min(100, t.number / 100) * fontSize)) : nil
    default:
      if let l = length(t, fontSize: fontSize) { return .length(l) }
      return nil
    }
  }

  static func families(_ v: [CSSToken]) -> [String] {
    var out: [String] = []
    var current: [String] = []
    for t in v + [CSSToken(kind: .comma, text: ",")] {
      switch t.kind {
      case .string: current.append(t.text)
      case .ident: current.append(t.text)
      case .comma:
        let name = trimmingSpaces(current.joined(separator: " "))
        if !name.isEmpty { out.append(name) }
        current = []
      default: break
      }
    }
    return Array(out.prefix(16))
  }

  /// `s` without leading and trailing `CharacterSet.whitespaces`. A name that starts and
  /// ends with an ASCII character other than space and tab has none to trim: it is returned
  /// as is, without Foundation's bridging (~4,000 instructions a call).
  static func trimmingSpaces(_ s: String) -> String {
    if let first = s.utf8.first, let last = s.utf8.last, first < 0x80, last < 0x80,
      first != 0x20, first != 0x09, last != 0x20, last != 0x09
    {
      return s
    }
    return s.trimmingCharacters(in: .whitespaces)
  }

  static func applyFont(
    _ d: CSSDeclaration, _ s: inout ElementStyle, parent: ElementStyle, sizeOnly: Bool
  ) {
    let v = d.value.filter { !$0.isWhitespace }
    if d.name == "font-size" {
      if keyword(v) == "inherit" {
        s.computed.fontSize = parent.computed.fontSize
      } else if keyword(v) == "initial" {
        s.computed.fontSize = 1
      } else if v.count == 1, let f = fontSize(v[0], parent: parent.computed.fontSize) {
        s.computed.fontSize = min(100, max(0, f))
      }
      return
    }
    // `font` shorthand: [style || variant || weight] size[/line-height] family.
    var i = 0
    var italic = false
    var smallCaps = false
    var weight = 400
    while i < v.count {
      let t = v[i]
      if t.kind == .ident {
        let k = t.text.lowercased()
        if k == "italic" || k == "oblique" {
          italic = true
        } else if k == "small-caps" {
          smallCaps = true
        } else if k == "normal" {
        } else if let w = fontWeight(t, parent: parent.computed.fontWeight), k != "smaller",
          k != "larger"
        {
          weight = w
        } else {
          break
        }
        i += 1
      } else if t.kind == .number, let w = fontWeight(t, parent: parent.computed.fontWeight) {
        weight = w
        i += 1
      } else {
        break
      }
    }
    guard i < v.count, let size = fontSize(v[i], parent: parent.computed.fontSize) else { return }
    i += 1
    var lh: LineHeight = .normal
    if i + 1 < v.count, v[i].kind == .delim, v[i].text == "/" {
      lh = lineHeight([v[i + 1]], fontSize: size) ?? .normal
      i += 2
    }
    let fams = families(Array(v[i...]))
    guard !fams.isEmpty else { return }
    s.computed.fontSize = min(100, max(0, size))
    if sizeOnly { return }
    s.computed.italic = italic
    s.computed.smallCaps = smallCaps
    s.computed.fontWeight = weight
    s.computed.lineHeight = lh
    s.computed.fontFamilies = fams
  }

  static func edges(_ v: [CSSToken], fontSize: Double) -> [Length]? {
    let parts = v.filter { !$0.isWhitespace }.map { length($0, fontSize: fontSize) }
    guard (1...4).contains(parts.count), parts.allSatisfy({ $0 != nil }) else { return nil }
    let p = parts.map { $0! }
    switch p.count {
    case 1: return [p[0], p[0], p[0], p[0]]
    case 2: return [p[0], p[1], p[0], p[1]]
    case 3: return [p[0], p[1], p[2], p[1]]
    default: return p
    }
  }

  static func breakRule(_ k: String) -> BreakRule? {
    switch k {
    case "always", "page", "left", "right", "recto", "verso": return .page
    case "avoid", "avoid-page": return .avoid
    case "column": return .column
    case "avoid-column": return .avoidColumn
    case "auto": return .auto
    default: return nil
    }
  }

  static func color(_ v: [CSSToken]) -> RGBA? {
    guard let t = v.first else { return nil }
    if t.kind == .hash {
      let hex = t.text.lowercased()
      let digits = hex.compactMap { $0.hexDigitValue }
      guard digits.count == hex.count else { return nil }
      switch digits.count {
      case 3, 4:
        let c = digits.map { UInt8($0 * 17) }
        return RGBA(r: c[0], g: c[1], b: c[2], a: digits.count == 4 ? c[3] : 255)
      case 6, 8:
        let c = stride(from: 0, to: digits.count, by: 2).map {
          UInt8(digits[$0] * 16 + digits[$0 + 1])
        }
        return RGBA(r: c[0], g: c[1], b: c[2], a: c.count == 4 ? c[3] : 255)
      default: return nil
      }
    }
    if t.kind == .function, t.text == "rgb" || t.text == "rgba" {
      let args = v.dropFirst().filter { [.number, .percentage].contains($0.kind) }
      guard args.count >= 3 else { return nil }
      func channel(_ a: CSSToken) -> UInt8 {
        let x = a.kind == .percentage ? a.number * 2.55 : a.number
        return UInt8(max(0, min(255, x.rounded())))
      }
      var alpha: UInt8 = 255
      if args.count >= 4 {
        let a = args[args.startIndex + 3]
        alpha = UInt8(
          max(0, min(255, ((a.kind == .percentage ? a.number / 100 : a.number) * 255).rounded())))
      }
      let a = Array(args)
      return RGBA(r: channel(a[0]), g: channel(a[1]), b: channel(a[2]), a: alpha)
    }
    if t.kind == .ident {
      switch t.text.lowercased() {
      case "black": return RGBA(r: 0, g: 0, b: 0)
      case "white": return RGBA(r: 255, g: 255, b: 255)
      case "red": return RGBA(r: 255, g: 0, b: 0)
      case "green": return RGBA(r: 0, g: 128, b: 0)
      case "blue": return RGBA(r: 0, g: 0, b: 255)
      case "gray", "grey": return RGBA(r: 128, g: 128, b: 128)
      case "silver": return RGBA(r: 192, g: 192, b: 192)
      case "maroon": return RGBA(r: 128, g: 0, b: 0)
      case "purple": return RGBA(r: 128, g: 0, b: 128)
      case "fuchsia", "magenta": return RGBA(r: 255, g: 0, b: 255)
      case "lime": return RGBA(r: 0, g: 255, b: 0)
      case "olive": return RGBA(r: 128, g: 128, b: 0)
      case "yellow": return RGBA(r: 255, g: 255, b: 0)
      case "navy": return RGBA(r: 0, g: 0, b: 128)
      case "teal": return RGBA(r: 0, g: 128, b: 128)
      case "aqua", "cyan": return RGBA(r: 0, g: 255, b: 255)
      case "orange": return RGBA(r: 255, g: 165, b: 0)
      case "brown": return RGBA(r: 165, g: 42, b: 42)
      case "darkgray", "darkgrey": return RGBA(r: 169, g: 169, b: 169)
      case "lightgray", "lightgrey": return RGBA(r: 211, g: 211, b: 211)
      case "dimgray", "dimgrey": return RGBA(r: 105, g: 105, b: 105)
      case "transparent": return RGBA(r: 0, g: 0, b: 0, a: 0)
      default: return nil
      }
    }
    return nil
  }

  static func apply(_ d: CSSDeclaration, _ s: inout ElementStyle, parent: ElementStyle) {
    let v = d.value.filter { !$0.isWhitespace }
    let k = keyword(v)
    let fs = s.computed.fontSize
    let p = parent.computed
    if k == "inherit" {
      inherit(d.name, &s, parent: parent)
      return
    }
    if applyBox(d, v, &s) || applyObjectFit(d.name, v, &s) || applyTable(d, v, k, &s)
      || applyPosition(d.name, v, fs, &s)
    {
      return
    }
    switch d.name {
    case "font": applyFont(d, &s, parent: parent, sizeOnly: false)
    case "font-family":
      if k != "initial" {
        let f = families(v)
        if !f.isEmpty { s.computed.fontFamilies = f }
      }
    case "font-style": if let k { s.computed.italic = k == "italic" || k == "oblique" }
    case "font-weight":
      if v.count == 1, let w = fontWeight(v[0], parent: p.fontWeight) { s.computed.fontWeight = w }
    case "font-variant", "font-variant-caps":
      if let k { s.computed.smallCaps = k == "small-caps" || k == "all-small-caps" }
      if let k { s.computed.text.allSmallCaps = k == "all-small-caps" }
    case "text-align":
      switch k {
      case "left": s.computed.textAlign = .left
      case "right": s.computed.textAlign = .right
      case "center", "-webkit-center", "-moz-center": s.computed.textAlign = .center
      case "justify": s.computed.textAlign = .justify
      case "start": s.computed.textAlign = .start
      case "end": s.computed.textAlign = .end
      default: break
      }
    case "text-indent":
      if let t = v.first, let l = length(t, fontSize: fs) { s.computed.textIndent = l }
      TextProperties.applyIndentKeywords(v, &s.computed)
    case "text-transform", "-epub-text-transform":
      TextProperties.applyTransform(v, &s.computed)
    case "margin":
      if let e = edges(v, fontSize: fs) {
        s.computed.margin = EdgeLengths(top: e[0], right: e[1], bottom: e[2], left: e[3])
      }
    case "padding":
      if let e = edges(v, fontSize: fs) {
        s.computed.padding = EdgeLengths(top: e[0], right: e[1], bottom: e[2], left: e[3])
      }
    case "margin-top":
      if v.count == 1, let l = length(v[0], fontSize: fs) { s.computed.margin.top = l }
    case "margin-right":
      if v.count == 1, let l = length(v[0], fontSize: fs) { s.computed.margin.right = l }
    case "margin-bottom":
      if v.count == 1, let l = length(v[0], fontSize: fs) { s.computed.margin.bottom = l }
    case "margin-left":
      if v.count == 1, let l = length(v[0], fontSize: fs) { s.computed.margin.left = l }
    case "padding-top":
      if v.count == 1, let l = length(v[0], fontSize: fs) { s.computed.padding.top = l }
    case "padding-right":
      if v.count == 1, let l = length(v[0], fontSize: fs) { s.computed.padding.right = l }
    case "padding-bottom":
      if v.count == 1, let l = length(v[0], fontSize: fs) { s.computed.padding.bottom = l }
    case "padding-left":
      if v.count == 1, let l = length(v[0], fontSize: fs) { s.computed.padding.left = l }
    case "line-height": if let l = lineHeight(v, fontSize: fs) { s.computed.lineHeight = l }
    case "page-break-before", "break-before":
      if let k, let b = breakRule(k) { s.computed.breakBefore = b }
    case "page-break-after", "break-after":
      if let k, let b = breakRule(k) { s.computed.breakAfter = b }
    case "page-break-inside", "break-inside":
      if let k, let b = breakRule(k) { s.computed.breakInside = b }
    case "display":
      switch k {
      case "block", "flex", "grid", "flow-root": s.display = .block
      case "inline", "inline-block", "inline-flex", "inline-grid", "inline-table", "contents":
        s.display = .inline
      case "none": s.display = .none
      case "list-item": s.display = .listItem
      case "table": s.display = .table
      case "table-row": s.display = .tableRow
      case "table-cell": s.display = .tableCell
      case "table-row-group", "table-header-group", "table-footer-group": s.display = .tableRowGroup
      case "table-caption": s.display = .tableCaption
      case "table-column", "table-column-group": s.display = .none
      default: break
      }
      if let k, k != "inherit" {
        s.box.isInlineBlock = ["inline-block", "inline-flex", "inline-grid", "inline-table"]
          .contains(k)
        s.box.isInlineTable = k == "inline-table"
      }
    case "white-space":
      if let k { s.computed.text.breakSpaces = k == "break-spaces" }
      switch k {
      case "normal": s.computed.whiteSpace = .normal
      case "pre": s.computed.whiteSpace = .pre
      case "pre-wrap", "break-spaces": s.computed.whiteSpace = .preWrap
      case "pre-line": s.computed.whiteSpace = .preLine
      case "nowrap": s.computed.whiteSpace = .nowrap
      default: break
      }
    case "vertical-align":
      s.computed.text.verticalShift = TextProperties.verticalShift(v, fontSize: fs)
      switch k {
      case "sub": s.computed.verticalAlign = .sub
      case "super": s.computed.verticalAlign = .super
      case "baseline", "top", "middle", "bottom", "text-top", "text-bottom":
        s.computed.verticalAlign = .baseline
      default: break
      }
    case "hyphens", "-webkit-hyphens", "-epub-hyphens", "-moz-hyphens", "-ms-hyphens":
      if let k, let h = Hyphens(rawValue: k) { s.computed.hyphens = h }
    case "adobe-hyphenate":
      if k == "none" {
        s.computed.hyphens = .manual
      } else if k == "auto" {
        s.computed.hyphens = .auto
      }
    case "widows":
      if let t = v.first, t.kind == .number, v.count == 1 {
        s.computed.widows = Int(max(1, min(100, t.number)))
      }
    case "orphans":
      if let t = v.first, t.kind == .number, v.count == 1 {
        s.computed.orphans = Int(max(1, min(100, t.number)))
      }
    case "direction":
      if k == "rtl" {
        s.computed.direction = .rtl
      } else if k == "ltr" {
        s.computed.direction = .ltr
      }
    case "color": if let c = color(v) { s.computed.color = c }
    case "text-decoration", "text-decoration-line":
      let words = Set(v.filter { $0.kind == .ident }.map { $0.text.lowercased() })
      if words.contains("none") {
        s.computed.underline = false
        s.computed.lineThrough = false
      }
      if words.contains("underline") { s.computed.underline = true }
      if words.contains("line-through") { s.computed.lineThrough = true }
      TextProperties.applyDecorationShorthand(v, &s.computed)
    default:  // generated content, then text properties; unknown ones are skipped, never fatal
      if !applyGenerated(d, &s) { _ = TextProperties.apply(d.name, v, &s.computed, parent: p) }
    }
  }

  static func inherit(_ name: String, _ s: inout ElementStyle, parent: ElementStyle) {
    let p = parent.computed
    switch name {
    case "margin": s.computed.margin = p.margin
    case "padding": s.computed.padding = p.padding
    case "margin-top": s.computed.margin.top = p.margin.top
    case "margin-bottom": s.computed.margin.bottom = p.margin.bottom
    case "margin-left": s.computed.margin.left = p.margin.left
    case "margin-right": s.computed.margin.right = p.margin.right
    case "display": s.display = parent.display
    case "vertical-align": s.computed.verticalAlign = p.verticalAlign
    case "page-break-before", "break-before": s.computed.breakBefore = p.breakBefore
    case "page-break-after", "break-after": s.computed.breakAfter = p.breakAfter
    case "page-break-inside", "break-inside": s.computed.breakInside = p.breakInside
    // Inherited properties: an earlier declaration of this element may have changed them.
    case "font-family": s.computed.fontFamilies = p.fontFamilies
    case "font-style": s.computed.italic = p.italic
    case "font-weight": s.computed.fontWeight = p.fontWeight
    case "font-variant", "font-variant-caps": s.computed.smallCaps = p.smallCaps
    case "text-align": s.computed.textAlign = p.textAlign
    case "text-indent": s.computed.textIndent = p.textIndent
    case "text-transform", "-epub-text-transform":
      s.computed.textTransform = p.textTransform
      s.computed.textFullWidth = p.textFullWidth
    case "line-height": s.computed.lineHeight = p.lineHeight
    case "white-space": s.computed.whiteSpace = p.whiteSpace
    case "hyphens", "-webkit-hyphens", "-epub-hyphens", "-moz-hyphens", "-ms-hyphens":
      s.computed.hyphens = p.hyphens
    case "widows": s.computed.widows = p.widows
    case "orphans": s.computed.orphans = p.orphans
    case "direction": s.computed.direction = p.direction
    case "color": s.computed.color = p.color
    default:
      if !inheritGenerated(name, &s, parent: parent) {
        _ = TextProperties.inherit(name, &s.computed, parent: p)
      }
    }
  }
}
