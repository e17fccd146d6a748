// The references of an SVG document, resolved inside the book before librsvg sees it (see
// SVGRasterizer.swift): every `href="…"` / `xlink:href='…'` attribute value that is not a
// fragment (`#id`) or a `data:` URL is resolved against the SVG's own href; an image found in
// the book is inlined as a base64 `data:` URL, anything else becomes "#" (nothing). One
// linear pass over the bytes; the inlined bytes are capped.

import Foundation
import QuireIngest

enum SVGReferences {
  /// `data` with its references resolved; unchanged when there is nothing to resolve.
  static func inlined(_ data: Data, href: String, resources: ((String) -> Data?)?) -> Data {
    let b = [UInt8](data)
    let key = Array("href".utf8)
    var out: [UInt8] = []
    out.reserveCapacity(b.count)
    var copied = 0
    var embedded = 0
    var embeddedBytes = 0
    var i = 0
    while i + key.count < b.count {
      guard b[i] == key[0], b[i + 1] == key[1], b[i + 2] == key[2], b[i + 3] == key[3],
        let (start, end) = value(after: i + key.count, in: b)
      else {
        i += 1
        continue
      }
      let raw = String(decoding: b[start..<end], as: UTF8.self)
      var replacement: String? = nil
      let trimmed = raw.trimmingCharacters(in: .whitespacesAndNewlines)
      if !trimmed.hasPrefix("#"), !trimmed.lowercased().hasPrefix("data:") {
        replacement = "#"
        if let resources, !hasScheme(trimmed), embedded < SVGRasterizer.maxEmbedded,
          let target = resources(PathResolver.resolve(unescaped(trimmed), against: href)),
          embeddedBytes + target.count <= SVGRasterizer.maxEmbeddedBytes
        {
          embedded += 1
          embeddedBytes += target.count
          replacement = "data:\(mediaType(target));base64,\(target.base64EncodedString())"
        }
      }
      if let replacement {
        out.append(contentsOf: b[copied..<start])
        out.append(contentsOf: Array(replacement.utf8))
        copied = end
      }
      i = end
    }
    if copied == 0 { return data }
    out.append(contentsOf: b[copied...])
    return Data(out)
  }

  /// The quoted value of an attribute whose name ends at `i` ("href" `=` quote … quote):
  /// the range between the quotes, nil when `i` is not followed by `=` and a quote.
  private static func value(after i: Int, in b: [UInt8]) -> (Int, Int)? {
    var j = i
    func skipSpace() {
      while j < b.count, b[j] == 0x20 || b[j] == 0x09 || b[j] == 0x0A || b[j] == 0x0D { j += 1 }
    }
    skipSpace()
    guard j < b.count, b[j] == UInt8(ascii: "=") else { return nil }
    j += 1
    skipSpace()
    guard j < b.count, b[j] == UInt8(ascii: "\"") || b[j] == UInt8(ascii: "'") else { return nil }
    let quote = b[j]
    let start = j + 1
    guard let end = b[start...].firstIndex(of: quote) else { return nil }
    return (start, end)
  }

  /// Whether `s` is an absolute URL (`file:`, `http:`…): never looked up.
  private static func hasScheme(_ s: String) -> Bool {
    guard let colon = s.firstIndex(of: ":") else { return false }
    return s[..<colon].allSatisfy { $0.isLetter || $0.isNumber || "+-.".contains($0) }
  }

  /// The five predefined XML entities in an attribute value, replaced.
  private static func unescaped(_ s: String) -> String {
    guard s.contains("&") else { return s }
    return s.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
      .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&apos;", with: "'")
      .replacingOccurrences(of: "&amp;", with: "&")
  }

  /// The media type of an inlined image, from its first bytes.
  private static func mediaType(_ d: Data) -> String {
    if d.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return "image/png" }
    if d.starts(with: [0xFF, 0xD8, 0xFF]) { return "image/jpeg" }
    if d.starts(with: [0x47, 0x49, 0x46]) { return "image/gif" }
    if SVGRasterizer.isSVG(d) { return "image/svg+xml" }
    return "application/octet-stream"
  }
}
