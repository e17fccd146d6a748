// CompiledPatterns: a hyphenation dictionary's pattern trie, built once and kept as a flat
// file in the layout cache folder, so a later process reads it back instead of building it.
//
// Why: building the trie from hyph_en_US.dic's text (PatternLoader) costs ~20 M instructions
// (~75 M before session 16), a large share of what a cached `render --pages N` does, and it
// is the same result every time. The compiled file holds libhyphen's own structure (HyphenDict levels,
// their states, transitions and strings) as fixed-width records with offsets instead of
// pointers; loading it is one read, a checksum, a validation pass and one pass filling a
// single malloc'd block with the structs and their pointers. hnj_hyphen_hyphenate2 walks
// that block exactly as it walks a dictionary hnj_hyphen_load built (the states, their
// order, transitions, fallbacks and strings are equal: `CompiledPatternsTests`); the block
// is released with one `free`, never with hnj_hyphen_free.
//
// Key: the file is named by the SHA-1 of the pattern file's bytes and this format's version
// (`version`, bumped with any change here or in PatternLoader that changes what is built),
// and the header repeats both. A changed pattern file has another name; an old file is left
// to the layout cache's LRU eviction (the `.qhy` suffix is one of its kinds).
//
// File format (little-endian):
//
//     0  8  magic "QUIREHY\n"
//     8  4  format version
//    12  4  CRC-32 of the payload (libdeflate)
//    16  8  payload length
//    24 20  SHA-1 of the pattern file the trie was built from
//    44  …  payload: level count L (4 bytes, 1 or 2, the first is the head, the second its
//           `nextlevel`); per level a 44-byte header (lhmin, rhmin, clhmin, crhmin, utf8 as
//           bytes, 3 zero bytes, cset 20 bytes, nohyphenl, nohyphen offset or −1, state count,
//           transition count: 4 bytes each), its states (20 bytes each: match offset or −1,
//           repl offset or −1, replindex, replcut, 2 zero bytes, fallback state, transition
//           count) and its transitions (5 bytes each: the byte, the target state), in state
//           order; then the string pool (4-byte length, the bytes, ending with a NUL).
//
// Hostile files: a truncated or garbled file fails the length or CRC-32 check; a forged one
// that passes them must still describe what a real dictionary builds — every state reached
// exactly once from the root through transitions (a tree, so depths are defined), every
// target and fallback in range with the fallback strictly shallower (no loop for libhyphen
// to walk forever), every match no longer than its state's depth plus one (libhyphen writes
// the match's digits ending at the current byte), strings inside the pool, which ends with a
// NUL. Anything else is a miss, and the dictionary is built from its text again.
//
// Rejected: an mmap'ed file walked in place. libhyphen's structures hold pointers, so a
// mapped file would need its pointers rewritten (every page copied on write) or a Liang
// matcher of our own over offsets (LiangMatcher walks the materialized pointers, and only
// for the dictionaries it models; libhyphen still needs them for the others).

import CDeflate
import CHyphen
import Foundation
import QuireCore
import QuireIngest

/// A pattern trie in its compiled, position-independent form.
package enum CompiledPatterns {
  static let magic = Array("QUIREHY\n".utf8)
  /// Bumped whenever this format or what PatternLoader builds changes.
  static let version: UInt32 = 1
  static let headerSize = 44
  static let levelHeaderSize = 44
  static let stateSize = 20
  static let transitionSize = 5
  /// The file name extension (one of the layout cache's kinds, so the LRU bound covers it).
  package static let suffix = ".qhy"
  /// The largest compiled file read (hyph_de_DE's is ~10 MB).
  static let maxFileBytes = 64 << 20
  /// The most states and transitions a level may have.
  static let maxStates = 4 << 20

  /// The file name of the compiled form of a pattern file whose bytes hash to `source`.
  static func fileName(source: [UInt8]) -> String {
    "hyph-" + SHA1.hex(source) + "-v\(version)" + suffix
  }

  // MARK: Encoding

  /// The compiled bytes of `dict` (its level chain), nil when it has more than two levels or
  /// does not fit the format's bounds.
  static func encode(_ dict: UnsafeMutablePointer<HyphenDict>, source: [UInt8]) -> [UInt8]? {
    var levels: [UnsafeMutablePointer<HyphenDict>] = [dict]
    if let next = dict.pointee.nextlevel { levels.append(next) }
    guard source.count == 20, levels.last?.pointee.nextlevel == nil else { return nil }
    var payload: [UInt8] = []
    var pool = StringPool()
    put(&payload, UInt32(levels.count))
    for level in levels {
      guard encodeLevel(level.pointee, into: &payload, pool: &pool) else { return nil }
    }
    put(&payload, UInt32(pool.bytes.count))
    payload += pool.bytes
    var out = magic
    out.reserveCapacity(headerSize + payload.count)
    put(&out, version)
    put(&out, crc(payload))
    put(&out, UInt64(payload.count))
    out += source
    out += payload
    return out
  }

  /// The strings of the states, each stored once per use, NUL-terminated.
  struct StringPool {
    var bytes: [UInt8] = []

    /// The offset of a copy of the C string `s` (with `extraNULs` more NUL-separated parts
    /// after it, as nohyphen has), or −1 for nil.
    mutating func add(_ s: UnsafePointer<CChar>?, extraNULs: Int = 0) -> Int32 {
      guard let s else { return -1 }
      let at = Int32(bytes.count)
      var p = s
      for _ in 0...extraNULs {
        let n = strlen(p)
        bytes.append(contentsOf: UnsafeRawBufferPointer(start: p, count: n))
        bytes.append(0)
        p += n + 1
      }
      return at
    }
  }

  private static func encodeLevel(
    _ d: HyphenDict, into out: inout [UInt8], pool: inout StringPool
  ) -> Bool {
    let n = Int(d.num_states)
    guard n >= 1, n <= maxStates, d.nohyphenl >= 0, d.nohyphenl < 1 << 16 else { return false }
    var transitions = 0
    for s in 0..<n { transitions += Int(max(0, d.states[s].num_trans)) }
    guard transitions <= maxStates else { return false }
    for v in [d.lhmin, d.rhmin, d.clhmin, d.crhmin] { out.append(UInt8(bitPattern: v)) }
    out += [d.utf8 != 0 ? 1 : 0, 0, 0, 0]
    withUnsafeBytes(of: d.cset) { out += $0.prefix(20) }
    put(&out, UInt32(bitPattern: d.nohyphenl))
    put(&out, UInt32(bitPattern: pool.add(d.nohyphen, extraNULs: Int(d.nohyphenl))))
    put(&out, UInt32(n))
    put(&out, UInt32(transitions))
    for s in 0..<n {
      let state = d.states[s]
      put(&out, UInt32(bitPattern: pool.add(state.match)))
      put(&out, UInt32(bitPattern: pool.add(state.repl)))
      out += [UInt8(bitPattern: state.replindex), UInt8(bitPattern: state.replcut), 0, 0]
      put(&out, UInt32(bitPattern: state.fallback_state))
      put(&out, UInt32(max(0, state.num_trans)))
    }
    for s in 0..<n {
      let state = d.states[s]
      for t in 0..<Int(max(0, state.num_trans)) {
        out.append(UInt8(bitPattern: state.trans[t].ch))
        put(&out, UInt32(bitPattern: state.trans[t].new_state))
      }
    }
    return true
  }

  static func crc(_ bytes: some ContiguousBytes) -> UInt32 {
    bytes.withUnsafeBytes { UInt32(libdeflate_crc32(0, $0.baseAddress, $0.count)) }
  }

  private static func put(_ out: inout [UInt8], _ v: UInt32) {
    for i in 0..<4 { out.append(UInt8(truncatingIfNeeded: v >> (8 * UInt32(i)))) }
  }

  private static func put(_ out: inout [UInt8], _ v: UInt64) {
    for i in 0..<8 { out.append(UInt8(truncatingIfNeeded: v >> (8 * UInt64(i)))) }
  }
}
