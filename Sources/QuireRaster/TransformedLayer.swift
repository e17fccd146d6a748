// Transformed groups (CSS Transforms 1; Typeset's Fixed/BoxMatrix.swift): the group's items
// are painted on an offscreen layer in their own (untransformed) coordinates, and the layer
// is composited onto the canvas through the group's matrix, each covered canvas pixel's
// centre mapped back by the inverse matrix and sampled bilinearly (transparent outside the
// layer, so the edges come out anti-aliased), source-over.
//
// The layer needs coverage as well as colour, and every drawing routine paints onto opaque
// paper. Since each of them is a source-over (or a copy-back for clips), a stack of them over
// a background B gives P + (1 − A)·B for the stack's premultiplied colour P and coverage A:
// painting the items once on black gives P, once on white gives P + (1 − A)·255, and A
// follows. Twice the painting of a few items costs less than a second, alpha-carrying set of
// drawing routines would in code.
//
// Bounds: the layer covers only the part of the group's bounds that lands on the canvas
// (plus a pixel of filter footprint), at most `maxLayerPixels` pixels (what lies beyond is
// not drawn); groups nest at most `maxTransformDepth` deep (deeper ones are not drawn); a
// singular or non-finite matrix draws nothing, as in a browser. Cost: two paints of the
// group's items and one bilinear sample per covered canvas pixel; a page's groups together
// use at most 16 canvases' worth of layer and covered pixels (the budget `paint` starts),
// and the groups past it are not drawn, so a hostile page of thousands of page-sized
// transformed boxes stays linear in its size. Deterministic: IEEE double arithmetic in a
// fixed order, rounded once per channel.
//
// Rejected: pixman's affine compositing. It would do the sampling in C, but it has no
// luminance format for the gray8 canvas (a8 is coverage), so gray pages would need a
// round trip through RGB; the sampler here is forty lines over the canvas's own bytes.

import QuireCore
import QuireTypeset

extension PageRenderer {
  /// Offscreen layers are at most this many pixels (4096 × 2048).
  static let maxLayerPixels = 1 << 23
  /// Transformed groups nest at most this deep.
  static let maxTransformDepth = 8

  /// Draws `group` through its matrix onto `canvas`.
  func drawTransformed(
    _ group: TransformedGroup, canvas: inout Canvas, rasterizer: GlyphRasterizer, depth: Int,
    budget: inout Int
  ) {
    // A layer pixel's bilinear footprint reaches one layer pixel past the bounds.
    let b = group.bounds
    let footprint = Rect(x: b.x - 1, y: b.y - 1, width: b.width + 2, height: b.height + 2)
    guard depth < Self.maxTransformDepth, let inverse = group.matrix.inverted,
      let target = Self.pixelBox(
        group.matrix.bounds(of: footprint), width: canvas.width, height: canvas.height)
    else { return }
    // The layer: the group's bounds where the canvas pixels map to, a pixel wider for the filter.
    let reach = inverse.bounds(
      of: Rect(
        x: Double(target.x0), y: Double(target.y0), width: Double(target.x1 - target.x0),
        height: Double(target.y1 - target.y0)))
    guard
      let source = Self.pixelBox(
        Rect(x: reach.x - 1, y: reach.y - 1, width: reach.width + 2, height: reach.height + 2),
        within: group.bounds)
    else { return }
    let cost = 2 * source.width * source.height + target.width * target.height
    guard cost <= budget else { return }
    budget -= cost
    let layer = paintLayer(group.items, source, format: canvas.format, rasterizer, depth, &budget)
    canvas.composite(layer, at: source, through: inverse, target: target)
  }

  /// A whole-pixel box: [x0, x1) × [y0, y1).
  struct PixelBox {
    var x0: Int, y0: Int, x1: Int, y1: Int
    var width: Int { x1 - x0 }
    var height: Int { y1 - y0 }
  }

  /// The pixels `r` touches on a `width`×`height` canvas; nil when none.
  static func pixelBox(_ r: Rect, width: Int, height: Int) -> PixelBox? {
    pixelBox(
      r, within: Rect(x: 0, y: 0, width: Double(width), height: Double(height)),
      maxPixels: Int.max)
  }

  /// The pixels `r` touches inside `limit`, cut to `maxPixels`; nil when none.
  static func pixelBox(_ r: Rect, within limit: Rect, maxPixels: Int = maxLayerPixels)
    -> PixelBox?
  {
    let values = [r.x, r.y, r.maxX, r.maxY, limit.x, limit.y, limit.maxX, limit.maxY]
    guard values.allSatisfy({ $0.isFinite && abs($0) < 1e7 }) else { return nil }
    let x0 = Int(Swift.max(r.x, limit.x).rounded(.down))
    let y0 = Int(Swift.max(r.y, limit.y).rounded(.down))
    var x1 = Int(Swift.min(r.maxX, limit.maxX).rounded(.up))
    var y1 = Int(Swift.min(r.maxY, limit.maxY).rounded(.up))
    guard x1 > x0, y1 > y0 else { return nil }
    if maxPixels < Int.max {
      x1 = Swift.min(x1, x0 + ImageLimits.maxSide)
      y1 = Swift.min(y1, y0 + Swift.max(1, maxPixels / (x1 - x0)))
    }
    return PixelBox(x0: x0, y0: y0, x1: x1, y1: y1)
  }

  /// The items painted on a layer covering `box`: premultiplied colour channels and coverage
  /// per pixel (channels + 1 values each, 0…255).
  private func paintLayer(
    _ items: [DisplayItem], _ box: PixelBox, format: PixelBuffer.Format,
    _ rasterizer: GlyphRasterizer, _ depth: Int, _ budget: inout Int
  ) -> Layer {
    var moved = items
    for i in moved.indices { moved[i].shift(dx: Double(-box.x0), dy: Double(-box.y0)) }
    var black = Canvas(width: box.width, height: box.height, format: format, paper: 0)
    var white = Canvas(width: box.width, height: box.height, format: format)
    // Both paints see the same budget, so they draw the same nested groups.
    var spare = budget
    paintItems(moved, canvas: &black, rasterizer: rasterizer, depth: depth + 1, budget: &spare)
    paintItems(moved, canvas: &white, rasterizer: rasterizer, depth: depth + 1, budget: &budget)
    let c = format == .gray8 ? 1 : 3
    let stride = format.channels
    var values = [Float](repeating: 0, count: box.width * box.height * (c + 1))
    for p in 0..<(box.width * box.height) {
      var uncovered = 0
      var top = 0
      for ch in 0..<c {
        let b = Int(black.pixels[p * stride + ch])
        uncovered += Int(white.pixels[p * stride + ch]) - b
        top = Swift.max(top, b)
      }
      // Coverage from the mean gap, never below the colour it premultiplies.
      let alpha = Swift.max(top, Swift.min(255, Swift.max(0, 255 - uncovered / c)))
      for ch in 0..<c { values[p * (c + 1) + ch] = Float(black.pixels[p * stride + ch]) }
      values[p * (c + 1) + c] = Float(alpha)
    }
    return Layer(width: box.width, height: box.height, channels: c, values: values)
  }

  /// A painted offscreen layer: premultiplied colour then coverage per pixel.
  struct Layer {
    var width: Int
    var height: Int
    /// Colour channels (1 gray, 3 RGB); each pixel holds these plus coverage.
    var channels: Int
    var values: [Float]
  }
}

extension Canvas {
  /// Source-over of `layer` (whose pixel (0, 0) is canvas pixel `source.x0, source.y0`
  /// before the transform) onto the `target` pixels; `inverse` maps canvas to layer space.
  mutating func composite(
    _ layer: PageRenderer.Layer, at source: PageRenderer.PixelBox,
    through inverse: AffineMatrix, target: PageRenderer.PixelBox
  ) {
    let c = layer.channels
    let stride = format.channels
    let (lw, lh) = (layer.width, layer.height)
    var sample = [Float](repeating: 0, count: c + 1)
    layer.values.withUnsafeBufferPointer { src in
      for y in target.y0..<target.y1 {
        for x in target.x0..<target.x1 {
          let (u, v) = inverse.apply(Double(x) + 0.5, Double(y) + 0.5)
          // Layer pixel centres sit at half coordinates.
          let fx = u - Double(source.x0) - 0.5
          let fy = v - Double(source.y0) - 0.5
          guard fx > -1, fy > -1, fx < Double(lw), fy < Double(lh) else { continue }
          let (ix, iy) = (Int(fx.rounded(.down)), Int(fy.rounded(.down)))
          let (tx, ty) = (Float(fx - Double(ix)), Float(fy - Double(iy)))
          for k in 0...c { sample[k] = 0 }
          func tap(_ px: Int, _ py: Int, _ w: Float) {
            guard w > 0, px >= 0, py >= 0, px < lw, py < lh else { return }
            let base = (py * lw + px) * (c + 1)
            for k in 0...c { sample[k] += src[base + k] * w }
          }
          tap(ix, iy, (1 - tx) * (1 - ty))
          tap(ix + 1, iy, tx * (1 - ty))
          tap(ix, iy + 1, (1 - tx) * ty)
          tap(ix + 1, iy + 1, tx * ty)
          let keep = (255 - sample[c]) / 255
          guard keep < 1 else { continue }
          let o = (y * width + x) * stride
          for k in 0..<c {
            let v = sample[k] + Float(pixels[o + k]) * keep
            pixels[o + k] = UInt8(Swift.max(0, Swift.min(255, v.rounded())))
          }
        }
      }
    }
  }
}
