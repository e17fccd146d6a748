// The manifest's `math` list (with `--boxes`): one entry per formula on a page, its box in
// page pixels, whether it is display math, and its alttext or linear text form — the
// formula's characters are not in `lines`, so this is where its content is found. Also the
// `inlineBoxes` list: the line fragments of decorated inline boxes (padding, borders), each
// with its element's ordinal, which the browser oracle compares with `getClientRects` (a
// `::before`/`::after` box says which in `pseudo`).

import QuireIngest
import QuireTypeset

extension Manifest {
  struct MathInfo: Codable, Sendable {
    var x: Double
    var y: Double
    var width: Double
    var height: Double
    var display: Bool
    var text: String
  }

  /// A line fragment of a decorated inline box (`--boxes`): its border box and its
  /// element's ordinal in the chapter (`source`, as in `blocks`).
  struct InlineBoxInfo: Codable, Sendable {
    var source: Int
    /// "before" or "after" for a `::before`/`::after` box of element `source` (left out
    /// for the element's own box).
    var pseudo: String?
    var x: Double
    var y: Double
    var width: Double
    var height: Double
  }

  /// The page's inline box fragments, nil when it has none (the key is left out).
  static func inlineBoxInfo(_ p: Page) -> [InlineBoxInfo]? {
    guard !p.inlineBoxes.isEmpty else { return nil }
    return p.inlineBoxes.map {
      let (element, pseudo) = InlineBoxDecoration.element(of: $0.source)
      return InlineBoxInfo(
        source: element, pseudo: pseudo, x: r($0.rect.x), y: r($0.rect.y),
        width: r($0.rect.width), height: r($0.rect.height))
    }
  }

  /// The page's formulas, nil when it has none (the key is left out).
  static func mathInfo(_ p: Page) -> [MathInfo]? {
    guard !p.math.isEmpty else { return nil }
    return p.math.map {
      MathInfo(
        x: r($0.rect.x), y: r($0.rect.y), width: r($0.rect.width), height: r($0.rect.height),
        display: $0.display, text: $0.text)
    }
  }
}
