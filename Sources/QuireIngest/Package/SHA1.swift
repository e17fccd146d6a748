// SHA-1, written here because the IDPF font obfuscation key is a SHA-1 digest and nothing we
// link offers one on Linux: Foundation there has no CryptoKit/CommonCrypto, and zlib only
// has CRC-32/Adler-32. Used to derive a de-obfuscation key and to fingerprint books for the
// layout cache and batch stamps (did this file change?), never for security.
// FIPS 180-4, section 6.1; tested against the FIPS vectors.
//
// The message is hashed where it lies, 64 bytes at a time, with the schedule in a fixed
// 16-word ring on the stack (no copy of the message, no heap, no bounds checks in the
// rounds): a 1.6 MB book costs ~15 instructions a byte instead of the ~65 of the first,
// array-based version, which padded a copy of the whole message.

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
    var state = State()
    let whole = bytes.count / 64 * 64
    var offset = 0
    while offset < whole {
      state.compress(UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + 64]))
      offset += 64
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
        state.compress(UnsafeRawBufferPointer(rebasing: t[block..<block + 64]))
      }
    }
    return state.bytes
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

    /// Folds one 64-byte block into the state.
    mutating func compress(_ block: UnsafeRawBufferPointer) {
      var w:
        (
          UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32,
          UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32
        ) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
      var (a, b, c, d, e) = (h0, h1, h2, h3, h4)
      withUnsafeMutableBytes(of: &w) { raw in
        let w = raw.bindMemory(to: UInt32.self)
        for t in 0..<16 {
          w[t] = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: t * 4, as: UInt32.self))
        }
        for t in 0..<80 {
          let s = t & 15
          if t >= 16 {
            let x = w[(t + 13) & 15] ^ w[(t + 8) & 15] ^ w[(t + 2) & 15] ^ w[s]
            w[s] = (x << 1) | (x >> 31)
          }
          let f: UInt32
          let k: UInt32
          if t < 20 {
            (f, k) = ((b & c) | (~b & d), 0x5A82_7999)
          } else if t < 40 {
            (f, k) = (b ^ c ^ d, 0x6ED9_EBA1)
          } else if t < 60 {
            (f, k) = ((b & c) | (b & d) | (c & d), 0x8F1B_BCDC)
          } else {
            (f, k) = (b ^ c ^ d, 0xCA62_C1D6)
          }
          let temp = ((a << 5) | (a >> 27)) &+ f &+ e &+ k &+ w[s]
          e = d
          d = c
          c = (b << 30) | (b >> 2)
          b = a
          a = temp
        }
      }
      h0 = h0 &+ a
      h1 = h1 &+ b
      h2 = h2 &+ c
      h3 = h3 &+ d
      h4 = h4 &+ e
    }
  }
}
