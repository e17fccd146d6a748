// LiangMatcher: Liang's pattern matching over the trie libhyphen loaded, for the words where
// it provably answers what hnj_hyphen_hyphenate2 answers, without its allocations.
//
// Why: on moby-dick libhyphen cost ~5.5 K instructions a word (67 M over 12 K words), most
// of it not matching: every call mallocs and frees seven buffers, and every dictionary
// Debian installs (but German's) has a first level that libhyphen adds itself, which only
// splits a word at hyphens and apostrophes ("1-1", "1'1", "1–1", "1’1") before running the
// dictionary's patterns on each part; our words are letter runs, so that level never splits
// them, and its pass, its buffers and the recursion into the second level are pure cost.
//
// What libhyphen does for such a word (hyphen 2.8.8, hnj_hyphen_hyph_ and
// hnj_hyphen_hyphenate2), and this does the same: the word is wrapped as ".word."; a state
// machine starts at state 0 and, for each byte, takes the state's transition on it (linear
// search, first match) or follows `fallback_state` and tries again, and a fallback of −1
// resets to state 0 and skips the byte; on reaching a state with a `match` of length m at
// byte i, each of its digits d_k raises raw[i + 1 − m + k] to d_k when larger (signed char
// comparison). The answer for byte k of the word is raw[k + 1] (the digit between byte k and
// byte k + 1 of the word); odd means a point. A UTF-8 dictionary then renumbers per
// character (`hnj_hyphen_norm`: a character keeps the value of its last byte).
//
// Where it is the same, checked once per dictionary (`init`) and once per word (`accepts`):
// - no state of either level has a replacement (`repl`: non-standard hyphenation, reported
//   through `rep` and skipped by the caller — libhyphen decides that per word);
// - the first level (when the dictionary has two) is small (≤ 64 states) and each of its
//   match states spells a byte other than '.', which goes into `stopBytes`: a word without
//   any stop byte never reaches a first-level match, so the first level marks no position
//   odd, libhyphen does not split it and runs the second level on the whole word with no
//   minimums of its own (lend = rend = 1);
// - the first byte of each NOHYPHEN string is a stop byte (a word without one contains no
//   such string, so hyphenate2's nohyphen pass changes nothing), and so are NUL and the
//   ASCII digits (which libhyphen would turn into '.' and count in its minimums);
// - libhyphen's own left/right minimums (lhmin, rhmin, 2 when unset) only clear positions
//   within that many characters of the ends, which the caller never reads: `Hyphenator`'s
//   `leftMin`/`rightMin` are at least those (checked: `coversMinimums`);
// - a match that would start before the wrapped word (a hostile trie) or a fallback chain
//   longer than the state count or a transition out of range sends the word to libhyphen.
// German's first level is its whole compound pattern set (278 K states): it stays with
// libhyphen. `LiangMatcherTests` compares both on every corpus word, every pattern's letters
// and random strings, for every installed dictionary.

import CHyphen
import Foundation

/// A dictionary's pattern level, matched in Swift for words libhyphen would not split.
struct LiangMatcher: @unchecked Sendable {
  /// The pattern level's states (`stateCount` of them; owned by the `Hyphenator`).
  private let states: UnsafeMutablePointer<HyphenState>
  private let stateCount: Int32
  /// Whether hnj_hyphen_hyphenate2 renumbers its answer per UTF-8 character.
  let utf8: Bool
  /// The minimums libhyphen applies itself (its lhmin/rhmin, 2 when unset).
  let leftMin: Int
  let rightMin: Int
  /// Bytes that send a word to libhyphen: four 64-bit words of a 256-bit set.
  private let stopBytes: (UInt64, UInt64, UInt64, UInt64)
  /// The transitions of state 0 and its children as rows of 256 targets (−1: none; the
  /// same first match the linear search finds), `rowOf` a state's row or −1: these states
  /// have the most transitions (en-US: 28 at the root) and are where most bytes are read
  /// (4.6 M of the matcher's 35.7 M on moby-dick, session 17).
  private let dense: [Int32]
  private let rowOf: [Int32]
  /// The longest word matched (the caller's buffers are sized for it).
  static let maxBytes = 4 * Hyphenator.maxWordLength

  /// The matcher of `dict`, nil when it cannot be shown to answer as libhyphen does.
  init?(_ dict: UnsafeMutablePointer<HyphenDict>) {
    let top = dict.pointee
    var stops = [UInt64](repeating: 0, count: 4)
    func stop(_ b: UInt8) { stops[Int(b >> 6)] |= 1 << UInt64(b & 63) }
    stop(0)
    for d in UInt8(ascii: "0")...UInt8(ascii: "9") { stop(d) }
    let patterns: HyphenDict
    if let next = top.nextlevel {
      patterns = next.pointee
      guard patterns.nextlevel == nil, top.num_states >= 1, top.num_states <= 64,
        let witnesses = LiangMatcher.firstLevelWitnesses(top)
      else { return nil }
      for b in witnesses { stop(b) }
    } else {
      patterns = top
    }
    guard patterns.num_states >= 1, let states = patterns.states,
      states[0].fallback_state == -1, let nohyphen = LiangMatcher.nohyphenFirstBytes(top)
    else { return nil }
    for b in nohyphen { stop(b) }
    for s in 0..<Int(patterns.num_states) where states[s].repl != nil { return nil }
    self.states = states
    stateCount = patterns.num_states
    utf8 = top.utf8 != 0
    leftMin = top.lhmin > 0 ? Int(top.lhmin) : 2
    rightMin = top.rhmin > 0 ? Int(top.rhmin) : 2
    stopBytes = (stops[0], stops[1], stops[2], stops[3])
    var rows = [Int32](repeating: -1, count: Int(patterns.num_states))
    var table: [Int32] = []
    var shallow: [Int32] = [0]
    for k in 0..<Int(max(0, states[0].num_trans)) { shallow.append(states[0].trans[k].new_state) }
    for s in shallow where s >= 0 && s < patterns.num_states && rows[Int(s)] < 0 {
      rows[Int(s)] = Int32(table.count / 256)
      var row = [Int32](repeating: -1, count: 256)
      let state = states[Int(s)]
      for k in (0..<Int(max(0, state.num_trans))).reversed() {
        row[Int(UInt8(bitPattern: state.trans[k].ch))] = state.trans[k].new_state
      }
      table += row
    }
    dense = table
    rowOf = rows
  }

  /// For each first-level state with a match, the first byte of its path that is not '.';
  /// nil when a state has a replacement or a match spelled by dots alone, or when the
  /// fallbacks are not what libhyphen's loaders build (the root's −1, every other state's a
  /// state spelling a proper suffix of its path): with those, the state reached always
  /// spells a suffix of the bytes read, so a match is reached only if its path was read.
  private static func firstLevelWitnesses(_ level: HyphenDict) -> [UInt8]? {
    guard let states = level.states, states[0].fallback_state == -1 else { return nil }
    let n = Int(level.num_states)
    var paths = [[UInt8]?](repeating: nil, count: n)
    paths[0] = []
    // Depth-first over the transitions; a state reached twice is not a trie (nil), so the
    // walk visits at most n states.
    var stack: [Int] = [0]
    while let s = stack.popLast() {
      let state = states[s]
      guard state.repl == nil, let path = paths[s] else { return nil }
      for k in 0..<Int(max(0, state.num_trans)) {
        let t = Int(state.trans[k].new_state)
        guard t > 0, t < n, paths[t] == nil else { return nil }
        paths[t] = path + [UInt8(bitPattern: state.trans[k].ch)]
        stack.append(t)
      }
    }
    var out: [UInt8] = []
    for s in 0..<n {
      guard let path = paths[s] else { return nil }
      if s > 0 {
        let f = Int(states[s].fallback_state)
        guard f >= 0, f < n, let suffix = paths[f], suffix.count < path.count,
          path.suffix(suffix.count).elementsEqual(suffix)
        else { return nil }
      }
      guard states[s].match != nil else { continue }
      guard let witness = path.first(where: { $0 != UInt8(ascii: ".") }) else { return nil }
      out.append(witness)
    }
    return out
  }

  /// The first byte of each NOHYPHEN string of `level` (none when it has none); nil when one
  /// is empty.
  private static func nohyphenFirstBytes(_ level: HyphenDict) -> [UInt8]? {
    guard var p = level.nohyphen else { return [] }
    var out: [UInt8] = []
    for _ in 0...max(0, Int(level.nohyphenl)) {
      let n = strlen(p)
      guard n > 0 else { return nil }
      out.append(UInt8(bitPattern: p[0]))
      p += n + 1
    }
    return out
  }

  /// Whether the caller's minimums hide every position libhyphen's own minimums clear.
  func coversMinimums(left: Int, right: Int) -> Bool { left >= leftMin && right >= rightMin }

  /// Whether `word` is free of stop bytes, well-formed at its start for a UTF-8 dictionary
  /// and short enough.
  @inline(__always) private func accepts(_ word: UnsafeBufferPointer<UInt8>) -> Bool {
    guard word.count >= 1, word.count <= LiangMatcher.maxBytes else { return false }
    if utf8 && word[0] & 0xC0 == 0x80 { return false }
    for b in word {
      let bit: UInt64 = 1 << UInt64(b & 63)
      let set: UInt64
      switch b >> 6 {
      case 0: set = stopBytes.0
      case 1: set = stopBytes.1
      case 2: set = stopBytes.2
      default: set = stopBytes.3
      }
      if set & bit != 0 { return false }
    }
    return true
  }

  /// hnj_hyphen_hyphenate2's `hyphens` for `word` when it `accepts` it, written to `hyphens`
  /// (capacity `word.count + 3`): entry k, for k from the left minimum − 1 to the character
  /// count − right minimum − 1 (in characters for a UTF-8 dictionary, else bytes), is odd
  /// exactly where libhyphen's is. False when the trie is outside what this models (then
  /// ask libhyphen).
  func hyphenate(_ word: UnsafeBufferPointer<UInt8>, into hyphens: UnsafeMutablePointer<Int8>)
    -> Bool
  {
    guard accepts(word) else { return false }
    let n = word.count
    let length = n + 2  // ".word."
    // raw[x]: the digit between wrapped bytes x and x + 1; raw = hyphens (n + 2 entries).
    let raw = hyphens
    raw.initialize(repeating: Int8(UInt8(ascii: "0")), count: length)
    var state: Int32 = 0
    for i in 0..<length {
      let ch = i == 0 || i == length - 1 ? UInt8(ascii: ".") : word[i - 1]
      guard let next = step(from: state, on: ch) else { return false }
      state = next
      guard state >= 0, let match = states[Int(state)].match else {
        state = max(state, 0)
        continue
      }
      let m = strlen(match)
      let offset = i + 1 - m
      guard offset >= 0 else { return false }
      for k in 0..<m where raw[offset + k] < match[k] { raw[offset + k] = match[k] }
    }
    // The word's byte k is answered by raw[k + 1]; a UTF-8 dictionary keeps one entry per
    // character, the one of its last byte.
    var c = 0
    for k in 0..<n {
      if utf8 && k + 1 < n && word[k + 1] & 0xC0 == 0x80 { continue }
      hyphens[c] = k + 1 < n ? raw[k + 1] : Int8(UInt8(ascii: "0"))  // libhyphen's last: '0'
      c += 1
    }
    return true
  }

  /// The state after `ch` from `state`: its transition, else the fallbacks' (−1: the byte
  /// is skipped, the next starts at state 0); nil when the trie leaves what libhyphen's
  /// loaders build (a target out of range, a fallback chain longer than the state count).
  @inline(__always) private func step(from start: Int32, on ch: UInt8) -> Int32? {
    var state = start
    for _ in 0...Int(stateCount) {
      if state == -1 { return -1 }
      guard state >= 0, state < stateCount else { return nil }
      let row = Int(rowOf[Int(state)])
      if row >= 0 {
        let t = dense[row &* 256 &+ Int(ch)]
        if t >= 0 { return t < stateCount ? t : nil }
        // The root's fallback is −1 in every loader's trie (checked in init).
        if state == 0 { return -1 }
        state = states[Int(state)].fallback_state
        continue
      }
      let s = states[Int(state)]
      let c = CChar(bitPattern: ch)
      for k in 0..<Int(max(0, s.num_trans)) where s.trans[k].ch == c {
        let t = s.trans[k].new_state
        return t >= 0 && t < stateCount ? t : nil
      }
      state = s.fallback_state
    }
    return nil
  }
}
