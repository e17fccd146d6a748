// Intrinsic sizes of SVG documents for layout, without a renderer: the root `<svg>` start
// tag's `width`, `height` and `viewBox`, as CSS 2 §10.3.2 and SVG 2 §8.2 size a replaced
// element. Absolute units become CSS px (96 dpi; em = 16 px, ex = 8 px); percentages and
// `auto` are no size. One side and a viewBox give the other side by the viewBox's ratio;
// no side gives the viewBox's own size; nothing usable gives nil (the sizing rules then
// fall back as for an image whose size is unknown). The raster stage asks librsvg the same
// question when it draws; for documents with absolute sizes or a viewBox both agree.
//
// Bounded: the start tag is looked for in the first 64 KB only, and read to its `>`.

import Foundation

/// The intrinsic size of an SVG document from its root element, CSS px.
package enum SVGSize {
  package static func of(_ data: Data) -> (width: Double, height: Double)? {
    let text = String(decoding: data.prefix(1 << 16), as: UTF8.self)
    guard let tag = rootTag(text) else { return nil }
    let width = attribute("width", in: tag).flatMap(length)
    let height = attribute("height", in: tag).flatMap(length)
    let box = (attribute("viewBox", in: tag) ?? attribute("viewbox", in: tag)).flatMap(viewBox)
    switch (width, height, box) {
    case (let w?, let h?, _): return (w, h)
    case (let w?, nil, let b?): return (w, w * b.height / b.width)
    case (nil, let h?, let b?): return (h * b.width / b.height, h)
    case (nil, nil, let b?): return b
    default: return nil
    }
  }

  /// The text of the first `<svg …>` (or `<prefix:svg …>`) start tag, without `<` and `>`.
  static func rootTag(_ text: String) -> Substring? {
    var search = text.startIndex
    while let open = text[search...].firstIndex(of: "<") {
      let rest = text[text.index(after: open)...]
      let name = rest.prefix { !$0.isWhitespace && $0 != ">" && $0 != "/" }
      if name == "svg" || name.hasSuffix(":svg") {
        guard let close = rest.firstIndex(of: ">") else { return nil }
        return rest[..<close]
      }
      search = text.index(after: open)
    }
    return nil
  }

  /// The value of ` name="…"` (or single-quoted) in a start tag.
  static func attribute(_ name: String, in tag: Substring) -> String? {
    var search = tag.startIndex
    while let r = tag.range(of: name, range: search..<tag.endIndex) {
      search = r.upperBound
      guard r.lowerBound > tag.startIndex, tag[tag.index(before: r.lowerBound)].isWhitespace
      else { continue }
      var rest = tag[r.upperBound...].drop { $0.isWhitespace }
      guard rest.first == "=" else { continue }
      rest = rest.dropFirst().drop { $0.isWhitespace }
      guard let quote = rest.first, quote == "\"" || quote == "'" else { continue }
      rest = rest.dropFirst()
      guard let end = rest.firstIndex(of: quote) else { return nil }
      return String(rest[..<end])
    }
    return nil
  }

  /// An absolute length in CSS px; nil for percentages, `auto`, zero or nonsense.
  static func length(_ s: String) -> Double? {
    let t = s.trimmingCharacters(in: .whitespaces).lowercased()
    let number = t.prefix { $0.isNumber || $0 == "." || $0 == "-" || $0 == "+" || $0 == "e" }
    guard let v = Double(number), v.isFinite, v > 0 else { return nil }
    let scale: Double
    switch t.dropFirst(number.count) {
    case "", "px": scale = 1
    case "pt": scale = 96 / 72
    case "pc": scale = 16
    case "in": scale = 96
    case "cm": scale = 96 / 2.54
    case "mm": scale = 96 / 25.4
    case "em": scale = 16
    case "ex": scale = 8
    default: return nil
    }
    return min(v * scale, 100_000)
  }

  /// The viewBox's width and height, when both are positive.
  static func viewBox(_ s: String) -> (width: Double, height: Double)? {
    let parts = s.split { $0 == " " || $0 == "," || $0.isWhitespace }.compactMap { Double($0) }
    guard parts.count == 4, parts[2].isFinite, parts[3].isFinite, parts[2] > 0, parts[3] > 0
    else { return nil }
    return (min(parts[2], 100_000), min(parts[3], 100_000))
  }
}
