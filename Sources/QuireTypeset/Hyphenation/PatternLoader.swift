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
    if bytes.contains(0) { return nil }
    // Lines as fgets returns them (each with its newline, the last maybe without).
    var lines: [ArraySlice<UInt8>] = []
    var start = 0
    for (k, b) in bytes.enumerated() where b == 0x0A {
      lines.append(bytes[start...k])
      start = k + 1
    }
    if start < bytes.count { lines.append(bytes[start...]) }
    guard let first = lines.first, first.count <= maxName - 1 else { return nil }
    for line in lines where line.count > maxLine - 1 { return nil }
    var cset = [UInt8](repeating: 0, count: maxName)
    for (k, b) in first.enumerated() { cset[k] = (b == 0x0D || b == 0x0A) ? 0 : b }
    let csetName = cset.prefix { $0 != 0 }
    let utf8 = Array(csetName) == Array("UTF-8".utf8)

    var levels: [Level] = []
    var next = 1
    var nextLevel = false
    for k in 0..<2 {
      var level = Level()
      if k == 0 || nextLevel {
        while next < lines.count {
          let line = lines[next]
          next += 1
          if line.starts(with: "NEXTLEVEL".utf8) {
            nextLevel = true
            break
          } else if line.first != UInt8(ascii: "%") {
            guard level.loadLine(Array(line), utf8: utf8) else { return nil }
          }
        }
      } else {
        let defaults: [String] =
          utf8
          ? ["NOHYPHEN ',\u{2013},\u{2019},-\n", "1-1\n", "1'1\n", "1\u{2013}1\n", "1\u{2019}1\n"]
          : ["NOHYPHEN ',-\n", "1-1\n", "1'1\n"]
        for line in defaults {
          guard level.loadLine(Array(line.utf8), utf8: utf8) else { return nil }
        }
      }
      level.computeFallbacks()
      levels.append(level)
    }
    let d0 = levels[0].materialize(cset: cset, utf8: utf8)
    let d1 = levels[1].materialize(cset: cset, utf8: utf8)
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
  static func atoi(_ s: ArraySlice<UInt8>) -> Int32 {
    var i = s.startIndex
    while i < s.endIndex, [0x20, 0x09, 0x0A, 0x0B, 0x0C, 0x0D].contains(s[i]) { i += 1 }
    var negative = false
    if i < s.endIndex, s[i] == 0x2B || s[i] == 0x2D {
      negative = s[i] == 0x2D
      i += 1
    }
    var v: Int32 = 0
    while i < s.endIndex, s[i] >= 0x30, s[i] <= 0x39 {
      v = v &* 10 &+ Int32(s[i] - 0x30)
      i += 1
    }
    return negative ? 0 &- v : v
  }

  /// One level of patterns being built: the trie of states in creation order. Keys and
  /// transitions live in flat arrays (a state's transitions are a linked list in creation
  /// order), not an array per state: German has hundreds of thousands of states.
  struct Level {
    var keyBytes: [UInt8] = []
    var keyStart: [Int32] = [0]
    var keyLength: [Int32] = [0]
    var matches: [[UInt8]?] = [nil]
    var repls: [[UInt8]?] = [nil]
    var replIndex: [Int8] = [0]
    var replCut: [Int8] = [0]
    var firstTrans: [Int32] = [-1]
    var lastTrans: [Int32] = [-1]
    var transCount: [Int32] = [0]
    var transChar: [UInt8] = []
    var transTo: [Int32] = []
    var transNext: [Int32] = []
    var fallback: [Int32] = [-1]
    var lhmin: Int8 = 0
    var rhmin: Int8 = 0
    var clhmin: Int8 = 0
    var crhmin: Int8 = 0
    var nohyphen: [UInt8]? = nil
    var nohyphenCount: Int32 = 0

    /// The root's transitions by byte (it has the most; every lookup starts there).
    var rootNext = [Int32](repeating: -1, count: 256)

    var count: Int { keyStart.count }

    @inline(__always) func child(_ state: Int32, _ c: UInt8) -> Int32 {
      if state == 0 { return rootNext[Int(c)] }
      var t = firstTrans[Int(state)]
      while t >= 0 && transChar[Int(t)] != c { t = transNext[Int(t)] }
      return t < 0 ? -1 : transTo[Int(t)]
    }

    /// The state spelled `s`, or −1 (a walk from the root: the states are prefix-closed).
    func lookup(_ s: ArraySlice<UInt8>) -> Int32 {
      var state: Int32 = 0
      for c in s {
        state = child(state, c)
        if state < 0 { return -1 }
      }
      return state
    }

    mutating func create(_ key: ArraySlice<UInt8>) -> Int32 {
      keyStart.append(Int32(keyBytes.count))
      keyLength.append(Int32(key.count))
      keyBytes.append(contentsOf: key)
      matches.append(nil)
      repls.append(nil)
      replIndex.append(0)
      replCut.append(0)
      firstTrans.append(-1)
      lastTrans.append(-1)
      transCount.append(0)
      fallback.append(-1)
      return Int32(count - 1)
    }

    mutating func addTransition(from state: Int32, _ ch: UInt8, to target: Int32) {
      let t = Int32(transChar.count)
      transChar.append(ch)
      transTo.append(target)
      transNext.append(-1)
      let s = Int(state)
      if lastTrans[s] >= 0 { transNext[Int(lastTrans[s])] = t } else { firstTrans[s] = t }
      lastTrans[s] = t
      transCount[s] += 1
      if s == 0 { rootNext[Int(ch)] = target }
    }

    /// One line as hnj_hyphen_load_line reads it; false when it cannot be modelled.
    mutating func loadLine(_ line: [UInt8], utf8: Bool) -> Bool {
      func keyword(_ k: String) -> Bool { line.starts(with: k.utf8) }
      let lead = line.first ?? 0
      let maybeKeyword =
        lead == UInt8(ascii: "L") || lead == UInt8(ascii: "R") || lead == UInt8(ascii: "C")
        || lead == UInt8(ascii: "N")
      if !maybeKeyword {
      } else if keyword("LEFTHYPHENMIN") {
        lhmin = Int8(truncatingIfNeeded: PatternLoader.atoi(line[13...]))
        return true
      } else if keyword("RIGHTHYPHENMIN") {
        rhmin = Int8(truncatingIfNeeded: PatternLoader.atoi(line[14...]))
        return true
      } else if keyword("COMPOUNDLEFTHYPHENMIN") {
        clhmin = Int8(truncatingIfNeeded: PatternLoader.atoi(line[21...]))
        return true
      } else if keyword("COMPOUNDRIGHTHYPHENMIN") {
        crhmin = Int8(truncatingIfNeeded: PatternLoader.atoi(line[22...]))
        return true
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
        return true
      }
      var buf = ArraySlice(line)
      var repl: [UInt8]? = nil
      var rIndex: Int8 = 0
      var rCut: Int8 = 0
      if let slash = buf.firstIndex(of: UInt8(ascii: "/")) {
        let after = slash + 1
        if let comma = buf[after...].firstIndex(of: UInt8(ascii: ",")) {
          if let comma2 = buf[(comma + 1)...].firstIndex(of: UInt8(ascii: ",")) {
            let i0 = Int8(truncatingIfNeeded: PatternLoader.atoi(buf[(comma + 1)..<comma2]))
            rIndex = Int8(truncatingIfNeeded: Int(i0) - 1)
            rCut = Int8(truncatingIfNeeded: PatternLoader.atoi(buf[(comma2 + 1)...]))
          }
          repl = Array(buf[after..<comma])
        } else {
          // hnj_strchomp: a trailing CR or LF, and a CR before the last byte.
          let tail = Array(buf[after...])
          let k = tail.count
          var keep = k
          if k > 0 && (tail[k - 1] == 0x0D || tail[k - 1] == 0x0A) { keep = k - 1 }
          if k > 1 && tail[k - 2] == 0x0D { keep = min(keep, k - 2) }
          rIndex = 0
          rCut = Int8(truncatingIfNeeded: slash)
          repl = Array(tail[..<keep])
        }
        buf = buf[..<slash]
      }
      var word: [UInt8] = []
      var pattern: [UInt8] = [0x30]
      for b in buf {
        if b <= 0x20 { break }
        if b >= 0x30 && b <= 0x39 {
          pattern[pattern.count - 1] = b
        } else {
          word.append(b)
          pattern.append(0x30)
        }
      }
      var i = 0
      if repl == nil {
        while i < pattern.count, pattern[i] == 0x30 { i += 1 }
      } else {
        let dotted = word.first == UInt8(ascii: ".")
        if dotted { i += 1 }
        if utf8 {
          var pu = -1
          var ps = -1
          var pc = dotted ? 1 : 0
          while pc < word.count + 1 {
            let byte = pc < word.count ? word[pc] : 0
            if byte >> 6 != 2 { pu += 1 }
            if ps < 0 && Int(rIndex) == pu {
              ps = Int(rIndex)
              rIndex = Int8(truncatingIfNeeded: pc)
            }
            if ps >= 0 && pu - ps == Int(rCut) {
              rCut = Int8(truncatingIfNeeded: pc - Int(rIndex))
              break
            }
            pc += 1
          }
          if dotted { rIndex = rIndex &- 1 }
        }
      }
      var found = lookup(word[...])
      var state = found >= 0 ? found : create(word[...])
      let s = Int(state)
      matches[s] = Array(pattern[i...])
      repls[s] = repl
      replIndex[s] = rIndex
      replCut[s] = rCut == 0 ? Int8(truncatingIfNeeded: word.count) : rCut
      // The prefix transitions, up to the first prefix that already exists.
      var j = word.count
      while found < 0 && j > 0 {
        let last = state
        let ch = word[j - 1]
        j -= 1
        found = lookup(word[..<j])
        state = found >= 0 ? found : create(word[..<j])
        addTransition(from: state, ch, to: last)
      }
      return true
    }

    /// Each state's fallback: the state of its longest proper suffix. Computed as
    /// Aho–Corasick failure links, shortest keys first: the fallback of p·c is the first
    /// state on p's fallback chain with a transition on c (the root's children fall back to
    /// the root). Same result as trying every suffix, without the quadratic walks.
    mutating func computeFallbacks() {
      let n = count
      guard n > 1 else { return }
      var parent = [Int32](repeating: -1, count: n)
      var via = [UInt8](repeating: 0, count: n)
      for a in 0..<n {
        var t = firstTrans[a]
        while t >= 0 {
          parent[Int(transTo[Int(t)])] = Int32(a)
          via[Int(transTo[Int(t)])] = transChar[Int(t)]
          t = transNext[Int(t)]
        }
      }
      var maxLength = 0
      for s in 0..<n { maxLength = max(maxLength, Int(keyLength[s])) }
      var byLength = [[Int32]](repeating: [], count: maxLength + 1)
      for s in 1..<n { byLength[Int(keyLength[s])].append(Int32(s)) }
      for group in byLength {
        for s32 in group {
          let s = Int(s32)
          let p = parent[s]
          var result: Int32 = 0
          if p > 0 {
            var r = fallback[Int(p)]
            while r >= 0 {
              let t = child(r, via[s])
              if t >= 0 {
                result = t
                break
              }
              r = fallback[Int(r)]
            }
          }
          fallback[s] = result
        }
      }
    }

    private static func dup(_ b: [UInt8]?) -> UnsafeMutablePointer<CChar>? {
      guard let b else { return nil }
      let p = malloc(b.count + 1)!.assumingMemoryBound(to: CChar.self)
      for (k, x) in b.enumerated() { p[k] = CChar(bitPattern: x) }
      p[b.count] = 0
      return p
    }

    /// The level in malloc'd memory, laid out as libhyphen's own (hnj_hyphen_free frees it).
    func materialize(cset: [UInt8], utf8: Bool) -> UnsafeMutablePointer<HyphenDict> {
      let d = malloc(MemoryLayout<HyphenDict>.stride)!.bindMemory(to: HyphenDict.self, capacity: 1)
      d.initialize(to: HyphenDict())
      let n = count
      let states = malloc(MemoryLayout<HyphenState>.stride * n)!.bindMemory(
        to: HyphenState.self, capacity: n)
      for s in 0..<n {
        var t: UnsafeMutablePointer<HyphenTrans>? = nil
        let m = Int(transCount[s])
        if m > 0 {
          let p = malloc(MemoryLayout<HyphenTrans>.stride * m)!.bindMemory(
            to: HyphenTrans.self, capacity: m)
          var e = firstTrans[s]
          var k = 0
          while e >= 0 {
            (p + k).initialize(
              to: HyphenTrans(ch: CChar(bitPattern: transChar[Int(e)]), new_state: transTo[Int(e)]))
            k += 1
            e = transNext[Int(e)]
          }
          t = p
        }
        (states + s).initialize(
          to: HyphenState(
            match: Level.dup(matches[s]), repl: Level.dup(repls[s]), replindex: replIndex[s],
            replcut: replCut[s], fallback_state: fallback[s], num_trans: Int32(m),
            trans: t))
      }
      d.pointee.lhmin = CChar(lhmin)
      d.pointee.rhmin = CChar(rhmin)
      d.pointee.clhmin = CChar(clhmin)
      d.pointee.crhmin = CChar(crhmin)
      d.pointee.nohyphen = Level.dup(nohyphen)
      d.pointee.nohyphenl = nohyphenCount
      d.pointee.num_states = Int32(n)
      withUnsafeMutableBytes(of: &d.pointee.cset) { raw in
        for k in 0..<min(raw.count, cset.count) { raw[k] = cset[k] }
      }
      d.pointee.utf8 = utf8 ? 1 : 0
      d.pointee.states = states
      d.pointee.nextlevel = nil
      return d
    }
  }
}
