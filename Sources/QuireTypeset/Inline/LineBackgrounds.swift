// Inline backgrounds of one line (CSS 2.1 §14.2 and §10.8.1): the background colour of an
// inline element fills its content area behind the glyphs of each line fragment.
//
// The content area is the font's ascent plus descent at the run's size (what browsers
// paint, not the line height), raised or lowered with the run (`vertical-align`). Compose
// reports every stretch it places — a piece, a word space, an inserted hyphen — with the
// colour its style carries (`TextStyle.inlineBackground`, Style/InlineBackground.swift);
// stretches that touch and share colour and vertical extent merge into one rectangle, so a
// highlighted phrase is one band across its spaces, and a fragment ends where the line
// does (`box-decoration-break: slice`, the initial value). The fills are drawn before the
// line's glyphs. A line holds at most as many bands as it has pieces and spaces.

import Foundation
import QuireCore
import QuireIngest

/// The painted band of one style: its colour and vertical extent on the line.
struct BackgroundBand: Equatable {
  var color: RGBA
  /// Top, px from the line box's top, and height px.
  var y: Double
  var height: Double

  /// The band `rs` paints on a line whose baseline is `baseline`; nil without a colour.
  static func of(_ rs: ResolvedStyle, face: Face, baseline: Double) -> BackgroundBand? {
    guard let color = rs.style.text.inlineBackground, color.a > 0 else { return nil }
    let size = rs.size
    let top = baseline - rs.shift - face.ascent * size
    let height = (face.ascent + face.descent) * size
    guard top.isFinite, height.isFinite, height > 0 else { return nil }
    return BackgroundBand(color: color, y: top, height: height)
  }
}

/// The inline backgrounds of one line, collected while it is placed.
struct LineBackgrounds {
  private(set) var spans: [(band: BackgroundBand, x0: Double, x1: Double)] = []

  /// Records `band` painted from `x0` to `x1`. Called for every piece and word space of a
  /// book's lines, nearly all without a background: that test is inlined.
  @inline(__always)
  mutating func add(_ band: BackgroundBand?, from x0: Double, to x1: Double) {
    guard let band, x1 > x0 else { return }
    add(band, x0, x1)
  }

  private mutating func add(_ band: BackgroundBand, _ x0: Double, _ x1: Double) {
    if let last = spans.last, last.band == band, x0 <= last.x1 + 0.01, x1 >= last.x0 - 0.01 {
      spans[spans.count - 1].x0 = min(last.x0, x0)
      spans[spans.count - 1].x1 = max(last.x1, x1)
    } else {
      spans.append((band, x0, x1))
    }
  }

  /// Cuts every band to `lo…hi` (a clipped line).
  mutating func clip(_ lo: Double, _ hi: Double) {
    spans = spans.compactMap {
      let x0 = max($0.x0, lo)
      let x1 = min($0.x1, hi)
      return x1 > x0 ? ($0.band, x0, x1) : nil
    }
  }

  /// The fills to draw, in placing order.
  func fills() -> [DisplayItem] {
    spans.map {
      .fill(
        Rect(x: $0.x0, y: $0.band.y, width: $0.x1 - $0.x0, height: $0.band.height), $0.band.color)
    }
  }
}
