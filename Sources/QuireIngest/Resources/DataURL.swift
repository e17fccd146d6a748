// `data:` URLs (RFC 2397, read as the WHATWG URL and fetch specs read them): the bytes of an
// image, a background or a font written into the href itself:
//
//     data:[<media type>][;charset=…][;base64],<data>
//
// The media type and parameters are optional and ignored (formats are sniffed from the
// bytes); the body is percent-decoded first and then, with `;base64`, decoded as "forgiving"
// base64 (ASCII white space dropped, padding optional), as browsers do.
//
// They are resolved where every other href is, in the book's `ResourceStore`, so `<img>`,
// CSS `url()` backgrounds and `@font-face` sources all accept them with no further code.
// Bounded: a URL longer than `maxEncodedBytes` is refused before any decoding, so a data URL
// can never hold more than a file of the book could; decoding is linear in its length.

import Foundation

/// Decodes `data:` URLs.
package enum DataURL {
  /// The longest data URL decoded (encoded characters): 32 MiB, far above any real image.
  package static let maxEncodedBytes = 32 << 20

  /// Why a data URL gives no bytes.
  package enum Failure: Error, Equatable, Sendable {
    /// No comma separates the header from the data.
    case malformed
    /// Longer than `maxEncodedBytes`.
    case tooLong(bytes: Int)
    /// Not valid base64.
    case badBase64
  }

  /// True for hrefs with the `data:` scheme (any case, leading white space allowed).
  package static func isDataURL(_ href: String) -> Bool {
    href.utf8.drop { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }.prefix(5)
      .map { $0 | 0x20 } == Array("data:".utf8)
  }

  /// The bytes a data URL holds.
  package static func decode(_ href: String) throws(Failure) -> Data {
    let utf8 = Array(href.utf8)
    guard utf8.count <= maxEncodedBytes else { throw .tooLong(bytes: utf8.count) }
    guard let colon = utf8.firstIndex(of: UInt8(ascii: ":")),
      let comma = utf8[colon...].firstIndex(of: UInt8(ascii: ","))
    else { throw .malformed }
    let header = String(decoding: utf8[(colon + 1)..<comma], as: UTF8.self)
    let base64 = header.split(separator: ";").contains {
      $0.trimmingCharacters(in: .whitespaces).lowercased() == "base64"
    }
    let body = percentDecoded(utf8[(comma + 1)...])
    guard base64 else { return Data(body) }
    let kept = body.filter { !($0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0C || $0 == 0x0D) }
    guard let decoded = Data(base64Encoded: Data(kept), options: []) ?? padded(kept) else {
      throw .badBase64
    }
    return decoded
  }

  /// Base64 without its `=` padding, which the forgiving decoder accepts.
  private static func padded(_ b: [UInt8]) -> Data? {
    guard b.count % 4 != 1, !b.contains(UInt8(ascii: "=")) else { return nil }
    let pad = [UInt8](repeating: UInt8(ascii: "="), count: (4 - b.count % 4) % 4)
    return Data(base64Encoded: Data(b + pad), options: [])
  }

  /// `%XX` escapes decoded; a `%` not followed by two hex digits stays as it is.
  private static func percentDecoded(_ s: ArraySlice<UInt8>) -> [UInt8] {
    func hex(_ c: UInt8) -> UInt8? {
      switch c {
      case 0x30...0x39: return c - 0x30
      case 0x41...0x46: return c - 0x41 + 10
      case 0x61...0x66: return c - 0x61 + 10
      default: return nil
      }
    }
    var out: [UInt8] = []
    out.reserveCapacity(s.count)
    var i = s.startIndex
    while i < s.endIndex {
      if s[i] == UInt8(ascii: "%"), i + 2 < s.endIndex, let h = hex(s[i + 1]), let l = hex(s[i + 2])
      {
        out.append(h << 4 | l)
        i += 3
      } else {
        out.append(s[i])
        i += 1
      }
    }
    return out
  }
}
