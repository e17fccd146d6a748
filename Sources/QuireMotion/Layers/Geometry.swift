import Foundation

// Geometry in points. One point is one output pixel (content scale 1); y grows downward,
// the origin is the top-left corner of the canvas, exactly like UIKit/Core Animation on iOS.
// These are our own small value types (not QuireTypeset's `Rect`) so that Motion does not
// depend on the typesetter's layout units.

package struct LayerPoint: Sendable, Hashable, Codable {
  package var x: Double
  package var y: Double
  package init(x: Double, y: Double) {
    self.x = x
    self.y = y
  }
  package init(_ x: Double, _ y: Double) { self.init(x: x, y: y) }
  package static let zero = LayerPoint(x: 0, y: 0)
}

package struct LayerSize: Sendable, Hashable, Codable {
  package var width: Double
  package var height: Double
  package init(width: Double, height: Double) {
    self.width = width
    self.height = height
  }
  package init(_ width: Double, _ height: Double) { self.init(width: width, height: height) }
  package static let zero = LayerSize(width: 0, height: 0)
}

package struct LayerRect: Sendable, Hashable, Codable {
  package var origin: LayerPoint
  package var size: LayerSize
  package init(origin: LayerPoint, size: LayerSize) {
    self.origin = origin
    self.size = size
  }
  package init(x: Double, y: Double, width: Double, height: Double) {
    self.init(origin: LayerPoint(x: x, y: y), size: LayerSize(width: width, height: height))
  }
  package static let zero = LayerRect(x: 0, y: 0, width: 0, height: 0)
  package var minX: Double { origin.x }
  package var minY: Double { origin.y }
  package var maxX: Double { origin.x + size.width }
  package var maxY: Double { origin.y + size.height }
  package var width: Double { size.width }
  package var height: Double { size.height }
  package var midX: Double { origin.x + size.width / 2 }
  package var midY: Double { origin.y + size.height / 2 }
}

// Colours are the core's `RGBA` (8-bit sRGB, straight alpha), the same type pages and CSS
// use. Motion interpolates them in premultiplied space in `Double` and rounds once to 8 bits
// per animated value; gradients never round their stops' interpolants (`GradientLayer`).

extension RGBA {
  /// Interpolates in premultiplied space (so a fade to `clear` does not darken), rounding the
  /// result once to 8 bits.
  package static func mix(_ p: RGBA, _ q: RGBA, _ t: Double) -> RGBA {
    let c = premultipliedMix(p, q, t)
    return RGBA(red: c.red, green: c.green, blue: c.blue, alpha: c.alpha)
  }

  /// The straight-alpha components (0…1, unrounded) of the premultiplied-space mix of `p`
  /// and `q` at `t`: what `mix` rounds, and what gradient tables use as they are.
  static func premultipliedMix(_ p: RGBA, _ q: RGBA, _ t: Double) -> (
    red: Double, green: Double, blue: Double, alpha: Double
  ) {
    let a = p.alpha + (q.alpha - p.alpha) * t
    if a <= 0 { return (0, 0, 0, 0) }
    func c(_ x: Double, _ y: Double) -> Double {
      (x * p.alpha + (y * q.alpha - x * p.alpha) * t) / a
    }
    return (c(p.red, q.red), c(p.green, q.green), c(p.blue, q.blue), a)
  }

  /// Component-wise sum, clamped to 0…255 (additive colour animations).
  static func + (p: RGBA, q: RGBA) -> RGBA {
    func s(_ x: UInt8, _ y: UInt8) -> UInt8 { UInt8(min(255, Int(x) + Int(y))) }
    return RGBA(r: s(p.r, q.r), g: s(p.g, q.g), b: s(p.b, q.b), a: s(p.a, q.a))
  }

  /// Component-wise difference, clamped at 0 (a by-animation's start, `to − by`).
  static func - (p: RGBA, q: RGBA) -> RGBA {
    func d(_ x: UInt8, _ y: UInt8) -> UInt8 { x > y ? x - y : 0 }
    return RGBA(r: d(p.r, q.r), g: d(p.g, q.g), b: d(p.b, q.b), a: d(p.a, q.a))
  }
}
