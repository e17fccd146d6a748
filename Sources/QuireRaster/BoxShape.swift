// Shapes for box painting: a rectangle with elliptical corners (CSS Backgrounds 3 §5.2,
// radii scaled down together when adjacent ones overlap, §5.5) and the canvas operation
// every non-rectangular paint goes through — `shade`, which asks a function for the
// premultiplied colour of each pixel in an area and composites it source-over. Edges are
// anti-aliased by sampling 4×4 points per pixel where a pixel touches a curve or an edge;
// interior pixels take one evaluation.

import Foundation
import QuireTypeset

/// A premultiplied RGBA colour, channels 0…255.
struct Premultiplied {
  var r: Int32, g: Int32, b: Int32, a: Int32
  init(r: Int32, g: Int32, b: Int32, a: Int32) {
    self.r = r
    self.g = g
    self.b = b
    self.a = a
  }
  init(_ c: RGBA) {
    let a = Int32(c.a)
    r = (Int32(c.r) * a + 127) / 255
    g = (Int32(c.g) * a + 127) / 255
    b = (Int32(c.b) * a + 127) / 255
    self.a = a
  }
}

/// A rectangle with elliptical corners: radii (x, y) per corner, top-left, top-right,
/// bottom-right, bottom-left.
struct RoundedRect {
  var rect: Rect
  var rx: [Double]
  var ry: [Double]

  /// Circular radii, scaled so adjacent corners never overlap.
  init(_ rect: Rect, radii: [Double]) {
    self.init(rect, rx: radii, ry: radii)
  }

  init(_ rect: Rect, rx: [Double], ry: [Double]) {
    self.rect = rect
    var rx = (0..<4).map { $0 < rx.count && rx[$0].isFinite ? max(0, rx[$0]) : 0 }
    var ry = (0..<4).map { $0 < ry.count && ry[$0].isFinite ? max(0, ry[$0]) : 0 }
    var f = 1.0
    func limit(_ side: Double, _ a: Double, _ b: Double) {
      if a + b > side { f = min(f, side / (a + b)) }
    }
    limit(rect.width, rx[0], rx[1])
    limit(rect.width, rx[3], rx[2])
    limit(rect.height, ry[0], ry[3])
    limit(rect.height, ry[1], ry[2])
    if f < 1 {
      rx = rx.map { $0 * f }
      ry = ry.map { $0 * f }
    }
    self.rx = rx
    self.ry = ry
  }

  var isRectangle: Bool { rx.allSatisfy { $0 == 0 } || ry.allSatisfy { $0 == 0 } }

  /// The largest radius, for the band of pixels that need sampling.
  var maxRadius: Double { max(rx.max() ?? 0, ry.max() ?? 0) }

  func contains(_ x: Double, _ y: Double) -> Bool {
    let r = rect
    guard x >= r.x, x < r.maxX, y >= r.y, y < r.maxY else { return false }
    // Corner ellipse centres and which quadrant the point must be tested in.
    let corners: [(cx: Double, cy: Double, k: Int)] = [
      (r.x + rx[0], r.y + ry[0], 0), (r.maxX - rx[1], r.y + ry[1], 1),
      (r.maxX - rx[2], r.maxY - ry[2], 2), (r.x + rx[3], r.maxY - ry[3], 3),
    ]
    for c in corners where rx[c.k] > 0 && ry[c.k] > 0 {
      let left = c.k == 0 || c.k == 3
      let top = c.k == 0 || c.k == 1
      let outsideX = left ? x < c.cx : x > c.cx
      let outsideY = top ? y < c.cy : y > c.cy
      if outsideX && outsideY {
        let dx = (x - c.cx) / rx[c.k]
        let dy = (y - c.cy) / ry[c.k]
        if dx * dx + dy * dy > 1 { return false }
      }
    }
    return true
  }
}

extension Canvas {
  /// Composites `color(x, y)` (premultiplied, coverage already applied; nil: nothing) over
  /// every whole pixel of `area` clipped to the canvas. Bounded by the canvas size.
  mutating func shade(_ area: Rect, _ color: (Int, Int) -> Premultiplied?) {
    guard area.x.isFinite, area.y.isFinite, area.width.isFinite, area.height.isFinite else {
      return
    }
    let x0 = Swift.max(0, Int(Swift.max(-1, area.x).rounded(.down)))
    let y0 = Swift.max(0, Int(Swift.max(-1, area.y).rounded(.down)))
    let x1 = Swift.min(width, Int(Swift.min(Double(width), area.maxX).rounded(.up)))
    let y1 = Swift.min(height, Int(Swift.min(Double(height), area.maxY).rounded(.up)))
    guard x0 < x1, y0 < y1 else { return }
    let w = width
    let gray = format == .gray8
    pixels.withUnsafeMutableBufferPointer { buf in
      for y in y0..<y1 {
        for x in x0..<x1 {
          guard let c = color(x, y), c.a > 0 else { continue }
          let inv = 255 - Swift.min(255, c.a)
          if gray {
            let o = y * w + x
            let lum = (54 * c.r + 183 * c.g + 19 * c.b + 128) >> 8
            buf[o] = UInt8(clamping: lum + (Int32(buf[o]) * inv + 127) / 255)
          } else {
            let o = (y * w + x) * 4
            buf[o] = UInt8(clamping: c.r + (Int32(buf[o]) * inv + 127) / 255)
            buf[o + 1] = UInt8(clamping: c.g + (Int32(buf[o + 1]) * inv + 127) / 255)
            buf[o + 2] = UInt8(clamping: c.b + (Int32(buf[o + 2]) * inv + 127) / 255)
          }
        }
      }
    }
  }

  /// A rounded rectangle filled with one colour, anti-aliased.
  mutating func fill(_ shape: RoundedRect, color: RGBA) {
    let ink = Premultiplied(color)
    shade(shape.rect) { x, y in
      let c = BoxSampling.coverage(of: shape, x, y)
      return c == 0 ? nil : BoxSampling.scale(ink, c)
    }
  }
}

/// 4×4 supersampling helpers.
enum BoxSampling {
  static let offsets: [Double] = [0.125, 0.375, 0.625, 0.875]

  /// Coverage 0…16 of pixel (x, y) by `shape`; one test for a pixel clear of the corners.
  static func coverage(of shape: RoundedRect, _ x: Int, _ y: Int) -> Int32 {
    let r = shape.rect
    let m = shape.maxRadius
    let fx = Double(x)
    let fy = Double(y)
    let inner =
      fx >= r.x && fx + 1 <= r.maxX && fy >= r.y && fy + 1 <= r.maxY
      && ((fx >= r.x + m && fx + 1 <= r.maxX - m) || (fy >= r.y + m && fy + 1 <= r.maxY - m))
    if inner { return 16 }
    var n: Int32 = 0
    for oy in offsets {
      for ox in offsets where shape.contains(fx + ox, fy + oy) { n += 1 }
    }
    return n
  }

  /// A premultiplied colour times coverage/16.
  static func scale(_ c: Premultiplied, _ coverage: Int32) -> Premultiplied {
    if coverage >= 16 { return c }
    return Premultiplied(
      r: c.r * coverage / 16, g: c.g * coverage / 16, b: c.b * coverage / 16,
      a: c.a * coverage / 16)
  }
}
