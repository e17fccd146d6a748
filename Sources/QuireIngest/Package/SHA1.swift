// SHA-1, written here because the IDPF font obfuscation key is a SHA-1 digest and nothing we
// link offers one on Linux: Foundation there has no CryptoKit/CommonCrypto, and zlib only
// has CRC-32/Adler-32. Used to derive a de-obfuscation key and to fingerprint a batch's books
// (did this file change?), never for security.
// FIPS 180-4, section 6.1; tested against the "abc" vector.

import Foundation

package enum SHA1 {
  /// The 20-byte digest of `message`.
  package static func digest(_ message: some Collection<UInt8>) -> [UInt8] {
    var h: [UInt32] = [0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0]
    var bytes = Array(message)
    let bitLength = UInt64(bytes.count) &* 8
    bytes.append(0x80)
    while bytes.count % 64 != 56 { bytes.append(0) }
    for i in (0..<8).reversed() {
      bytes.append(UInt8(truncatingIfNeeded: bitLength >> (UInt64(i) * 8)))
    }
    var w = [UInt32](repeating: 0, count: 80)
    for chunk in stride(from: 0, to: bytes.count, by: 64) {
      for t in 0..<16 {
        let i = chunk + t * 4
        w[t] =
          UInt32(bytes[i]) << 24 | UInt32(bytes[i + 1]) << 16 | UInt32(bytes[i + 2]) << 8
          | UInt32(bytes[i + 3])
      }
      for t in 16..<80 {
        let x = w[t - 3] ^ w[t - 8] ^ w[t - 14] ^ w[t - 16]
        w[t] = (x << 1) | (x >> 31)
      }
      var (a, b, c, d, e) = (h[0], h[1], h[2], h[3], h[4])
      for t in 0..<80 {
        let f: UInt32
        let k: UInt32
        switch t {
        case 0..<20: (f, k) = ((b & c) | (~b & d), 0x5A82_7999)
        case 20..<40: (f, k) = (b ^ c ^ d, 0x6ED9_EBA1)
        case 40..<60: (f, k) = ((b & c) | (b & d) | (c & d), 0x8F1B_BCDC)
        default: (f, k) = (b ^ c ^ d, 0xCA62_C1D6)
        }
        let temp = ((a << 5) | (a >> 27)) &+ f &+ e &+ k &+ w[t]
        e = d
        d = c
        c = (b << 30) | (b >> 2)
        b = a
        a = temp
      }
      h[0] = h[0] &+ a
      h[1] = h[1] &+ b
      h[2] = h[2] &+ c
      h[3] = h[3] &+ d
      h[4] = h[4] &+ e
    }
    return h.flatMap { v in (0..<4).map { UInt8(truncatingIfNeeded: v >> (24 - $0 * 8)) } }
  }
}
