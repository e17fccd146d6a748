// Borders that straight rectangles cannot draw: rounded corners, round `dotted` dots and the
// 3-D styles (`groove`, `ridge`, `inset`, `outset`). The border is the ring between the
// border box and the padding box (each a `RoundedRect`; the inner radii are the outer ones
// less the border widths, CSS Backgrounds 3 §5.2). Each of 4×4 samples per ring pixel asks
// which side it belongs to — the side whose edge is nearest relative to its width, which
// splits corners along the line from the outer to the inner corner — then that side's
// style decides the sample's colour; the pixel gets the average.
//
// Shading of the 3-D styles (the spec leaves the colours to the user agent): the dark
// shade is the colour at 2/3 of its value, the light one the colour itself; for a colour
// near black the light shade is a dark gray, so the relief still shows. `inset` darkens
// top and left, `outset` bottom and right; `groove` and `ridge` split each side in halves.
// Dots of `dotted` are circles as wide as the side, an whole number of them spaced evenly.

import Foundation
import QuireCore
import QuireIngest
import QuireTypeset

struct BorderRing {
  let box: BoxPaint
  let outer: RoundedRect
  let inner: RoundedRect
  /// Widths: top, right, bottom, left.
  let widths: [Double]
  let sides: [PaintedBorderSide]

  init(_ box: BoxPaint) {
    self.box = box
    let r = box.rect
    sides = [box.top, box.right, box.bottom, box.left]
    widths = sides.map { $0.isDrawn || $0.width > 0 ? max(0, $0.width) : 0 }
    outer = RoundedRect(r, radii: box.radii)
    let (t, rt, b, l) = (widths[0], widths[1], widths[2], widths[3])
    let inside = Rect(
      x: r.x + l, y: r.y + t, width: max(0, r.width - l - rt), height: max(0, r.height - t - b))
    inner = RoundedRect(
      inside,
      rx: [outer.rx[0] - l, outer.rx[1] - rt, outer.rx[2] - rt, outer.rx[3] - l],
      ry: [outer.ry[0] - t, outer.ry[1] - t, outer.ry[2] - b, outer.ry[3] - b])
  }

  /// Paints the ring's pixels (only the bands along the four sides are visited).
  func paint(on canvas: inout Canvas) {
    let r = box.rect
    let m = outer.maxRadius
    let bands = [
      Rect(x: r.x, y: r.y, width: r.width, height: max(widths[0], m) + 1),
      Rect(
        x: r.x, y: r.maxY - max(widths[2], m) - 1, width: r.width, height: max(widths[2], m) + 1),
      Rect(x: r.x, y: r.y, width: max(widths[3], m) + 1, height: r.height),
      Rect(
        x: r.maxX - max(widths[1], m) - 1, y: r.y, width: max(widths[1], m) + 1, height: r.height),
    ]
    var done = Set<Int>()
    let stride = canvas.width + 1
    for band in bands {
      canvas.shade(band) { x, y in
        guard done.insert(y * stride + x).inserted else { return nil }
        return pixel(x, y)
      }
    }
  }

  /// The averaged colour of the 16 samples of pixel (x, y).
  func pixel(_ x: Int, _ y: Int) -> Premultiplied? {
    var sum = Premultiplied(r: 0, g: 0, b: 0, a: 0)
    var any = false
    for oy in BoxSampling.offsets {
      for ox in BoxSampling.offsets {
        let sx = Double(x) + ox
        let sy = Double(y) + oy
        guard outer.contains(sx, sy), !inner.contains(sx, sy) || inner.rect.width <= 0,
          let c = sample(sx, sy)
        else { continue }
        let p = Premultiplied(c)
        sum.r += p.r
        sum.g += p.g
        sum.b += p.b
        sum.a += p.a
        any = true
      }
    }
    guard any else { return nil }
    return Premultiplied(r: sum.r / 16, g: sum.g / 16, b: sum.b / 16, a: sum.a / 16)
  }

  /// The colour of a point in the ring, nil where the style leaves a gap.
  func sample(_ x: Double, _ y: Double) -> RGBA? {
    let r = box.rect
    let distances = [y - r.y, r.maxX - x, r.maxY - y, x - r.x]
    var side = -1
    var best = Double.infinity
    for k in 0..<4 where widths[k] > 0 {
      let d = distances[k] / widths[k]
      if d < best {
        best = d
        side = k
      }
    }
    guard side >= 0 else { return nil }
    let s = sides[side]
    guard s.isDrawn else { return nil }
    let depth = min(1, max(0, best))
    let along = side == 0 || side == 2 ? x - r.x : y - r.y
    let length = side == 0 || side == 2 ? r.width : r.height
    return Self.color(s, side: side, depth: depth, along: along, length: length)
  }

  /// A side's colour at `depth` (0 outer edge, 1 inner edge) and `along` px of `length`.
  static func color(
    _ s: PaintedBorderSide, side: Int, depth: Double, along: Double, length: Double
  ) -> RGBA? {
    let topLeft = side == 0 || side == 3
    switch s.style {
    case .double:
      return depth >= 1.0 / 3 && depth < 2.0 / 3 ? nil : s.color
    case .dashed:
      let step = segmentStep(length: length, segment: s.width * 3)
      return Int(along / step) % 2 == 0 ? s.color : nil
    case .dotted:
      let count = max(1, (length / (2 * s.width)).rounded())
      let spacing = length / count
      let centre = ((along / spacing).rounded(.down) + 0.5) * spacing
      let da = along - centre
      let dp = (depth - 0.5) * s.width
      let radius = s.width / 2
      return da * da + dp * dp <= radius * radius ? s.color : nil
    case .inset: return topLeft ? shade(s.color, dark: true) : shade(s.color, dark: false)
    case .outset: return topLeft ? shade(s.color, dark: false) : shade(s.color, dark: true)
    case .groove: return shade(s.color, dark: (depth < 0.5) == topLeft)
    case .ridge: return shade(s.color, dark: (depth < 0.5) != topLeft)
    default: return s.color
    }
  }

  /// The dash step of a side: an odd number of equal segments, so both ends are dashes.
  static func segmentStep(length: Double, segment: Double) -> Double {
    let fit = (length / max(segment, 1e-6)).rounded(.down)
    guard fit >= 1, fit < 100_000 else { return max(length, 1e-6) }
    let count = Int(fit) % 2 == 0 ? fit - 1 : fit
    return length / count
  }

  static func shade(_ c: RGBA, dark: Bool) -> RGBA {
    let nearBlack = max(c.r, c.g, c.b) < 48
    if dark {
      return RGBA(
        r: UInt8(Int(c.r) * 2 / 3), g: UInt8(Int(c.g) * 2 / 3), b: UInt8(Int(c.b) * 2 / 3), a: c.a)
    }
    return nearBlack ? RGBA(r: 0x55, g: 0x55, b: 0x55, a: c.a) : c
  }
}
