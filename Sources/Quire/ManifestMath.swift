// The manifest's `math` list (with `--boxes`): one entry per formula on a page, its box in
// page pixels, whether it is display math, and its alttext or linear text form — the
// formula's characters are not in `lines`, so this is where its content is found.

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
