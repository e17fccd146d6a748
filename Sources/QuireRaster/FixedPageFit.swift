// Fixed-layout pages into output pages: a pre-paginated page's display list is in its ICB's
// pixels (Typeset's Fixed/FixedLayout.swift); it is painted at that size and the pixels are
// scaled into the output page.
//
// Fits: `contain` (the default) scales the whole ICB into the page at its aspect, centred,
// the bands left over painted with the page's background colour (white when it has none);
// `cover` fills the page, centred, cutting what overflows. `--size native` is `contain` into
// a page of the ICB's own size: the pixels are returned as painted.
//
// Scaling: one separable pass per axis with a triangle filter whose support is one source
// pixel when enlarging (bilinear) and one output pixel's footprint when reducing (an area
// average that does not alias), weights normalised per output pixel, in fixed point so the
// result is byte-identical on every machine. Cost: linear in output pixels × filter taps.
//
// Rejected: scaling the display list (glyph sizes, rects) by the fit factor and painting at
// the output size once. Sharper, but background sizes and positions are kept as the book
// wrote them (CSS px strings) and would each need rewriting, and borders of a scaled box lose
// their pixel snapping differently from a browser's; one pixel scale treats everything alike.

import Foundation
import QuireCore
import QuireIngest
import QuireTypeset

/// How a fixed-layout page fills the output page.
package enum FixedFit: String, Sendable, Hashable, CaseIterable {
  /// The whole page, centred, letterboxed with the page's background colour.
  case contain
  /// The page filled, centred, the overflow cut.
  case cover
}

extension PageRenderer {
  /// A pre-paginated page painted at its ICB and scaled into `width`×`height` by `fit`.
  func renderFixed(
    _ page: Page, viewport: ViewportSize, width: Int, height: Int, format: PixelBuffer.Format
  ) -> PixelBuffer {
    let painted = paint(
      page, width: Int(viewport.width), height: Int(viewport.height), format: format)
    let (w, h) = (Swift.max(1, width), Swift.max(1, height))
    if painted.width == w && painted.height == h { return painted }
    let paper = page.background?.backgroundColor.map { Ink($0, format: format) }
    return FixedPageScaler(source: painted, fit: fit).scaled(width: w, height: h, paper: paper)
  }
}

/// Scales a painted ICB into an output page.
struct FixedPageScaler {
  let source: PixelBuffer
  let fit: FixedFit

  /// One output pixel's source taps along an axis: first index and 16.16 weights.
  struct Taps {
    var first: Int
    var weights: [Int32]
  }

  func scaled(width: Int, height: Int, paper: Ink?) -> PixelBuffer {
    let (sw, sh) = (Double(source.width), Double(source.height))
    guard sw >= 1, sh >= 1 else {
      return PixelBuffer(width: width, height: height, format: source.format)
    }
    let sx = Double(width) / sw
    let sy = Double(height) / sh
    let s = fit == .contain ? Swift.min(sx, sy) : Swift.max(sx, sy)
    let ox = (Double(width) - sw * s) / 2
    let oy = (Double(height) - sh * s) / 2
    var out = PixelBuffer(width: width, height: height, format: source.format)
    if let paper { fill(&out, paper) }
    // The output pixels the page covers.
    let x0 = Swift.max(0, Int(ox.rounded()))
    let x1 = Swift.min(width, Int((ox + sw * s).rounded()))
    let y0 = Swift.max(0, Int(oy.rounded()))
    let y1 = Swift.min(height, Int((oy + sh * s).rounded()))
    guard x1 > x0, y1 > y0 else { return out }
    let columns = (x0..<x1).map { Self.taps(out: $0, offset: ox, scale: s, size: source.width) }
    let rows = (y0..<y1).map { Self.taps(out: $0, offset: oy, scale: s, size: source.height) }
    let c = source.format.channels
    // Horizontal pass: every source row → the covered output columns (32-bit sums).
    var wide = [Int32](repeating: 0, count: source.height * (x1 - x0) * c)
    source.pixels.withUnsafeBufferPointer { src in
      for y in 0..<source.height {
        let row = y * source.width * c
        for (i, t) in columns.enumerated() {
          for ch in 0..<c {
            var sum: Int32 = 0
            for (k, wgt) in t.weights.enumerated() {
              sum += Int32(src[row + (t.first + k) * c + ch]) * wgt
            }
            wide[(y * (x1 - x0) + i) * c + ch] = sum >> 8
          }
        }
      }
    }
    // Vertical pass into the output.
    for (j, t) in rows.enumerated() {
      let y = y0 + j
      for i in 0..<(x1 - x0) {
        for ch in 0..<c {
          var sum: Int64 = 0
          for (k, wgt) in t.weights.enumerated() {
            sum += Int64(wide[((t.first + k) * (x1 - x0) + i) * c + ch]) * Int64(wgt)
          }
          let v = (sum + (1 << 23)) >> 24
          out.pixels[(y * width + x0 + i) * c + ch] = UInt8(Swift.max(0, Swift.min(255, v)))
        }
      }
    }
    return out
  }

  /// The triangle filter's taps for output pixel `o` along an axis of `size` source pixels.
  static func taps(out o: Int, offset: Double, scale: Double, size: Int) -> Taps {
    let center = (Double(o) + 0.5 - offset) / scale - 0.5
    let support = Swift.max(1, 1 / scale)
    let lo = Swift.max(0, Int((center - support).rounded(.up)))
    let hi = Swift.min(size - 1, Int((center + support).rounded(.down)))
    guard hi >= lo else {
      let nearest = Swift.min(size - 1, Swift.max(0, Int(center.rounded())))
      return Taps(first: nearest, weights: [1 << 16])
    }
    let raw = (lo...hi).map { Swift.max(0, 1 - abs(Double($0) - center) / support) }
    let total = raw.reduce(0, +)
    guard total > 0 else { return Taps(first: lo, weights: [1 << 16]) }
    var weights = raw.map { Int32(($0 / total * 65_536).rounded()) }
    // Exact sum 1.0 (16.16) so flat areas stay flat.
    let drift = 65_536 - weights.reduce(0, +)
    if let k = weights.indices.max(by: { weights[$0] < weights[$1] }) { weights[k] += drift }
    return Taps(first: lo, weights: weights)
  }

  private func fill(_ out: inout PixelBuffer, _ ink: Ink) {
    let px: [UInt8] =
      out.format == .gray8
      ? [UInt8(ink.gray)] : [UInt8(ink.r), UInt8(ink.g), UInt8(ink.b), 255]
    let c = px.count
    for i in 0..<(out.width * out.height) {
      for ch in 0..<c { out.pixels[i * c + ch] = px[ch] }
    }
  }
}
