// A fast builder of libhyphen's HyphenDict from a hyph_*.dic file.
//
// Why by hand: libhyphen's own loader (hnj_hyphen_load) keys every pattern prefix in a
// fixed 31,627-bucket chained hash table of malloc'd strings. German's dictionary has
// hundreds of thousands of prefixes, so each lookup walks a long chain of cache-missing
// strcmps: hyph_de_DE.dic takes ≈ 2.3 s of CPU (callgrind: 1.2 G instructions, a third in
// strcmp, but mostly cache misses), paid by any book with a German span. The states form
// a prefix-closed trie (every prefix of a state is a state, linked by a transition), so
// "is this string a state?" is a walk from the root along the transitions and needs no
// hash table at all. This file builds the very same structure as hnj_hyphen_load — same
// state numbers, transition order, match and replacement strings, fallback states and
// second level — in malloc'd memory, so hnj_hyphen_hyphenate2 walks it and hnj_hyphen_free
// frees it unchanged. `PatternLoaderTests` compares it field by field with libhyphen's for
// every installed dictionary. Any input this builder does not model exactly (a NUL byte, a
// line longer than libhyphen's 99-byte buffer, a long charset line) returns nil, and the
// caller falls back to hnj_hyphen_load.
//
// Cost: every process without a compiled trie (CompiledPatterns) builds this one, at the
// start of layout, so it works in one pass over the file's bytes: lines are ranges of the
// buffer, a pattern's letters and digits go to a scratch buffer (no array or string per
// line), a pattern's deepest existing prefix is found by one walk that starts where its
// common prefix with the previous pattern ends (the files are sorted; any order builds the
// same, only slower), and only the missing states after it are created; a state is one
// record and its match and replacement strings are ranges of one byte pool; fallbacks are
// Aho–Corasick failure links in breadth-first order.
//
// Rejected alternative: loading on a background thread at the first sight of a language —
// it hides latency only when a core is idle, and the CPU is still spent.

import CHyphen
import Foundation

enum PatternLoader {
  /// libhyphen's line buffer (MAX_CHARS) and charset buffer (MAX_NAME).
  static let maxLine = 100
  static let maxName = 20

  /// The dictionary at `path` as hnj_hyphen_load would build it, or nil (fall back).
  static func load(path: String) -> UnsafeMutablePointer<HyphenDict>? {
    guard let data = FileManager.default.contents(atPath: path) else { return nil }
    return load(bytes: [UInt8](data))
  }

  /// The dictionary whose file holds `bytes` as hnj_hyphen_load would build it, or nil.
  static func load(bytes: [UInt8]) -> UnsafeMutablePointer<HyphenDict>? {
    guard !bytes.isEmpty, bytes.count < 64 << 20 else { return nil }
    return bytes.withUnsafeBufferPointer { load(text: $0) }
  }

  /// Each line's start offset as fgets splits the text (each line with its newline, the
  /// last maybe without), then the text's end; nil for a NUL byte or a line too long.
  static func lineStarts(_ text: UnsafeBufferPointer<UInt8>) -> [Int]? {
    let base = UnsafeRawPointer(text.baseAddress!)
    if memchr(base, 0, text.count) != nil { return nil }
    var starts: [Int] = [0]
    starts.reserveCapacity(text.count / 8 + 2)
    var start = 0
    while start < text.count {
      var end = text.count
      if let newline = memchr(base + start, 0x0A, text.count - start) {
        end = base.distance(to: UnsafeRawPointer(newline)) + 1
      }
      guard end - start <= (starts.count == 1 ? maxName : maxLine) - 1 else { return nil }
      starts.append(end)
      start = end
    }
    return starts
  }

  /// The dictionary of the text in `text` (not empty), or nil.
  static func load(text: UnsafeBufferPointer<UInt8>) -> UnsafeMutablePointer<HyphenDict>? {
    guard let starts = lineStarts(text) else { return nil }
    func line(_ k: Int) -> UnsafeBufferPointer<UInt8> {
      UnsafeBufferPointer(rebasing: text[starts[k]..<starts[k + 1]])
    }
    var cset = [UInt8](repeating: 0, count: maxName)
    for (k, b) in line(0).enumerated() { cset[k] = (b == 0x0D || b == 0x0A) ? 0 : b }
    let utf8 = cset.prefix { $0 != 0 }.elementsEqual("UTF-8".utf8)
    let scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: Level.scratchSize)
    defer { scratch.deallocate() }

    var levels: [Level] = []
    var next = 1
    var nextLevel = false
    for k in 0..<2 {
      var level = Level(lines: k == 0 ? starts.count : 8)
      if k == 0 || nextLevel {
        while next < starts.count - 1 {
          let current = line(next)
          next += 1
          if current.first == UInt8(ascii: "N") && current.starts(with: "NEXTLEVEL".utf8) {
            nextLevel = true
            break
          } else if current.first != UInt8(ascii: "%") {
            guard level.loadLine(current, utf8: utf8, scratch: scratch) else { return nil }
          }
        }
      } else {
        guard level.loadDefaults(utf8: utf8, scratch: scratch) else { return nil }
      }
      level.computeFallbacks()
      levels.append(level)
    }
    return chain(
      levels[0].materialize(cset: cset, utf8: utf8),
      levels[1].materialize(cset: cset, utf8: utf8), nextLevel: nextLevel)
  }

  /// The head of the two levels as hnj_hyphen_load links them: the file's own second level
  /// after NEXTLEVEL, or else the default level first with the file's patterns as its next.
  static func chain(
    _ d0: UnsafeMutablePointer<HyphenDict>, _ d1: UnsafeMutablePointer<HyphenDict>,
    nextLevel: Bool
  ) -> UnsafeMutablePointer<HyphenDict> {
    if nextLevel {
      d0.pointee.nextlevel = d1
      return d0
    }
    d1.pointee.nextlevel = d0
    d1.pointee.lhmin = d0.pointee.lhmin
    d1.pointee.rhmin = d0.pointee.rhmin
    d1.pointee.clhmin =
      d0.pointee.clhmin != 0 ? d0.pointee.clhmin : (d0.pointee.lhmin != 0 ? d0.pointee.lhmin : 3)
    d1.pointee.crhmin =
      d0.pointee.crhmin != 0 ? d0.pointee.crhmin : (d0.pointee.rhmin != 0 ? d0.pointee.rhmin : 3)
    return d1
  }

  /// C's atoi over a byte string: leading white space, a sign, digits.
  static func atoi(_ s: some Collection<UInt8>) -> Int32 {
    var i = s.startIndex
    while i != s.endIndex, [0x20, 0x09, 0x0A, 0x0B, 0x0C, 0x0D].contains(s[i]) {
      i = s.index(after: i)
    }
    var negative = false
    if i != s.endIndex, s[i] == 0x2B || s[i] == 0x2D {
      negative = s[i] == 0x2D
      i = s.index(after: i)
    }
    var v: Int32 = 0
    while i != s.endIndex, s[i] >= 0x30, s[i] <= 0x39 {
      v = v &* 10 &+ Int32(s[i] - 0x30)
      i = s.index(after: i)
    }
    return negative ? 0 &- v : v
  }
}

extension PatternLoader {
  /// A state of a level being built. Its match and replacement are ranges of the level's
  /// string pool (−1: none); its transitions a linked list in creation order.
  struct State {
    var match: Int32 = -1
    var matchLength: Int32 = 0
    var repl: Int32 = -1
    var replLength: Int32 = 0
    var replIndex: Int8 = 0
    var replCut: Int8 = 0
    var firstTrans: Int32 = -1
    var lastTrans: Int32 = -1
    var transCount: Int32 = 0
    var fallback: Int32 = -1
  }

  /// A transition: its byte, its target state and the state's next transition (or −1).
  struct Transition {
    var ch: UInt8
    var to: Int32
    var next: Int32
  }

  /// A pattern's replacement (`/repl,index,cut`): the string's range in its line.
  struct Replacement {
    var start: Int
    var end: Int
    var index: Int8
    var cut: Int8
  }

  /// One level of patterns being built: the trie of states in creation order, in flat
  /// arrays (German has hundreds of thousands of states).
  struct Level {
    /// Bytes of the scratch buffer `loadLine` needs: a line's letters, then its digits.
    static let scratchSize = 2 * (maxLine + 1)

    var states: [State] = [State()]
    var transitions: [Transition] = []
    /// The match and replacement strings, back to back.
    var pool: [UInt8] = []
    var lhmin: Int8 = 0
    var rhmin: Int8 = 0
    var clhmin: Int8 = 0
    var crhmin: Int8 = 0
    var nohyphen: [UInt8]? = nil
    var nohyphenCount: Int32 = 0

    /// The root's transitions by byte (it has the most; every lookup starts there).
    var rootNext = [Int32](repeating: -1, count: 256)
    /// The previous pattern's letters and the states spelling their prefixes (`path[k]`
    /// spells the first k): the file's patterns come sorted, so a pattern's walk starts
    /// where its common prefix with the previous one ends.
    var previousWord = [UInt8](repeating: 0, count: maxLine)
    var previousCount = 0
    var path = [Int32](repeating: 0, count: maxLine + 1)

    /// An empty level sized for a file of `lines` lines (about two states a pattern).
    init(lines: Int) {
      states.reserveCapacity(2 * lines)
      transitions.reserveCapacity(2 * lines)
      pool.reserveCapacity(8 * lines)
    }

    var count: Int { states.count }

    @inline(__always) func child(_ state: Int32, _ c: UInt8) -> Int32 {
      if state == 0 { return rootNext[Int(c)] }
      var t = states[Int(state)].firstTrans
      while t >= 0 {
        let transition = transitions[Int(t)]
        if transition.ch == c { return transition.to }
        t = transition.next
      }
      return -1
    }

    mutating func create() -> Int32 {
      states.append(State())
      return Int32(states.count - 1)
    }

    mutating func addTransition(from state: Int32, _ ch: UInt8, to target: Int32) {
      let t = Int32(transitions.count)
      transitions.append(Transition(ch: ch, to: target, next: -1))
      let s = Int(state)
      let last = states[s].lastTrans
      if last >= 0 { transitions[Int(last)].next = t } else { states[s].firstTrans = t }
      states[s].lastTrans = t
      states[s].transCount += 1
      if s == 0 { rootNext[Int(ch)] = target }
    }

    /// The default second level hnj_hyphen_load adds when the file has none.
    mutating func loadDefaults(utf8: Bool, scratch: UnsafeMutablePointer<UInt8>) -> Bool {
      let defaults: [String] =
        utf8
        ? ["NOHYPHEN ',\u{2013},\u{2019},-\n", "1-1\n", "1'1\n", "1\u{2013}1\n", "1\u{2019}1\n"]
        : ["NOHYPHEN ',-\n", "1-1\n", "1'1\n"]
      for line in defaults {
        let ok = Array(line.utf8).withUnsafeBufferPointer {
          loadLine($0, utf8: utf8, scratch: scratch)
        }
        guard ok else { return false }
      }
      return true
    }

    /// A keyword line's setting; nil when the line is not a keyword (it is a pattern),
    /// false when it cannot be modelled.
    mutating func loadKeyword(_ line: UnsafeBufferPointer<UInt8>) -> Bool? {
      func keyword(_ k: String) -> Bool { line.starts(with: k.utf8) }
      func number(after k: Int) -> Int8 {
        Int8(truncatingIfNeeded: PatternLoader.atoi(line[k...]))
      }
      if keyword("LEFTHYPHENMIN") {
        lhmin = number(after: 13)
      } else if keyword("RIGHTHYPHENMIN") {
        rhmin = number(after: 14)
      } else if keyword("COMPOUNDLEFTHYPHENMIN") {
        clhmin = number(after: 21)
      } else if keyword("COMPOUNDRIGHTHYPHENMIN") {
        crhmin = number(after: 22)
      } else if keyword("NOHYPHEN") {
        var sp = 8
        while sp < line.count, line[sp] == 0x20 || line[sp] == 0x09 { sp += 1 }
        var nh = Array(line[sp...])
        guard !nh.isEmpty else { return false }
        nh[nh.count - 1] = 0
        var k = nh.count - 2
        while k > 0 {
          if nh[k] == UInt8(ascii: ",") {
            nohyphenCount += 1
            nh[k] = 0
          }
          k -= 1
        }
        nohyphen = nh
      } else {
        return nil
      }
      return true
    }

    /// The replacement of a line whose pattern ends at `slash`, as hnj_hyphen_load_line
    /// reads it.
    static func replacement(_ line: UnsafeBufferPointer<UInt8>, slash: Int) -> Replacement {
      let after = slash + 1
      if let comma = line[after...].firstIndex(of: UInt8(ascii: ",")) {
        var r = Replacement(start: after, end: comma, index: 0, cut: 0)
        if let comma2 = line[(comma + 1)...].firstIndex(of: UInt8(ascii: ",")) {
          let i0 = Int8(truncatingIfNeeded: PatternLoader.atoi(line[(comma + 1)..<comma2]))
          r.index = Int8(truncatingIfNeeded: Int(i0) - 1)
          r.cut = Int8(truncatingIfNeeded: PatternLoader.atoi(line[(comma2 + 1)...]))
        }
        return r
      }
      // hnj_strchomp: a trailing CR or LF, and a CR before the last byte.
      let k = line.count - after
      var keep = k
      if k > 0 && (line[line.count - 1] == 0x0D || line[line.count - 1] == 0x0A) { keep = k - 1 }
      if k > 1 && line[line.count - 2] == 0x0D { keep = min(keep, k - 2) }
      return Replacement(
        start: after, end: after + keep, index: 0, cut: Int8(truncatingIfNeeded: slash))
    }

    /// A UTF-8 replacement's index and cut in bytes from its index and cut in characters.
    static func byteOffsets(
      _ r: inout Replacement, word: UnsafeMutablePointer<UInt8>, count: Int, dotted: Bool
    ) {
      var pu = -1
      var ps = -1
      var pc = dotted ? 1 : 0
      while pc < count + 1 {
        let byte = pc < count ? word[pc] : 0
        if byte >> 6 != 2 { pu += 1 }
        if ps < 0 && Int(r.index) == pu {
          ps = Int(r.index)
          r.index = Int8(truncatingIfNeeded: pc)
        }
        if ps >= 0 && pu - ps == Int(r.cut) {
          r.cut = Int8(truncatingIfNeeded: pc - Int(r.index))
          break
        }
        pc += 1
      }
      if dotted { r.index = r.index &- 1 }
    }

    /// One line as hnj_hyphen_load_line reads it; false when it cannot be modelled. Its
    /// letters go to `scratch`, its digits after them (`scratchSize` bytes).
    mutating func loadLine(
      _ line: UnsafeBufferPointer<UInt8>, utf8: Bool, scratch: UnsafeMutablePointer<UInt8>
    ) -> Bool {
      let lead = line.first ?? 0
      if lead == UInt8(ascii: "L") || lead == UInt8(ascii: "R") || lead == UInt8(ascii: "C")
        || lead == UInt8(ascii: "N"), let handled = loadKeyword(line)
      {
        return handled
      }
      var end = line.count
      var repl: Replacement? = nil
      if let slash = line.firstIndex(of: UInt8(ascii: "/")) {
        repl = Level.replacement(line, slash: slash)
        end = slash
      }
      let word = scratch
      let pattern = scratch + (maxLine + 1)
      var letters = 0
      var digits = 1
      pattern[0] = 0x30
      for k in 0..<end {
        let b = line[k]
        if b <= 0x20 { break }
        if b >= 0x30 && b <= 0x39 {
          pattern[digits - 1] = b
        } else {
          word[letters] = b
          letters += 1
          pattern[digits] = 0x30
          digits += 1
        }
      }
      var i = 0
      if var r = repl {
        let dotted = letters > 0 && word[0] == UInt8(ascii: ".")
        if dotted { i += 1 }
        if utf8 { Level.byteOffsets(&r, word: word, count: letters, dotted: dotted) }
        repl = r
      } else {
        while i < digits, pattern[i] == 0x30 { i += 1 }
      }
      let s = Int(insert(word: word, count: letters))
      states[s].match = Int32(pool.count)
      states[s].matchLength = Int32(digits - i)
      pool.append(contentsOf: UnsafeBufferPointer(start: pattern + i, count: digits - i))
      if let r = repl {
        states[s].repl = Int32(pool.count)
        states[s].replLength = Int32(r.end - r.start)
        pool.append(contentsOf: UnsafeBufferPointer(rebasing: line[r.start..<r.end]))
        states[s].replIndex = r.index
        states[s].replCut = r.cut == 0 ? Int8(truncatingIfNeeded: letters) : r.cut
      } else {
        states[s].repl = -1
        states[s].replLength = 0
        states[s].replIndex = 0
        states[s].replCut = Int8(truncatingIfNeeded: letters)
      }
      return true
    }

    /// The state spelled by `count` bytes at `word`, created if new, with the states of its
    /// missing prefixes — the longest first, as hnj_hyphen_load numbers them — each linked
    /// to the next longer one.
    mutating func insert(word: UnsafeMutablePointer<UInt8>, count: Int) -> Int32 {
      var depth = 0
      let shared = min(count, previousCount)
      while depth < shared && word[depth] == previousWord[depth] { depth += 1 }
      var state = path[depth]
      while depth < count {
        let c = child(state, word[depth])
        if c < 0 { break }
        state = c
        depth += 1
        path[depth] = state
      }
      for k in 0..<count { previousWord[k] = word[k] }
      previousCount = count
      if depth == count { return state }
      let target = create()
      path[count] = target
      var last = target
      var j = count - 1
      while j > depth {
        let prefix = create()
        addTransition(from: prefix, word[j], to: last)
        path[j] = prefix
        last = prefix
        j -= 1
      }
      addTransition(from: state, word[depth], to: last)
      return target
    }

    /// Each state's fallback: the state of its longest proper suffix. Computed as
    /// Aho–Corasick failure links in breadth-first order (shorter keys first): the fallback
    /// of p·c is the first state on p's fallback chain with a transition on c (the root's
    /// children fall back to the root). Same result as trying every suffix, without the
    /// quadratic walks.
    mutating func computeFallbacks() {
      let n = count
      guard n > 1 else { return }
      var queue: [Int32] = [0]
      queue.reserveCapacity(n)
      var head = 0
      while head < queue.count {
        let a = Int(queue[head])
        head += 1
        var t = states[a].firstTrans
        while t >= 0 {
          let transition = transitions[Int(t)]
          var result: Int32 = 0
          if a > 0 {
            var r = states[a].fallback
            while r >= 0 {
              let c = child(r, transition.ch)
              if c >= 0 {
                result = c
                break
              }
              r = states[Int(r)].fallback
            }
          }
          states[Int(transition.to)].fallback = result
          queue.append(transition.to)
          t = transition.next
        }
      }
    }

    /// A malloc'd NUL-terminated copy of `length` pool bytes at `start`, nil for −1.
    private static func dup(_ pool: UnsafeBufferPointer<UInt8>, _ start: Int32, _ length: Int32)
      -> UnsafeMutablePointer<CChar>?
    {
      guard start >= 0 else { return nil }
      let p = malloc(Int(length) + 1)!.assumingMemoryBound(to: CChar.self)
      if length > 0 { memcpy(p, pool.baseAddress! + Int(start), Int(length)) }
      p[Int(length)] = 0
      return p
    }

    /// The level in malloc'd memory, laid out as libhyphen's own (hnj_hyphen_free frees it).
    func materialize(cset: [UInt8], utf8: Bool) -> UnsafeMutablePointer<HyphenDict> {
      let d = malloc(MemoryLayout<HyphenDict>.stride)!.bindMemory(to: HyphenDict.self, capacity: 1)
      d.initialize(to: HyphenDict())
      let n = count
      let out = malloc(MemoryLayout<HyphenState>.stride * n)!.bindMemory(
        to: HyphenState.self, capacity: n)
      pool.withUnsafeBufferPointer { pool in
        for s in 0..<n {
          let state = states[s]
          var t: UnsafeMutablePointer<HyphenTrans>? = nil
          let m = Int(state.transCount)
          if m > 0 {
            let p = malloc(MemoryLayout<HyphenTrans>.stride * m)!.bindMemory(
              to: HyphenTrans.self, capacity: m)
            var e = state.firstTrans
            var k = 0
            while e >= 0 {
              let transition = transitions[Int(e)]
              (p + k).initialize(
                to: HyphenTrans(ch: CChar(bitPattern: transition.ch), new_state: transition.to))
              k += 1
              e = transition.next
            }
            t = p
          }
          (out + s).initialize(
            to: HyphenState(
              match: Level.dup(pool, state.match, state.matchLength),
              repl: Level.dup(pool, state.repl, state.replLength), replindex: state.replIndex,
              replcut: state.replCut, fallback_state: state.fallback, num_trans: Int32(m),
              trans: t))
        }
      }
      d.pointee.lhmin = CChar(lhmin)
      d.pointee.rhmin = CChar(rhmin)
      d.pointee.clhmin = CChar(clhmin)
      d.pointee.crhmin = CChar(crhmin)
      d.pointee.nohyphen = nohyphen.map { nh in
        nh.withUnsafeBufferPointer { Level.dup($0, 0, Int32(nh.count)) }!
      }
      d.pointee.nohyphenl = nohyphenCount
      d.pointee.num_states = Int32(n)
      withUnsafeMutableBytes(of: &d.pointee.cset) { raw in
        for k in 0..<min(raw.count, cset.count) { raw[k] = cset[k] }
      }
      d.pointee.utf8 = utf8 ? 1 : 0
      d.pointee.states = out
      d.pointee.nextlevel = nil
      return d
    }
  }
}
