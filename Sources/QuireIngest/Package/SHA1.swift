// SHA-1, written here because the IDPF font obfuscation key is a SHA-1 digest and nothing we
// link offers one on Linux: Foundation there has no CryptoKit/CommonCrypto, and zlib only
// has CRC-32/Adler-32. Used to derive a de-obfuscation key and to fingerprint books for the
// layout cache and batch stamps (did this file change?), never for security.
// FIPS 180-4, section 6.1; tested against the FIPS vectors.
//
// The message is hashed where it lies, 64 bytes at a time, with the 80-word schedule in one
// temporary allocation expanded before the rounds, which run in four branch-free loops of
// twenty, five rounds per step with the words' roles rotated instead of moved (no copy of
// the message, no heap per block, no bounds checks): ~23 instructions a byte (callgrind,
// moby-dick's 1.6 MB: 38.3 M) against ~53 for the 16-word ring with a branch per round it
// replaced (86.6 M), itself faster than the first, array-based version.

import Foundation

package enum SHA1 {
  /// The 20-byte digest of `message`.
  package static func digest(_ message: some Collection<UInt8>) -> [UInt8] {
    if let digest = message.withContiguousStorageIfAvailable({ digest(UnsafeRawBufferPointer($0)) })
    {
      return digest
    }
    return Array(message).withUnsafeBytes { digest($0) }
  }

  /// Lower-case hexadecimal of `bytes` (a digest as it is spelled in file names and keys).
  package static func hex(_ bytes: [UInt8]) -> String {
    let digits = Array("0123456789abcdef".utf8)
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count * 2)
    for b in bytes {
      out.append(digits[Int(b >> 4)])
      out.append(digits[Int(b & 15)])
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// The 20-byte digest of the bytes of `data`.
  package static func digest(_ data: Data) -> [UInt8] {
    data.withUnsafeBytes { digest($0) }
  }

  /// The 20-byte digest of `bytes`.
  package static func digest(_ bytes: UnsafeRawBufferPointer) -> [UInt8] {
    withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 80) { schedule in
      let w = schedule.baseAddress!
      var state = State()
      let whole = bytes.count / 64 * 64
      var offset = 0
      if let base = bytes.baseAddress {
        while offset < whole {
          state.compress(base + offset, schedule: w)
          offset += 64
        }
      }
      // The tail, the 0x80 marker, zero padding and the bit length in one or two blocks.
      var tail = [UInt8](bytes[whole...])
      tail.append(0x80)
      while tail.count % 64 != 56 { tail.append(0) }
      let bitLength = UInt64(bytes.count) &* 8
      for i in (0..<8).reversed() {
        tail.append(UInt8(truncatingIfNeeded: bitLength >> (UInt64(i) * 8)))
      }
      tail.withUnsafeBytes { t in
        for block in stride(from: 0, to: t.count, by: 64) {
          state.compress(t.baseAddress! + block, schedule: w)
        }
      }
      return state.bytes
    }
  }

  /// The five chaining words.
  private struct State {
    var h0: UInt32 = 0x6745_2301
    var h1: UInt32 = 0xEFCD_AB89
    var h2: UInt32 = 0x98BA_DCFE
    var h3: UInt32 = 0x1032_5476
    var h4: UInt32 = 0xC3D2_E1F0

    var bytes: [UInt8] {
      [h0, h1, h2, h3, h4].flatMap { v in
        (0..<4).map { UInt8(truncatingIfNeeded: v >> (24 - $0 * 8)) }
      }
    }

    /// Folds the 64-byte block at `block` into the state; `w` is room for the 80-word
    /// message schedule. The schedule is expanded first and the rounds run in four loops of
    /// twenty, one per round function, so no round tests which function is its.
    @inline(__always)
    mutating func compress(_ block: UnsafeRawPointer, schedule w: UnsafeMutablePointer<UInt32>) {
      for t in 0..<16 {
        w[t] = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: t &* 4, as: UInt32.self))
      }
      for t in 16..<80 {
        let x = w[t &- 3] ^ w[t &- 8] ^ w[t &- 14] ^ w[t &- 16]
        w[t] = (x << 1) | (x >> 31)
      }
      var (a, b, c, d, e) = (h0, h1, h2, h3, h4)
      // Five rounds per step with the roles of the words rotated instead of moved: after
      // them a…e hold what they would hold after five rounds of `e = d; d = c; …`.
      @inline(__always) func step(_ t: Int, _ k: UInt32, _ f: (UInt32, UInt32, UInt32) -> UInt32) {
        e = e &+ ((a << 5) | (a >> 27)) &+ f(b, c, d) &+ k &+ w[t]
        b = (b << 30) | (b >> 2)
        d = d &+ ((e << 5) | (e >> 27)) &+ f(a, b, c) &+ k &+ w[t &+ 1]
        a = (a << 30) | (a >> 2)
        c = c &+ ((d << 5) | (d >> 27)) &+ f(e, a, b) &+ k &+ w[t &+ 2]
        e = (e << 30) | (e >> 2)
        b = b &+ ((c << 5) | (c >> 27)) &+ f(d, e, a) &+ k &+ w[t &+ 3]
        d = (d << 30) | (d >> 2)
        a = a &+ ((b << 5) | (b >> 27)) &+ f(c, d, e) &+ k &+ w[t &+ 4]
        c = (c << 30) | (c >> 2)
      }
      for t in stride(from: 0, to: 20, by: 5) { step(t, 0x5A82_7999) { $2 ^ ($0 & ($1 ^ $2)) } }
      for t in stride(from: 20, to: 40, by: 5) { step(t, 0x6ED9_EBA1) { $0 ^ $1 ^ $2 } }
      for t in stride(from: 40, to: 60, by: 5) {
        step(t, 0x8F1B_BCDC) { ($0 & $1) | ($2 & ($0 | $1)) }
      }
      for t in stride(from: 60, to: 80, by: 5) { step(t, 0xCA62_C1D6) { $0 ^ $1 ^ $2 } }
      h0 = h0 &+ a
      h1 = h1 &+ b
      h2 = h2 &+ c
      h3 = h3 &+ d
      h4 = h4 &+ e
    }
  }
}
