// Total-fit line breaking (Knuth & Plass, "Breaking Paragraphs into Lines", 1981), written
// from the paper's description: no installed library breaks paragraphs over our item
// model (libunibreak only finds break opportunities).
//
// Walk the legal break points left to right keeping an active list of earlier breaks from
// which a line could still reach the current point. For each active node a and break b,
// the line a→b has adjustment ratio r; it is feasible when −1 ≤ r ≤ threshold. Its cost is
//   demerits = (linePenalty + badness)² ± cost²   (+ cost² for cost ≥ 0, − for cost < 0;
//                                                  forced breaks add nothing)
//   badness  = 100·|r|³
// plus `doubleHyphenDemerits` when a and b both end hyphenated, `finalHyphenDemerits`
// when the last line follows a hyphenated one, and `fitnessDemerits` when the fitness
// class (0 tight r < −0.5, 1 decent ≤ 0.5, 2 loose ≤ 1, 3 very loose) jumps by more than
// one from the previous line. At each b only the cheapest candidate per (fitness class,
// line class, consecutive-hyphen count) becomes a new active node; a node is dropped when
// a line from it would shrink below r = −1, or at a forced break. Line classes separate
// line numbers only while `lineWidth(k)` still varies (first-line indents), as in TeX, so
// the active list stays small: the cost is O(n·active). The list is kept in order of
// position, and a break reads it only up to the first node whose line is too loose: every
// later node's line is a suffix of that one with the same measure, so looser still (exact
// when no width is negative; see `pass`).
//
// Passes: (1) `pretolerance` without hyphenation; (2) `tolerance` with hyphenation, at
// most `maxConsecutiveHyphens` hyphenated lines in a row (a hard rule); (3) the same with
// `emergencyStretch` added to every line's stretch when judging feasibility; (4) a rescue
// pass that accepts any line (very loose or, when nothing else is left, overfull) and
// turns the hyphen limit into a cost; (5) greedy, so a result always comes back.
//
// Ragged mode (`KnuthPlassBreaker.ragged`, for start-aligned text): glue is never
// stretched or shrunk. The cost of a line uses r = shortfall / (raggedness · L), where the
// shortfall is L − w at natural width: a line a fifth short (raggedness 0.2) costs like a
// justified line stretched to r = 1. Lines wider than L are infeasible (except in the
// rescue pass). The last line (fil glue) costs nothing. The same demerits then favour
// even right edges, avoid alternating long/short lines (fitness) and limit hyphens.

/// Optimal (total-fit) line breaking. See the file comment for the exact cost function.
package struct KnuthPlassBreaker: ParagraphBreaker {
  package enum Mode: Sendable, Hashable {
    /// Lines are justified: glue stretches/shrinks to fill each line.
    case justified
    /// Lines are set at natural width; `raggedness` × line width is the shortfall that
    /// counts as r = 1.
    case ragged(raggedness: Double)
  }

  /// Largest ratio accepted by the passes with hyphenation.
  package var tolerance: Double
  /// Largest ratio accepted by the first pass (no hyphenation); negative skips that pass.
  package var pretolerance: Double
  package var linePenalty: Double
  /// Added to the cost of every flagged penalty (TeX's \hyphenpenalty; hyphen points
  /// carry cost 0 themselves, see `BreakItem.hyphen`).
  package var hyphenPenalty: Double
  package var doubleHyphenDemerits: Double
  package var finalHyphenDemerits: Double
  package var fitnessDemerits: Double
  /// Pixels of extra stretch per line in the emergency pass; 0 means 10 % of the line.
  package var emergencyStretch: Double
  /// Lines more (+) or fewer (−) than optimal, when the paragraph allows it.
  package var looseness: Int
  /// Most hyphenated lines in a row (hard unless no other breaking exists).
  package var maxConsecutiveHyphens: Int
  package var mode: Mode
  /// Whether flagged penalties (hyphen points) may be used at all.
  package var hyphenate: Bool

  package init(
    tolerance: Double = 2, pretolerance: Double = 1, linePenalty: Double = 10,
    hyphenPenalty: Double = 50, doubleHyphenDemerits: Double = 3000,
    finalHyphenDemerits: Double = 5000, fitnessDemerits: Double = 3000,
    emergencyStretch: Double = 0, looseness: Int = 0, maxConsecutiveHyphens: Int = 2,
    mode: Mode = .justified, hyphenate: Bool = true
  ) {
    self.tolerance = tolerance
    self.pretolerance = pretolerance
    self.linePenalty = linePenalty
    self.hyphenPenalty = hyphenPenalty
    self.doubleHyphenDemerits = doubleHyphenDemerits
    self.finalHyphenDemerits = finalHyphenDemerits
    self.fitnessDemerits = fitnessDemerits
    self.emergencyStretch = emergencyStretch
    self.looseness = looseness
    self.maxConsecutiveHyphens = maxConsecutiveHyphens
    self.mode = mode
    self.hyphenate = hyphenate
  }

  /// Ragged-right (start-aligned) breaking: no glue is stretched; reported ratios are 0
  /// (or negative only if a line must shrink to fit). See the file comment for the cost.
  package static func ragged(
    raggedness: Double = 0.2, tolerance: Double = 2, pretolerance: Double = 1,
    linePenalty: Double = 10, hyphenPenalty: Double = 50, doubleHyphenDemerits: Double = 3000,
    fitnessDemerits: Double = 3000
  ) -> KnuthPlassBreaker {
    KnuthPlassBreaker(
      tolerance: tolerance, pretolerance: pretolerance, linePenalty: linePenalty,
      hyphenPenalty: hyphenPenalty, doubleHyphenDemerits: doubleHyphenDemerits,
      fitnessDemerits: fitnessDemerits, mode: .ragged(raggedness: max(raggedness, 0.01)))
  }

  /// Upper bound on the active list; beyond it the costliest half is dropped. Each legal
  /// break is compared with every active node, so this bounds the work per break.
  package var maxActive = 1024

  package func breakLines(_ items: [BreakItem], lineWidth: (Int) -> Double) -> [LineBreak] {
    guard !items.isEmpty else { return [] }
    return withoutActuallyEscaping(lineWidth) { lineWidth in
      breakLines(items, escapingWidth: lineWidth)
    }
  }

  /// Line 0 `firstWidth`, the rest `width`: the widths are known without probing a closure
  /// 65 times per paragraph (11.4 M instructions per book; Benchmarks/paginate-cost.md,
  /// session 17). The same breaks as the closure's.
  package func breakLines(_ items: [BreakItem], firstWidth: Double, width: Double)
    -> [LineBreak]
  {
    guard !items.isEmpty else { return [] }
    let widths = LineWidths(first: firstWidth, rest: width, distinctLines: looseness != 0)
    return breakLines(items, widths) { k in k == 0 ? firstWidth : width }
  }

  private func breakLines(_ items: [BreakItem], escapingWidth lineWidth: @escaping (Int) -> Double)
    -> [LineBreak]
  {
    breakLines(items, LineWidths(lineWidth, distinctLines: looseness != 0), lineWidth: lineWidth)
  }

  /// `lineWidth` gives the same widths as `widths`; only the greedy fallback asks it.
  private func breakLines(
    _ items: [BreakItem], _ widths: LineWidths, lineWidth: (Int) -> Double
  ) -> [LineBreak] {
    let sums = ParagraphSums(items)
    var widths = widths
    // Passes in order; with looseness ≠ 0 keep going until it is achieved (as TeX does).
    // The passes are told apart by number, not listed in an array made per paragraph.
    var positions: [Int]? = nil
    for attempt in 0..<4 {
      if attempt == 0 && !(pretolerance >= 0) { continue }
      if attempt == 2 && mode != .justified { continue }
      guard
        let found = pass(
          sums, &widths,
          threshold: attempt == 0 ? pretolerance : attempt < 3 ? tolerance : .infinity,
          hyphens: attempt > 0 && hyphenate, extra: attempt >= 2, rescue: attempt == 3)
      else { continue }
      if positions == nil || found.achieved == looseness { positions = found.positions }
      if found.achieved == looseness { break }
    }
    guard let positions else {
      return GreedyBreaker.run(
        sums, lineWidth: lineWidth, threshold: 0.05, hyphenate: hyphenate)
    }
    return [LineBreak](unsafeUninitializedCapacity: positions.count) { out, count in
      var start = 0
      for (k, p) in positions.enumerated() {
        let m = sums.line(from: start, to: p)
        let natural = sums.endsParagraphOrForced(p)
        var ratio = m.reportedRatio(widths[k], natural: natural)
        if case .ragged = mode { ratio = min(ratio, 0) }
        out.initializeElement(
          at: k, to: LineBreak(index: p, ratio: ratio, hyphenated: sums.isFlagged(p)))
        start = sums.nextStart(p)
      }
      count = positions.count
    }
  }

  // MARK: The pass

  private struct Node {
    var position: Int
    var start: Int
    var line: Int
    var fitness: Int
    var hyphenRun: Int
    var demerits: Double
    var previous: Int
    /// The measure of the line that starts here (`widths[line]`) and the line class of a
    /// node that line ends in (`widths.lineClass(line + 1)`): read when the node is made,
    /// not at every break it is compared with.
    var target: Double
    var nextClass: Int
    /// The sums before `start` (`sums.prefix(start)`), read once, not at every break.
    var lo: ParagraphSums.Prefix

    init(
      position: Int, start: Int, line: Int, fitness: Int, hyphenRun: Int, demerits: Double,
      previous: Int, widths: inout LineWidths, sums: ParagraphSums
    ) {
      self.position = position
      self.start = start
      lo = sums.prefix(start)
      self.line = line
      self.fitness = fitness
      self.hyphenRun = hyphenRun
      self.demerits = demerits
      self.previous = previous
      target = widths[line]
      nextClass = widths.lineClass(line + 1)
    }
  }

  private struct Candidate {
    var fitness: Int
    var lineClass: Int
    var hyphenRun: Int
    var demerits: Double
    var from: Int
  }

  private struct Step {
    var flagged: Bool
    var forced: Bool
    var penaltyTerm: Double
    var rescue: Bool
  }

  /// Offers the line from `node` (at `index`) to the current break as a candidate, keeping
  /// only the cheapest per (fitness class, line class, hyphen run).
  @inline(__always)
  private func consider(
    _ candidates: inout Slab<Candidate>, node: Node, index a: Int, ratio r: Double, step: Step,
    lineClass: Int, artificial: Bool
  ) {
    let run = step.flagged ? node.hyphenRun + 1 : 0
    var d: Double
    if artificial {
      d = 0
    } else {
      let badness = r.isFinite ? min(100 * abs(r * r * r), 1e10) : 1e10
      let base = linePenalty + badness
      d = base * base + step.penaltyTerm
    }
    let previousFlagged = node.hyphenRun > 0
    if step.flagged && previousFlagged { d += doubleHyphenDemerits }
    if step.forced && previousFlagged { d += finalHyphenDemerits }
    if run > maxConsecutiveHyphens {
      if !step.rescue { return }
      d += 1e12
    }
    let fitness: Int
    if r < -0.5 {
      fitness = 0
    } else if r <= 0.5 {
      fitness = 1
    } else if r <= 1 {
      fitness = 2
    } else {
      fitness = 3
    }
    if abs(fitness - node.fitness) > 1 { d += fitnessDemerits }
    let total = node.demerits + d
    for k in 0..<candidates.count
    where candidates[k].fitness == fitness && candidates[k].lineClass == lineClass
      && candidates[k].hyphenRun == run
    {
      if total < candidates[k].demerits {
        candidates[k].demerits = total
        candidates[k].from = a
      }
      return
    }
    candidates.append(
      Candidate(fitness: fitness, lineClass: lineClass, hyphenRun: run, demerits: total, from: a))
  }

  /// Ratio used to judge the line: justified uses stretch (+ emergency) or shrink; ragged
  /// uses the shortfall scaled by raggedness·L and rejects overlong lines.
  @inline(__always)
  private func judgedRatio(_ m: LineMeasure, _ target: Double, extra: Bool) -> Double {
    switch mode {
    case .justified:
      var mm = m
      if extra {
        mm.stretch += emergencyStretch > 0 ? emergencyStretch : 0.1 * target
      }
      return mm.rawRatio(target)
    case .ragged(let raggedness):
      let d = target - m.width
      if d < -1e-9 { return -.infinity }
      if m.fils > 0 { return 0 }
      return d / (raggedness * target)
    }
  }

  /// The ratios a pass accepts: up to `threshold`; above `loose`, from node `sameTargetFrom`
  /// on, the rest of the active list is too loose (see `prunable` in `pass`).
  private struct Bounds {
    var threshold: Double
    var loose: Double
    var sameTargetFrom: Int
  }

  /// What comparing the active list with one break leaves: how many nodes survive (moved to
  /// the front, in order), and the last node dropped with its line's ratio.
  private struct Scan {
    var survivors = 0
    var lastDropped = -1
    var lastDroppedRatio = 0.0
  }

  /// Compares the first `live` active nodes of `act` with the break at `i`: offers each
  /// feasible line as a candidate and drops nodes whose line is overfull (every node at a
  /// forced break).
  @inline(__always)
  private func scan(
    _ act: UnsafeMutableBufferPointer<Int>, live: Int, nodes: UnsafeBufferPointer<Node>,
    at i: Int, _ sums: ParagraphSums, step: Step, bounds: Bounds, extra: Bool,
    candidates: inout Slab<Candidate>
  ) -> Scan {
    var scan = Scan()
    let end = sums.lineEnd(i)
    var k = 0
    while k < live {
      let a = act[k]
      k += 1
      if nodes[a].start > i {
        act[scan.survivors] = a
        scan.survivors += 1
        continue
      }
      // The node starts at or before `i`, so the line's sums begin at its own `lo`.
      let r = judgedRatio(sums.line(from: nodes[a].lo, to: end), nodes[a].target, extra: extra)
      if r >= -1 && r <= bounds.threshold {
        consider(
          &candidates, node: nodes[a], index: a, ratio: r, step: step,
          lineClass: nodes[a].nextClass, artificial: false)
      }
      if r < -1 || step.forced {
        scan.lastDropped = a
        scan.lastDroppedRatio = r
        continue
      }
      act[scan.survivors] = a
      scan.survivors += 1
      if r > bounds.loose && a >= bounds.sameTargetFrom && nodes[a].target > 0 {
        // Every later node's line is a suffix of this one with the same measure: they all
        // survive, and are moved only when a node before them was dropped.
        var to = scan.survivors
        if to < k {
          for from in k..<live {
            act[to] = act[from]
            to += 1
          }
        }
        scan.survivors += live - k
        break
      }
    }
    return scan
  }

  private func pass(
    _ sums: ParagraphSums, _ widths: inout LineWidths, threshold: Double, hyphens: Bool,
    extra: Bool, rescue: Bool = false
  ) -> (positions: [Int], achieved: Int)? {
    let n = sums.count
    // About one node per four items (a few feasible breaks per line, a line of ~25 items),
    // room for twice that: growing by doubling copied every node of a long paragraph, 531
    // times per book at n / 4 (9.5 M instructions; Benchmarks/paginate-cost.md, session 17).
    var nodes = Slab<Node>(capacity: max(64, n / 2))
    nodes.append(
      Node(
        position: -1, start: 0, line: 0, fitness: 1, hyphenRun: 0, demerits: 0, previous: -1,
        widths: &widths, sums: sums))
    // The active nodes, filtered in place at every break (survivors keep their order).
    var active = Slab<Int>(capacity: 32)
    active.append(0)
    // This break's candidates (emptied at every break; the storage is kept).
    var candidates = Slab<Candidate>(capacity: 16)
    defer {
      nodes.free()
      active.free()
      candidates.free()
    }
    // Exact pruning. Active nodes are in order of position, so a later node's line to a
    // break is a suffix of an earlier one's: never wider (when no width is negative), with
    // no more stretch and no more fil glue. Once a node's line is too loose (r above the
    // threshold and above 0, a shortfall with no fil glue), the line from every later node
    // with the same measure is at least as loose (the sums are rounded monotonically): it is
    // neither a candidate nor dropped, so the scan stops. Not at forced breaks (every node
    // is dropped there) nor in the rescue pass (no threshold). Every node from
    // `sameTargetFrom` on has the same measure (it must be positive, for the ragged ratio).
    let prunable = sums.widthNeverDecreases && threshold.isFinite
    var sameTargetFrom = 0

    // Legal breaks only: the paragraph's last item is one, so the walk ends there.
    var next = 0
    while next < n {
      let i = sums.legalBreak(from: next)
      next = i + 1
      let flagged = sums.isFlagged(i)
      if flagged && !hyphens { continue }
      let forced = sums.endsParagraphOrForced(i)
      let p = forced ? 0 : sums.cost(i) + (flagged ? hyphenPenalty : 0)
      let step = Step(
        flagged: flagged, forced: forced, penaltyTerm: p >= 0 ? p * p : -(p * p), rescue: rescue)
      candidates.count = 0
      // Too loose from here on (see `prunable`): the rest of the list survives unread.
      let loose = forced || !prunable ? Double.infinity : max(threshold, 0)
      let bounds = Bounds(threshold: threshold, loose: loose, sameTargetFrom: sameTargetFrom)
      let scan = self.scan(
        active.buffer, live: active.count, nodes: UnsafeBufferPointer(nodes.buffer), at: i, sums,
        step: step, bounds: bounds, extra: extra, candidates: &candidates)
      active.count = scan.survivors
      let lastDropped = scan.lastDropped
      let lastDroppedRatio = scan.lastDroppedRatio
      if rescue && candidates.count == 0 && active.count == 0 && lastDropped >= 0 {
        // Nothing else can reach this point: accept the line anyway (TeX's artificial
        // demerits), overfull or underfull, so the pass always completes.
        let node = nodes[lastDropped]
        consider(
          &candidates, node: node, index: lastDropped,
          ratio: max(lastDroppedRatio, -1), step: step, lineClass: node.nextClass,
          artificial: true)
      }
      guard candidates.count > 0 else {
        if active.count == 0 { return nil }
        continue
      }
      let start = sums.nextStart(i)
      for k in 0..<candidates.count {
        let c = candidates[k]
        let node = Node(
          position: i, start: start, line: nodes[c.from].line + 1, fitness: c.fitness,
          hyphenRun: c.hyphenRun, demerits: c.demerits, previous: c.from, widths: &widths,
          sums: sums)
        if node.target != nodes[nodes.count - 1].target { sameTargetFrom = nodes.count }
        nodes.append(node)
        active.append(nodes.count - 1)
      }
      if active.count > maxActive {
        var byCost = active.buffer
        byCost.sort { nodes[$0].demerits < nodes[$1].demerits }
        active.count = maxActive / 2
        var kept = active.buffer
        kept.sort()
      }
    }

    // Finished nodes: nothing but discardable material follows them. The cheapest, the
    // first of equals (as `min(by:)` picks), without building their list.
    var best = -1
    for a in active.buffer where nodes[a].start >= n {
      if best < 0 || nodes[a].demerits < nodes[best].demerits { best = a }
    }
    guard best >= 0 else { return nil }
    let optimalLines = nodes[best].line
    if looseness != 0 {
      let finished = active.buffer.filter { nodes[$0].start >= n }
      let goal = nodes[best].line + looseness
      best = finished.min { x, y in
        let dx = abs(nodes[x].line - goal)
        let dy = abs(nodes[y].line - goal)
        return dx != dy ? dx < dy : nodes[x].demerits < nodes[y].demerits
      }!
    }
    return (KnuthPlassBreaker.positions(ending: best, nodes), nodes[best].line - optimalLines)
  }

  /// The breaks of the path that ends at node `last`, first line first, written in place
  /// from the back (appending and reversing grew and copied an array per pass). A node of
  /// line k > 0 was made from one of line k − 1 and only the root (node 0) has line 0, so
  /// `line` steps back from `last` read nodes of lines k … 1 and never the root's -1.
  private static func positions(ending last: Int, _ nodes: Slab<Node>) -> [Int] {
    let lines = nodes[last].line
    return [Int](unsafeUninitializedCapacity: lines) { out, count in
      var cursor = last
      for k in stride(from: lines - 1, through: 0, by: -1) {
        out[k] = nodes[cursor].position
        cursor = nodes[cursor].previous
      }
      count = lines
    }
  }
}

/// Memoised `lineWidth(k)` plus TeX's "easy line": the line number after which all widths
/// are equal, so nodes beyond it need not be told apart by line number.
struct LineWidths {
  /// Lines past the cache: asked of `width`, or `rest` when there is no closure.
  private let width: ((Int) -> Double)?
  private let rest: Double
  private var cache: [Double] = []
  let easyLine: Int
  private static let probe = 64

  /// `width` must not outlive the breaker call (it comes from `withoutActuallyEscaping`).
  init(_ width: @escaping (Int) -> Double, distinctLines: Bool) {
    let probe = LineWidths.probe
    var first: [Double] = []
    first.reserveCapacity(probe + 1)
    for k in 0...probe { first.append(ParagraphSums.size(width(k))) }
    var lastChange = -1
    for k in 0..<probe where first[k] != first[k + 1] { lastChange = k }
    easyLine = distinctLines || lastChange >= probe - 4 ? Int.max : lastChange + 1
    cache = first
    self.width = width
    rest = 0
  }

  /// What the closure `{ k in k == 0 ? first : rest }` gives: the same cache and easy line.
  init(first: Double, rest: Double, distinctLines: Bool) {
    let head = ParagraphSums.size(first)
    let tail = ParagraphSums.size(rest)
    var cache = [Double](repeating: tail, count: LineWidths.probe + 1)
    cache[0] = head
    self.cache = cache
    // The only change among the probed lines is after line 0, when the two differ.
    easyLine = distinctLines ? Int.max : head != tail ? 1 : 0
    width = nil
    self.rest = tail
  }

  subscript(line: Int) -> Double {
    // Asked for every active node at every legal break: the cached case stays inline.
    @inline(__always) mutating get {
      if line < cache.count { return cache[line] }
      return extend(to: line)
    }
  }

  private mutating func extend(to line: Int) -> Double {
    guard let width else { return rest }
    while cache.count <= line && cache.count < 1 << 20 {
      cache.append(ParagraphSums.size(width(cache.count)))
    }
    return line < cache.count ? cache[line] : ParagraphSums.size(width(line))
  }

  func lineClass(_ line: Int) -> Int { min(line, easyLine) }
}

/// Growable storage for the pass's nodes, active list and candidates, read and written
/// through one pointer: an array checked its uniqueness at every append and subscript write,
/// and lending its buffer to each break's scan cost a retain and a release (a node is made
/// ~210 K times and a break scanned ~350 K times per book; Benchmarks/paginate-cost.md,
/// session 16).
/// Entries are plain values; the owner calls `free` once.
private struct Slab<Element: BitwiseCopyable> {
  private(set) var base: UnsafeMutablePointer<Element>
  private var capacity: Int
  /// Entries in use; lowering it forgets the rest (plain values need no deinitializing).
  var count = 0

  init(capacity: Int) {
    self.capacity = max(capacity, 1)
    base = .allocate(capacity: self.capacity)
  }

  var buffer: UnsafeMutableBufferPointer<Element> {
    UnsafeMutableBufferPointer(start: base, count: count)
  }

  subscript(i: Int) -> Element {
    @inline(__always) get {
      assert(i >= 0 && i < count)
      return base[i]
    }
    @inline(__always) nonmutating set {
      assert(i >= 0 && i < count)
      base[i] = newValue
    }
  }

  @inline(__always)
  mutating func append(_ element: Element) {
    if count == capacity { grow() }
    (base + count).initialize(to: element)
    count += 1
  }

  /// Doubles the capacity, moving the entries.
  @inline(never)
  private mutating func grow() {
    capacity *= 2
    let moved = UnsafeMutablePointer<Element>.allocate(capacity: capacity)
    moved.moveInitialize(from: base, count: count)
    base.deallocate()
    base = moved
  }

  func free() { base.deallocate() }
}
