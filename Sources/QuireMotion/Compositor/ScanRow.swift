import Foundation

/// One quad's scan conversion, row by row (see `Canvas.rasterize`): the inverse homography,
/// the edges, the local shape and the shader, ready for the row workers.
struct ScanRow<S: Shader>: @unchecked Sendable {
  /// The 3×3 inverse homography, row-major: canvas (x, y, 1) → homogeneous local (a, b, c).
  let h: (Double, Double, Double, Double, Double, Double, Double, Double, Double)
  let edges: [(a: Double, b: Double, c: Double)]
  let scale: Double
  let shape: LocalShape
  let needsLocal: Bool
  let needsUV: Bool
  let shader: S
  /// Canvas width in pixels.
  let width: Int
  /// Exactly affine (no perspective terms): the homogeneous c is 1 everywhere.
  var affine: Bool { h.2 == 0 && h.5 == 0 && h.8 == 1 }

  typealias Walk = HomogeneousWalk

  /// Draws row `y` between x0 and x1 into the canvas floats at `dst`.
  @inline(__always) func draw(row y: Int, x0: Int, x1: Int, into dst: UnsafeMutablePointer<Float>) {
    let span = rowSpan(edges, y: y, x0: x0, x1: x1)
    let sx = span.start
    let ex = span.end
    guard sx < ex else { return }
    let py = Double(y) + 0.5
    let x0c = Double(sx) + 0.5
    var walk = Walk(
      a: x0c * h.0 + py * h.3 + h.6, b: x0c * h.1 + py * h.4 + h.7, c: x0c * h.2 + py * h.5 + h.8)
    let line = dst + y &* width &* 4
    // The inner span, where every pixel is fully covered and the shape is the plain rect.
    let innerStart = needsLocal ? ex : min(max(sx, span.fullStart), ex)
    let innerEnd = needsLocal ? ex : max(min(ex, span.fullEnd), innerStart)
    let full = span.fullStart..<max(span.fullStart, span.fullEnd)
    for x in sx..<innerStart { edgePixel(x, py, full.contains(x), &walk, line) }
    if innerStart < innerEnd { inner(innerStart, innerEnd, &walk, line) }
    for x in innerEnd..<ex { edgePixel(x, py, full.contains(x), &walk, line) }
  }

  /// Pixels [a, b) of a row, each fully covered: a constant colour as one run, else the
  /// shader at each pixel's (u, v).
  @inline(__always) func inner(
    _ a: Int, _ b: Int, _ walk: inout Walk, _ line: UnsafeMutablePointer<Float>
  ) {
    if !needsUV {
      // No (u, v) is read: the walk is not advanced (nothing after it reads it either).
      fillRun(shader.shade(0, 0), line + a &* 4, count: b - a)
      return
    }
    shader.shadeRun(
      &walk, Walk(a: h.0, b: h.1, c: h.2), line + a &* 4, count: b - a, projective: !affine)
  }

  /// One pixel by the full path: its coverage by the quad's edges (unless `full`: every edge
  /// is ≥ ½ px away) and by the local rounded rectangle, then the shader.
  @inline(__always) func edgePixel(
    _ x: Int, _ py: Double, _ full: Bool, _ walk: inout Walk, _ line: UnsafeMutablePointer<Float>
  ) {
    defer {
      walk.a += h.0
      walk.b += h.1
      walk.c += h.2
    }
    var cov: Float = 1
    if !full {
      let pxc = Double(x) + 0.5
      var md = Double.infinity
      for e in edges { md = min(md, e.a * pxc + e.b * py + e.c) }
      let c = md + 0.5
      if c <= 0 { return }
      cov = Float(min(c, 1))
    }
    var u = 0.0
    var v = 0.0
    if needsUV {
      if affine {
        u = walk.a
        v = walk.b
      } else {
        if walk.c == 0 { return }
        let inv = 1 / walk.c
        u = walk.a * inv
        v = walk.b * inv
      }
    }
    if needsLocal {
      cov *= localCoverage(u, v)
      if cov <= 0 { return }
    }
    var src = shader.shade(u, v)
    if cov < 1 { src *= cov }
    sourceOver(src, line + x &* 4)
  }

  /// Coverage of local (u, v) by the rounded rectangle less its hole.
  @inline(__always) func localCoverage(_ u: Double, _ v: Double) -> Float {
    var lc = 1.0
    if shape.radius > 0 {
      lc = min(max(0.5 + roundedRectInside(u, v, shape.rect, shape.radius) * scale, 0), 1)
    }
    if let hole = shape.hole {
      let d = roundedRectInside(u, v, hole.rect, hole.radius)
      lc *= 1 - min(max(0.5 + d * scale, 0), 1)
    }
    return Float(lc)
  }
}

/// The homogeneous local coordinates (a, b, c) of a pixel centre: (u, v) = (a / c, b / c).
struct HomogeneousWalk {
  var a, b, c: Double
}

/// `count` fully covered pixels from `d`, one shader sample each: the pixel centres start at
/// `walk` and step by `step` per pixel; (u, v) = (a / c, b / c) if `projective`, else (a, b)
/// (the shaders' default run).
@inline(__always) func shaderRun<S: Shader>(
  _ shader: S, _ walk: inout HomogeneousWalk, _ step: HomogeneousWalk,
  _ d: UnsafeMutablePointer<Float>, count: Int, projective: Bool
) {
  if !projective {
    for x in 0..<count {
      sourceOver(shader.shade(walk.a, walk.b), d + x &* 4)
      walk.a += step.a
      walk.b += step.b
      walk.c += step.c
    }
    return
  }
  for x in 0..<count {
    if walk.c != 0 {
      let inv = 1 / walk.c
      sourceOver(shader.shade(walk.a * inv, walk.b * inv), d + x &* 4)
    }
    walk.a += step.a
    walk.b += step.b
    walk.c += step.c
  }
}

extension TextureShader {
  /// An opaque four-channel texture (a page turning, a cover opening, a page zooming): the
  /// arithmetic of `shade` — the divide under perspective, the texel position, the
  /// (steepened) weights, the four-lane blend — with its range checks hoisted. A pixel whose
  /// four texels all exist (1 ≤ fx + 1 < width: `shade`'s own inside test) takes the tight
  /// path; any other, at the image's edges, `shade` itself. Every pixel's bytes are
  /// therefore `shade`'s.
  @inline(__always) func shadeRun(
    _ walk: inout HomogeneousWalk, _ step: HomogeneousWalk, _ d: UnsafeMutablePointer<Float>,
    count: Int, projective: Bool
  ) {
    guard channels == 4, opaque else {
      shaderRun(self, &walk, step, d, count: count, projective: projective)
      return
    }
    if projective {
      opaqueRun(&walk, step, d, count: count, projective: true)
    } else {
      opaqueRun(&walk, step, d, count: count, projective: false)
    }
  }

  /// `shadeRun` for an opaque four-channel texture, specialised by `projective`.
  @inline(__always) private func opaqueRun(
    _ walk: inout HomogeneousWalk, _ step: HomogeneousWalk, _ d: UnsafeMutablePointer<Float>,
    count: Int, projective: Bool
  ) {
    let (xLimit, yLimit) = (Double(width), Double(height))
    let (steep, scaled) = (sharpness > 1, opacity != 1)
    let stride = width &* 4
    let alphaLane: SIMDMask<SIMD4<Int32>> = [false, false, false, true]
    for x in 0..<count {
      defer {
        walk.a += step.a
        walk.b += step.b
        walk.c += step.c
      }
      var (u, v) = (walk.a, walk.b)
      if projective {
        if walk.c == 0 { continue }
        let inv = 1 / walk.c
        (u, v) = (walk.a * inv, walk.b * inv)
      }
      let fx = (u - ox) * sx - 0.5
      let fy = (v - oy) * sy - 0.5
      let (tx, ty) = (fx + 1, fy + 1)
      guard tx >= 1, tx < xLimit, ty >= 1, ty < yLimit else {
        sourceOver(shade(u, v), d + x &* 4)
        continue
      }
      let ix = Int(tx) &- 1
      let iy = Int(ty) &- 1
      var wx = Float(fx - Double(ix))
      var wy = Float(fy - Double(iy))
      if steep {
        wx = TextureShader.steepened(wx, sharpness)
        wy = TextureShader.steepened(wy, sharpness)
      }
      let w = TexelWeights(wx: wx, wy: wy)
      let i00 = (iy &* width &+ ix) &* 4
      let raw = UnsafeRawPointer(base)
      let t00 = SIMD4<Float>(raw.loadUnaligned(fromByteOffset: i00, as: SIMD4<UInt8>.self))
      let t10 = SIMD4<Float>(raw.loadUnaligned(fromByteOffset: i00 &+ 4, as: SIMD4<UInt8>.self))
      let t01 = SIMD4<Float>(
        raw.loadUnaligned(fromByteOffset: i00 &+ stride, as: SIMD4<UInt8>.self))
      let t11 = SIMD4<Float>(
        raw.loadUnaligned(fromByteOffset: i00 &+ stride &+ 4, as: SIMD4<UInt8>.self))
      // `TexelWeights.sum` inline; the alpha lane is replaced by a blend with a constant
      // mask (assigning the lane made the compiler widen the texels byte by byte).
      var s = (t00 * w.w00 + t10 * w.w10 + t01 * w.w01 + t11 * w.w11).replacing(
        with: 255, where: alphaLane)
      guard scaled else {
        // Opaque: the sample replaces the pixel (`sourceOver` at alpha 255).
        UnsafeMutableRawPointer(d + x &* 4).storeBytes(of: s, as: SIMD4<Float>.self)
        continue
      }
      s *= opacity
      sourceOver(s, d + x &* 4)
    }
  }
}

extension GradientShader {
  /// An axial gradient on an affine quad (a shadow on the page beneath): `shade`'s
  /// arithmetic, the table entry loaded as one vector. Under perspective, the default run.
  @inline(__always) func shadeRun(
    _ walk: inout HomogeneousWalk, _ step: HomogeneousWalk, _ d: UnsafeMutablePointer<Float>,
    count: Int, projective: Bool
  ) {
    guard !projective else {
      shaderRun(self, &walk, step, d, count: count, projective: true)
      return
    }
    let entries = UnsafeRawPointer(table)
    for x in 0..<count {
      let t = min(max((walk.a - origin.x) * axis.x + (walk.b - origin.y) * axis.y, 0), 1)
      let i = Int(t * last + 0.5) &* 16
      sourceOver(
        entries.loadUnaligned(fromByteOffset: i, as: SIMD4<Float>.self) * opacity, d + x &* 4)
      walk.a += step.a
      walk.b += step.b
      walk.c += step.c
    }
  }
}
