import Foundation

/// A download-progress badge as the bookshelf app draws it: a dark translucent disc, a grey
/// ring track and a blue arc from twelve o'clock clockwise over the fraction done, with the
/// percentage ("42%") centred in white. Drawn once per book as a small picture (anti-aliased
/// by the distance of each pixel centre to the ring's edges and to the arc's ends), then
/// carried by the cover's layer, so frames only composite it.
package enum ShelfBadge {
  static let disc = RGBA(r: 20, g: 20, b: 24, a: 170)
  static let track = RGBA(r: 255, g: 255, b: 255, a: 70)
  static let arc = RGBA(r: 64, g: 156, b: 255, a: 255)

  /// The badge of `fraction` (0…1) with diameter `size` pixels (8…512); the label comes from
  /// `labeler` when given.
  package static func image(fraction: Double, size: Int, labeler: BadgeLabeler?) -> PixelBuffer {
    let n = min(max(size, 8), 512)
    let f = min(max(fraction.isFinite ? fraction : 0, 0), 1)
    var px = [UInt8](repeating: 0, count: n * n * 4)
    let c = Double(n) / 2
    let outer = c - 0.5
    let ringOuter = outer * 0.86
    let ringInner = outer * 0.68
    for y in 0..<n {
      for x in 0..<n {
        let dx = Double(x) + 0.5 - c
        let dy = Double(y) + 0.5 - c
        let r = (dx * dx + dy * dy).squareRoot()
        var color = blend(.clear, disc, coverage: clamp(outer - r + 0.5))
        let ring = clamp(min(ringOuter - r, r - ringInner) + 0.5)
        if ring > 0 {
          // Angle from twelve o'clock, clockwise, 0…1.
          var a = atan2(dx, -dy) / (2 * Double.pi)
          if a < 0 { a += 1 }
          let along = (f - a) * 2 * Double.pi * r  // pixels inside the arc's end
          let onArc = f >= 1 ? 1 : clamp(min(along, a * 2 * Double.pi * r) + 0.5)
          color = blend(color, track, coverage: ring)
          color = blend(color, arc, coverage: ring * onArc)
        }
        let o = (y * n + x) * 4
        (px[o], px[o + 1], px[o + 2], px[o + 3]) = (color.r, color.g, color.b, color.a)
      }
    }
    var badge = PixelBuffer(width: n, height: n, format: .rgba8, pixels: px)
    let label = "\(Int((f * 100).rounded()))%"
    if let text = labeler?.image(label, pixelSize: Int(Double(n) * 0.26)) {
      badge = badge.placing(text, centredAt: (n / 2, n / 2))
    }
    return badge
  }

  private static func clamp(_ v: Double) -> Double { min(1, max(0, v)) }

  /// `top` over `bottom` (straight alpha) with `top`'s alpha scaled by `coverage`.
  static func blend(_ bottom: RGBA, _ top: RGBA, coverage: Double) -> RGBA {
    let ta = Double(top.a) / 255 * coverage
    let ba = Double(bottom.a) / 255
    let a = ta + ba * (1 - ta)
    guard a > 0 else { return .clear }
    func mix(_ t: UInt8, _ b: UInt8) -> UInt8 {
      UInt8(min(255, max(0, ((Double(t) * ta + Double(b) * ba * (1 - ta)) / a).rounded())))
    }
    return RGBA(
      r: mix(top.r, bottom.r), g: mix(top.g, bottom.g), b: mix(top.b, bottom.b),
      a: UInt8((a * 255).rounded()))
  }
}

extension PixelBuffer {
  /// `overlay` (RGBA, straight alpha) drawn over this RGBA image with its centre at `centre`.
  func placing(_ overlay: PixelBuffer, centredAt centre: (Int, Int)) -> PixelBuffer {
    var out = self
    let x0 = centre.0 - overlay.width / 2
    let y0 = centre.1 - overlay.height / 2
    for y in 0..<overlay.height {
      for x in 0..<overlay.width {
        let tx = x0 + x
        let ty = y0 + y
        guard tx >= 0, ty >= 0, tx < width, ty < height else { continue }
        let s = (y * overlay.width + x) * 4
        let d = (ty * width + tx) * 4
        let top = RGBA(
          r: overlay.pixels[s], g: overlay.pixels[s + 1], b: overlay.pixels[s + 2],
          a: overlay.pixels[s + 3])
        let bottom = RGBA(r: pixels[d], g: pixels[d + 1], b: pixels[d + 2], a: pixels[d + 3])
        let c = ShelfBadge.blend(bottom, top, coverage: 1)
        (out.pixels[d], out.pixels[d + 1], out.pixels[d + 2], out.pixels[d + 3]) = (
          c.r, c.g, c.b, c.a
        )
      }
    }
    return out
  }
}
