import Foundation

/// What fills a quad, sampled at layer-local coordinates (u, v); colours premultiplied.
enum Paint {
  case solid(r: Float, g: Float, b: Float, a: Float)
  /// `image` spans the local rectangle `rect`; bilinear, clamped at the image edges.
  case texture(image: PixelBuffer, rect: LayerRect)
  /// An axial gradient: t = ((u, v) − origin) · axis, looked up in a premultiplied table.
  case gradient(origin: LayerPoint, axis: LayerPoint, table: [Float])
}

/// A local rectangle under a 4×4 transform, prepared for inverse-mapped scan conversion:
/// the rectangle's corners are clipped to w > 0 (in front of the eye), projected, and each
/// destination pixel in the projected polygon is mapped back to layer-local (u, v) through
/// the inverse homography (perspective-correct texturing). Edge anti-aliasing uses the
/// pixel centre's signed distance to each projected edge (exact for edges that are
/// pixel-aligned: a pixel whose centre is ≥ ½ px inside is fully covered).
struct ProjectedQuad {
  var edges: [(a: Double, b: Double, c: Double)] = []  // a·x + b·y + c ≥ 0 inside, |(a,b)| = 1
  var inv: [Double] = []  // 3×3 inverse homography, row-major (row vector convention)
  var x0 = 0
  var y0 = 0
  var x1 = 0
  var y1 = 0
  var affine = false
  /// Screen pixels per local unit (√ of the area ratio), for local-space AA.
  var scale = 1.0
  /// True when the quad's front faces the viewer.
  var frontFacing = true

  init?(_ m: Transform3D, _ r: LayerRect, canvasWidth: Int, canvasHeight: Int) {
    guard r.width > 0, r.height > 0, r.width.isFinite, r.height.isFinite else { return nil }
    let corners = [(r.minX, r.minY), (r.maxX, r.minY), (r.maxX, r.maxY), (r.minX, r.maxY)]
    var hom = corners.map { c -> (Double, Double, Double) in
      let p = m.apply(x: c.0, y: c.1)
      return (p.x, p.y, p.w)
    }
    let eps = 1e-4
    if hom.contains(where: { $0.2 < eps }) {
      // Sutherland–Hodgman against the plane w = eps.
      var out: [(Double, Double, Double)] = []
      for i in 0..<hom.count {
        let p = hom[i]
        let q = hom[(i + 1) % hom.count]
        let pin = p.2 >= eps
        let qin = q.2 >= eps
        if pin { out.append(p) }
        if pin != qin {
          let t = (eps - p.2) / (q.2 - p.2)
          out.append((p.0 + (q.0 - p.0) * t, p.1 + (q.1 - p.1) * t, eps))
        }
      }
      hom = out
    }
    guard hom.count >= 3 else { return nil }
    let pts = hom.map { ($0.0 / $0.2, $0.1 / $0.2) }
    var area = 0.0
    for i in 0..<pts.count {
      let p = pts[i]
      let q = pts[(i + 1) % pts.count]
      area += p.0 * q.1 - q.0 * p.1
    }
    area *= 0.5
    guard abs(area) > 1e-6, area.isFinite else { return nil }
    frontFacing = area > 0
    let s = area > 0 ? 1.0 : -1.0
    for i in 0..<pts.count {
      let p = pts[i]
      let q = pts[(i + 1) % pts.count]
      let dx = q.0 - p.0
      let dy = q.1 - p.1
      let len = (dx * dx + dy * dy).squareRoot()
      if len < 1e-9 { continue }
      // f(x, y) = cross(q − p, (x, y) − p) / len, positive inside for positive area.
      let a = -dy / len * s
      let b = dx / len * s
      edges.append((a, b, -(a * p.0 + b * p.1)))
    }
    scale = (abs(area) / (r.width * r.height)).squareRoot()
    let xs = pts.map(\.0)
    let ys = pts.map(\.1)
    x0 = max(0, Int((xs.min()! - 1).rounded(.down)))
    y0 = max(0, Int((ys.min()! - 1).rounded(.down)))
    x1 = min(canvasWidth, Int((xs.max()! + 1).rounded(.up)))
    y1 = min(canvasHeight, Int((ys.max()! + 1).rounded(.up)))
    guard x0 < x1, y0 < y1 else { return nil }
    // Homography local (u, v, 1) → screen (X, Y, W), rows: [m11 m12 m14; m21 m22 m24; m41 m42 m44].
    let h = [m.m11, m.m12, m.m14, m.m21, m.m22, m.m24, m.m41, m.m42, m.m44]
    guard let hi = invert3x3(h) else { return nil }
    inv = hi
    affine = m.m14 == 0 && m.m24 == 0 && m.m44 == 1
  }
}

func invert3x3(_ m: [Double]) -> [Double]? {
  let (a, b, c, d, e, f, g, h, i) = (m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7], m[8])
  let det = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g)
  guard abs(det) > 1e-15, det.isFinite else { return nil }
  return [
    (e * i - f * h) / det, (c * h - b * i) / det, (b * f - c * e) / det,
    (f * g - d * i) / det, (a * i - c * g) / det, (c * d - a * f) / det,
    (d * h - e * g) / det, (b * g - a * h) / det, (a * e - b * d) / det,
  ]
}

/// A rounded-rectangle clip in local space: the corner regions get coverage from the
/// distance to the corner circle; `hole` (for borders) subtracts an inner rounded rect.
struct LocalShape {
  var rect: LayerRect
  var radius: Double
  var hole: (rect: LayerRect, radius: Double)?
}

/// Signed distance inside a rounded rect (positive inside), in local units.
@inline(__always)
func roundedRectInside(_ u: Double, _ v: Double, _ r: LayerRect, _ radius: Double) -> Double {
  let edge = min(min(u - r.minX, r.maxX - u), min(v - r.minY, r.maxY - v))
  guard radius > 0 else { return edge }
  let dx = max(r.minX + radius - u, u - (r.maxX - radius), 0)
  let dy = max(r.minY + radius - v, v - (r.maxY - radius), 0)
  if dx > 0 && dy > 0 { return radius - (dx * dx + dy * dy).squareRoot() }
  return edge
}

/// A paint specialised for the inner loop (generic, so each shader gets its own loop).
protocol Shader: Sendable {
  /// Whether the shader reads (u, v); a solid colour does not, so no homography is inverted.
  static var needsUV: Bool { get }
  /// Premultiplied colour on the 0…255 scale at local (u, v).
  func shade(_ u: Double, _ v: Double) -> SIMD4<Float>
  /// Shades `count` fully covered pixels from `d`: the pixel centres' homogeneous local
  /// coordinates start at `walk` and step by `step` per pixel, (u, v) = (a / c, b / c) if
  /// `projective`, else (a, b).
  func shadeRun(
    _ walk: inout HomogeneousWalk, _ step: HomogeneousWalk, _ d: UnsafeMutablePointer<Float>,
    count: Int, projective: Bool)
}

extension Shader {
  @inline(__always) func shadeRun(
    _ walk: inout HomogeneousWalk, _ step: HomogeneousWalk, _ d: UnsafeMutablePointer<Float>,
    count: Int, projective: Bool
  ) {
    shaderRun(self, &walk, step, d, count: count, projective: projective)
  }
}

struct SolidShader: Shader {
  let color: SIMD4<Float>
  static var needsUV: Bool { false }
  @inline(__always) func shade(_ u: Double, _ v: Double) -> SIMD4<Float> { color }
}

/// @unchecked Sendable: a read-only view of an image's bytes that the caller keeps alive
/// (inside `withUnsafeBufferPointer`) until every row worker has returned.
struct TextureShader: Shader, @unchecked Sendable {
  let base: UnsafePointer<UInt8>
  let width: Int
  let height: Int
  let channels: Int
  let sx: Double
  let sy: Double
  let ox: Double
  let oy: Double
  let opacity: Float
  /// Every alpha is 255: no per-texel premultiplication.
  let opaque: Bool
  /// How steeply the bilinear weights go from one texel to the next (1: bilinear; larger:
  /// toward the nearest texel). See `TextureShader.sharpness(texelsPerPixel:)`.
  var sharpness: Float = 1
  static var needsUV: Bool { true }

  /// Near one texel per pixel, bilinear filtering at a sub-pixel offset blurs a page (at half
  /// a pixel, 1-px strokes lose ~70 % of their gradient energy, ~50 % averaged over offsets)
  /// while the untransformed page of the first and last frames is sharp: the middle frames
  /// visibly soften (hard: −32 % gradient energy from frame 1 to 2; open: +73 % from the
  /// second-last frame to the last). There the weights are steepened toward the nearest
  /// texel (−13 % averaged over offsets) — the page moves by whole pixels with a narrow
  /// blend between them, about as sharp as the still page — and the steepening fades out
  /// continuously as the scale leaves 1 (8× at |ln s| ≤ 1.25 %, bilinear from 10 % on), so
  /// sharpness changes smoothly across the frames of a turn. `texelsPerPixel` is the quad's
  /// mean scale (√ of its area ratio).
  ///
  /// Only for a quad whose edges run along the pixel axes: steepened weights would turn the
  /// smooth edges of a rotated image into stairs, so the steepening also fades out as the
  /// projected edges turn from the axes (fully at 5°; `skew` is the largest sine of an edge's
  /// angle to its nearest axis).
  static func sharpness(texelsPerPixel s: Double, skew: Double) -> Float {
    guard s.isFinite, s > 0, skew.isFinite else { return 1 }
    let deviation = abs(log(s))
    let k = min(8, max(1, 0.1 / max(deviation, 1e-9)))
    let aligned = max(0, 1 - skew / 0.087)
    return Float(1 + (k - 1) * aligned)
  }
  /// A bilinear weight steepened toward the nearest texel. A tenth of the plain weight
  /// stays, so the weights never stand still: a sub-pixel motion still changes the pixels
  /// it moves (no frame equals its neighbour).
  @inline(__always) static func steepened(_ w: Float, _ sharpness: Float) -> Float {
    0.9 * min(max((w - 0.5) * sharpness + 0.5, 0), 1) + 0.1 * w
  }

  @inline(__always) func shade(_ u: Double, _ v: Double) -> SIMD4<Float> {
    // Texel centres at i + 0.5; clamp-to-edge; fx, fy ≥ −1 so Int(f + 1) − 1 is floor.
    let fx = max((u - ox) * sx - 0.5, -1)
    let fy = max((v - oy) * sy - 0.5, -1)
    let ix = Int(fx + 1) &- 1
    let iy = Int(fy + 1) &- 1
    var wx = Float(fx - Double(ix))
    var wy = Float(fy - Double(iy))
    if sharpness > 1 {
      wx = TextureShader.steepened(wx, sharpness)
      wy = TextureShader.steepened(wy, sharpness)
    }
    let weights = TexelWeights(wx: wx, wy: wy)
    // Inside the image (the four texels exist): no clamping.
    if channels == 4, UInt(bitPattern: ix) < UInt(bitPattern: width &- 1),
      UInt(bitPattern: iy) < UInt(bitPattern: height &- 1)
    {
      let i00 = (iy &* width &+ ix) &* 4
      let i01 = i00 &+ width &* 4
      return weights.sample(base, i00, i00 &+ 4, i01, i01 &+ 4, opaque: opaque) * opacity
    }
    let x0 = ix < 0 ? 0 : (ix >= width ? width - 1 : ix)
    let x1 = ix + 1 < 0 ? 0 : (ix + 1 >= width ? width - 1 : ix + 1)
    let y0 = iy < 0 ? 0 : (iy >= height ? height - 1 : iy)
    let y1 = iy + 1 < 0 ? 0 : (iy + 1 >= height ? height - 1 : iy + 1)
    if channels == 4 {
      let i00 = (y0 * width + x0) &* 4
      let i10 = (y0 * width + x1) &* 4
      let i01 = (y1 * width + x0) &* 4
      let i11 = (y1 * width + x1) &* 4
      return weights.sample(base, i00, i10, i01, i11, opaque: opaque) * opacity
    }
    let (w00, w10, w01, w11) = (weights.w00, weights.w10, weights.w01, weights.w11)
    let v =
      Float(base[y0 * width + x0]) * w00 + Float(base[y0 * width + x1]) * w10
      + Float(base[y1 * width + x0]) * w01 + Float(base[y1 * width + x1]) * w11
    return SIMD4<Float>(v, v, v, 255) * opacity
  }
}

/// @unchecked Sendable: a read-only view of a table kept alive by the caller (see above).
struct GradientShader: Shader, @unchecked Sendable {
  let origin: LayerPoint
  let axis: LayerPoint
  let table: UnsafePointer<Float>
  let last: Double
  let opacity: Float
  static var needsUV: Bool { true }
  @inline(__always) func shade(_ u: Double, _ v: Double) -> SIMD4<Float> {
    let t = min(max((u - origin.x) * axis.x + (v - origin.y) * axis.y, 0), 1)
    let i = Int(t * last + 0.5) * 4
    return SIMD4<Float>(table[i], table[i + 1], table[i + 2], table[i + 3]) * opacity
  }
}

extension Canvas {
  /// Fills `shape.rect` (layer-local) transformed by `m` with `paint` at `opacity`,
  /// source-over. Returns false when nothing was drawn (off-canvas, edge-on or culled).
  @discardableResult
  mutating func fill(
    _ m: Transform3D, _ shape: LocalShape, _ paint: Paint, opacity: Float, cullBack: Bool = false
  ) -> Bool {
    guard opacity > 0,
      let q = ProjectedQuad(m, shape.rect, canvasWidth: width, canvasHeight: height)
    else { return false }
    if cullBack && !q.frontFacing { return false }
    switch paint {
    case .solid(let r, let g, let b, let a):
      rasterize(q, shape, SolidShader(color: SIMD4(r, g, b, a) * opacity))
    case .texture(let image, let rect):
      guard image.width > 0, image.height > 0 else { return false }
      if shape.radius == 0, shape.hole == nil,
        blitIfAligned(m, shape.rect, image, rect, opacity)
          || blitTranslated(q, m, image, rect, opacity)
      {
        return true
      }
      let sx = Double(image.width) / rect.width
      let sy = Double(image.height) / rect.height
      image.pixels.withUnsafeBufferPointer { tex in
        rasterize(
          q, shape,
          TextureShader(
            base: tex.baseAddress!, width: image.width, height: image.height,
            channels: image.format.channels, sx: sx, sy: sy, ox: rect.minX, oy: rect.minY,
            opacity: opacity, opaque: isOpaque(tex, channels: image.format.channels),
            sharpness: TextureShader.sharpness(
              texelsPerPixel: (sx * sy).squareRoot() / q.scale,
              skew: q.edges.reduce(0) { max($0, min(abs($1.a), abs($1.b))) })))
      }
    case .gradient(let o, let a, let table):
      guard table.count >= 4 else { return false }
      table.withUnsafeBufferPointer { tab in
        rasterize(
          q, shape,
          GradientShader(
            origin: o, axis: a, table: tab.baseAddress!, last: Double(table.count / 4 - 1),
            opacity: opacity))
      }
    }
    return true
  }

  /// Scan-converts the quad: per row, the span where coverage can be non-zero and the inner
  /// span where every edge is ≥ ½ px away (coverage 1, no per-pixel edge test); per pixel, the
  /// inverse homography gives (u, v) for the shader and the local rounded-rect coverage.
  ///
  /// A row is walked left to right in three parts with one running homogeneous coordinate:
  /// the pixels at its left edge and at its right edge take the full per-pixel path
  /// (`ScanRow.edgePixel`: coverage, local shape), the inner span a tight loop (`ScanRow.inner`:
  /// a constant colour as one run, otherwise the shader's `shadeRun` — (u, v) and the shader
  /// only, with loops of their own for opaque textures and affine gradients). The bytes are
  /// those of the per-pixel path everywhere: the same operations on the same values.
  private mutating func rasterize<S: Shader>(_ q: ProjectedQuad, _ shape: LocalShape, _ shader: S) {
    markDirty(q.x0, q.y0, q.x1, q.y1)
    let needsLocal = shape.radius > 0 || shape.hole != nil
    let scan = ScanRow(
      h: (q.inv[0], q.inv[1], q.inv[2], q.inv[3], q.inv[4], q.inv[5], q.inv[6], q.inv[7], q.inv[8]),
      edges: q.edges, scale: q.scale, shape: shape, needsLocal: needsLocal,
      needsUV: S.needsUV || needsLocal, shader: shader, width: width)
    let (x0, x1) = (q.x0, q.x1)
    px.withUnsafeMutableBufferPointer { buf in
      let dst = RowTarget(base: buf.baseAddress!)
      forEachRow(q.y0, q.y1, pixels: (q.x1 - q.x0) * (q.y1 - q.y0)) { y in
        scan.draw(row: y, x0: x0, x1: x1, into: dst.base)
      }
    }
  }

  /// The exact path: a texture whose pixels land 1:1 on integer canvas pixels (an affine
  /// transform that is a pure integer translation) is copied without resampling.
  mutating func blitIfAligned(
    _ m: Transform3D, _ shapeRect: LayerRect, _ image: PixelBuffer, _ texRect: LayerRect,
    _ opacity: Float
  ) -> Bool {
    guard m.m14 == 0, m.m24 == 0, m.m44 == 1, m.m11 == 1, m.m12 == 0, m.m21 == 0, m.m22 == 1,
      texRect.width == Double(image.width), texRect.height == Double(image.height)
    else { return false }
    let ox = texRect.minX + m.m41
    let oy = texRect.minY + m.m42
    guard ox == ox.rounded(), oy == oy.rounded(), abs(ox) < 1e9, abs(oy) < 1e9 else {
      return false
    }
    // The drawn area: shapeRect (a clip within the texture rect) must also be integral.
    let cx0 = shapeRect.minX + m.m41
    let cy0 = shapeRect.minY + m.m42
    let cx1 = shapeRect.maxX + m.m41
    let cy1 = shapeRect.maxY + m.m42
    guard cx0 == cx0.rounded(), cy0 == cy0.rounded(), cx1 == cx1.rounded(), cy1 == cy1.rounded()
    else { return false }
    let x0 = max(0, Int(cx0), Int(ox))
    let y0 = max(0, Int(cy0), Int(oy))
    let x1 = min(width, Int(cx1), Int(ox) + image.width)
    let y1 = min(height, Int(cy1), Int(oy) + image.height)
    guard x0 < x1, y0 < y1 else { return true }
    markDirty(x0, y0, x1, y1)
    let w = width
    let iw = image.width
    let c = image.format.channels
    let iox = Int(ox)
    let ioy = Int(oy)
    image.pixels.withUnsafeBufferPointer { t in
      px.withUnsafeMutableBufferPointer { d in
        let texture = RowImage(base: t.baseAddress!)
        let target = RowTarget(base: d.baseAddress!)
        forEachRow(y0, y1, pixels: (x1 - x0) * (y1 - y0)) { y in
          let tex = texture.base
          let dst = target.base
          let srow = (y - ioy) * iw
          let drow = dst + (y * w) * 4
          if c == 4 {
            let raw = UnsafeRawPointer(tex)
            var x = x0
            if opacity >= 1 {
              x = widenOpaqueQuads(raw, srow &- iox, UnsafeMutableRawPointer(drow), x0, x1)
            }
            for x in x..<x1 {
              let si = (srow &+ x &- iox) &* 4
              // An opaque texel at full opacity replaces the pixel: its bytes, widened.
              let bytes = raw.loadUnaligned(fromByteOffset: si, as: UInt32.self)
              if opacity >= 1, UInt32(littleEndian: bytes) >= 0xFF00_0000 {
                UnsafeMutableRawPointer(drow + x &* 4).storeBytes(
                  of: SIMD4<Float>(unsafeBitCast(bytes, to: SIMD4<UInt8>.self)),
                  as: SIMD4<Float>.self)
                continue
              }
              let t = SIMD4<Float>(
                UnsafeRawPointer(tex).loadUnaligned(fromByteOffset: si, as: SIMD4<UInt8>.self))
              // Premultiplied (an opaque texel as it is), then scaled by the opacity.
              var src = t.w == 255 ? t : t * (t.w / 255)
              src.w = t.w
              if opacity < 1 { src *= opacity }
              sourceOver(src, drow + x &* 4)
            }
          } else {
            for x in x0..<x1 {
              let g = Float(tex[(srow + x - iox) * c])
              var src = SIMD4<Float>(g, g, g, 255)
              if opacity < 1 { src *= opacity }
              sourceOver(src, drow + x * 4)
            }
          }
        }
      }
    }
    return true
  }

  /// A texture moved by a fractional translation at its own size (a push or slide): every
  /// pixel samples the same four texel neighbours with the same bilinear weights, so the
  /// weights are computed once instead of mapping each pixel back through the homography.
  /// Coverage at the quad's edges is the general path's (signed edge distance). False when
  /// `m` is not such a translation.
  mutating func blitTranslated(
    _ q: ProjectedQuad, _ m: Transform3D, _ image: PixelBuffer, _ texRect: LayerRect,
    _ opacity: Float
  ) -> Bool {
    guard m.m14 == 0, m.m24 == 0, m.m44 == 1, m.m11 == 1, m.m12 == 0, m.m21 == 0, m.m22 == 1,
      texRect.width == Double(image.width), texRect.height == Double(image.height),
      image.format.channels == 4
    else { return false }
    // Texel coordinate of canvas pixel x: x + 0.5 − (texRect.minX + m41) − 0.5 = x − ox.
    let ox = texRect.minX + m.m41
    let oy = texRect.minY + m.m42
    guard abs(ox) < 1e9, abs(oy) < 1e9 else { return false }
    let fx = -ox
    let fy = -oy
    let ix = Int(fx.rounded(.down))
    let iy = Int(fy.rounded(.down))
    // At its own size the page is as sharp as the general path draws it (a unit-scale,
    // axis-aligned quad: `TextureShader.sharpness` at its steepest).
    let sharpness = TextureShader.sharpness(texelsPerPixel: 1, skew: 0)
    let wx = TextureShader.steepened(Float(fx - Double(ix)), sharpness)
    let wy = TextureShader.steepened(Float(fy - Double(iy)), sharpness)
    let weights = TexelWeights(wx: wx, wy: wy)
    markDirty(q.x0, q.y0, q.x1, q.y1)
    let w = width
    let iw = image.width
    let ih = image.height
    let edges = q.edges
    image.pixels.withUnsafeBufferPointer { t in
      let opaque = isOpaque(t, channels: 4)
      px.withUnsafeMutableBufferPointer { d in
        let texture = RowImage(base: t.baseAddress!)
        let target = RowTarget(base: d.baseAddress!)
        forEachRow(q.y0, q.y1, pixels: (q.x1 - q.x0) * (q.y1 - q.y0)) { y in
          let span = rowSpan(edges, y: y, x0: q.x0, x1: q.x1)
          guard span.start < span.end else { return }
          let py = Double(y) + 0.5
          let ty0 = min(max(y + iy, 0), ih - 1) * iw
          let ty1 = min(max(y + iy + 1, 0), ih - 1) * iw
          let tex = texture.base
          let dst = target.base + (y * w) * 4
          for x in span.start..<span.end {
            var cov: Float = 1
            if x < span.fullStart || x >= span.fullEnd {
              let pxc = Double(x) + 0.5
              var md = Double.infinity
              for e in edges { md = min(md, e.a * pxc + e.b * py + e.c) }
              let c = md + 0.5
              if c <= 0 { continue }
              cov = Float(min(c, 1))
            }
            let tx0 = min(max(x + ix, 0), iw - 1)
            let tx1 = min(max(x + ix + 1, 0), iw - 1)
            var src =
              weights.sample(
                tex, (ty0 + tx0) &* 4, (ty0 + tx1) &* 4, (ty1 + tx0) &* 4, (ty1 + tx1) &* 4,
                opaque: opaque) * opacity
            if cov < 1 { src *= cov }
            sourceOver(src, dst + x * 4)
          }
        }
      }
    }
    return true
  }

  /// Multiplies everything by the coverage of `shape` under `m` (0 outside).
  mutating func mask(_ m: Transform3D, _ shape: LocalShape) {
    var cov = Canvas(width: width, height: height)
    cov.fill(m, shape, .solid(r: 255, g: 255, b: 255, a: 255), opacity: 1)
    let n = width * height
    cov.px.withUnsafeBufferPointer { c in
      px.withUnsafeMutableBufferPointer { d in
        for i in 0..<n {
          let k = c[i * 4 + 3] / 255
          if k >= 1 { continue }
          d[i * 4] *= k
          d[i * 4 + 1] *= k
          d[i * 4 + 2] *= k
          d[i * 4 + 3] *= k
        }
      }
    }
  }
}

/// The aligned blit at full opacity, four texels at a time while all four are opaque: their
/// bytes widened (what the per-texel loop stores for an opaque texel). Texel x of the row is
/// at byte (`texel0` + x)·4 of `texture`, canvas pixel x at float x·4 of `row`. Returns where
/// it stopped (at x1, or at the first quad with a translucent texel, for the texel loop).
@inline(__always) func widenOpaqueQuads(
  _ texture: UnsafeRawPointer, _ texel0: Int, _ row: UnsafeMutableRawPointer, _ x0: Int,
  _ x1: Int
) -> Int {
  let alphas = UInt64(littleEndian: 0xFF00_0000_FF00_0000)
  var x = x0
  while x &+ 4 <= x1 {
    let s = (texel0 &+ x) &* 4
    let lo = texture.loadUnaligned(fromByteOffset: s, as: UInt64.self)
    let hi = texture.loadUnaligned(fromByteOffset: s &+ 8, as: UInt64.self)
    guard lo & hi & alphas == alphas else { return x }
    for k in 0..<4 {
      let t = texture.loadUnaligned(fromByteOffset: s &+ k &* 4, as: SIMD4<UInt8>.self)
      row.storeBytes(of: SIMD4<Float>(t), toByteOffset: (x &+ k) &* 16, as: SIMD4<Float>.self)
    }
    x &+= 4
  }
  return x
}

/// The four bilinear weights of one sample point, applied to four RGBA8 texels
/// (premultiplying each texel by its alpha unless the texture is opaque): per pixel in
/// `TextureShader`, once for a whole quad in `blitTranslated` (a translated texture).
struct TexelWeights {
  let w00, w10, w01, w11: Float

  init(wx: Float, wy: Float) {
    w00 = (1 - wx) * (1 - wy)
    w10 = wx * (1 - wy)
    w01 = (1 - wx) * wy
    w11 = wx * wy
  }

  @inline(__always) func sample(
    _ base: UnsafePointer<UInt8>, _ i00: Int, _ i10: Int, _ i01: Int, _ i11: Int, opaque: Bool
  ) -> SIMD4<Float> {
    if opaque {
      var s = TexelWeights.sum(base, i00, i10, i01, i11, w00, w10, w01, w11)
      s.w = 255
      return s
    }
    let a00 = Float(base[i00 + 3])
    let a10 = Float(base[i10 + 3])
    let a01 = Float(base[i01 + 3])
    let a11 = Float(base[i11 + 3])
    let sa = a00 * w00 + a10 * w10 + a01 * w01 + a11 * w11
    let k: Float = 1.0 / 255
    let q00 = a00 * w00 * k
    let q10 = a10 * w10 * k
    let q01 = a01 * w01 * k
    let q11 = a11 * w11 * k
    let r =
      Float(base[i00]) * q00 + Float(base[i10]) * q10 + Float(base[i01]) * q01
      + Float(base[i11]) * q11
    let g =
      Float(base[i00 + 1]) * q00 + Float(base[i10 + 1]) * q10 + Float(base[i01 + 1]) * q01
      + Float(base[i11 + 1]) * q11
    let b =
      Float(base[i00 + 2]) * q00 + Float(base[i10 + 2]) * q10 + Float(base[i01 + 2]) * q01
      + Float(base[i11 + 2]) * q11
    return SIMD4<Float>(r, g, b, sa)
  }
}

extension TexelWeights {
  /// t00·w00 + t10·w10 + t01·w01 + t11·w11 over all four lanes of four RGBA8 texels, left to
  /// right: lane by lane the sums of one channel at a time. Not inlined on purpose: inlined
  /// into a caller that then overwrites the alpha lane, the compiler splits the lanes and
  /// converts bytes one by one (about 110 instructions a sample instead of 31 and a call).
  @inline(never) static func sum(
    _ base: UnsafePointer<UInt8>, _ i00: Int, _ i10: Int, _ i01: Int, _ i11: Int,
    _ w00: Float, _ w10: Float, _ w01: Float, _ w11: Float
  ) -> SIMD4<Float> {
    let raw = UnsafeRawPointer(base)
    let t00 = SIMD4<Float>(raw.loadUnaligned(fromByteOffset: i00, as: SIMD4<UInt8>.self))
    let t10 = SIMD4<Float>(raw.loadUnaligned(fromByteOffset: i10, as: SIMD4<UInt8>.self))
    let t01 = SIMD4<Float>(raw.loadUnaligned(fromByteOffset: i01, as: SIMD4<UInt8>.self))
    let t11 = SIMD4<Float>(raw.loadUnaligned(fromByteOffset: i11, as: SIMD4<UInt8>.self))
    return t00 * w00 + t10 * w10 + t01 * w01 + t11 * w11
  }
}

/// One row's pixels where a convex quad's coverage can be non-zero (start..<end) and where
/// every edge is at least ½ px away (fullStart..<fullEnd, coverage 1).
struct RowSpan {
  var start, end, fullStart, fullEnd: Int
}

/// The spans of row `y` for `edges` (a·x + b·y + c ≥ 0 inside, unit normals) within x0..<x1.
@inline(__always) func rowSpan(
  _ edges: [(a: Double, b: Double, c: Double)], y: Int, x0: Int, x1: Int
) -> RowSpan {
  let py = Double(y) + 0.5
  var xs = Double(x0)
  var xe = Double(x1)
  var inS = xs
  var inE = xe
  for e in edges {
    let base = e.b * py + e.c
    if abs(e.a) < 1e-12 {
      if base <= -0.5 { xs = xe }
      if base < 0.5 { inS = inE }
      continue
    }
    let lim = (-0.5 - base) / e.a - 0.5
    let full = (0.5 - base) / e.a - 0.5
    if e.a > 0 {
      xs = max(xs, lim.rounded(.down))
      inS = max(inS, full.rounded(.up))
    } else {
      xe = min(xe, lim.rounded(.up) + 1)
      inE = min(inE, full.rounded(.down) + 1)
    }
  }
  return RowSpan(
    start: max(x0, Int(max(xs, -1e9))), end: min(x1, Int(min(xe, 1e9))),
    fullStart: Int(max(inS, -1e9)), fullEnd: Int(min(inE, 1e9)))
}

/// Source-over of one premultiplied pixel onto the canvas pixel at `d` (4 floats).
@inline(__always) func sourceOver(_ src: SIMD4<Float>, _ d: UnsafeMutablePointer<Float>) {
  let sa = src.w
  if sa <= 0 { return }
  let p = UnsafeMutableRawPointer(d)
  if sa >= 255 {
    p.storeBytes(of: src, as: SIMD4<Float>.self)
  } else {
    p.storeBytes(
      of: src + p.loadUnaligned(as: SIMD4<Float>.self) * (1 - sa / 255), as: SIMD4<Float>.self)
  }
}

/// Source-over of one colour onto `count` consecutive canvas pixels from `d`.
@inline(__always) func fillRun(_ src: SIMD4<Float>, _ d: UnsafeMutablePointer<Float>, count: Int) {
  guard src.w > 0 else { return }
  let p = UnsafeMutableRawPointer(d)
  if src.w >= 255 {
    for i in 0..<count { p.storeBytes(of: src, toByteOffset: i * 16, as: SIMD4<Float>.self) }
    return
  }
  let k = 1 - src.w / 255
  for i in 0..<count {
    let old = p.loadUnaligned(fromByteOffset: i * 16, as: SIMD4<Float>.self)
    p.storeBytes(of: src + old * k, toByteOffset: i * 16, as: SIMD4<Float>.self)
  }
}

/// Image bytes read by row workers (see `RowTarget`).
struct RowImage: @unchecked Sendable {
  let base: UnsafePointer<UInt8>
}

/// The canvas rows being written. @unchecked Sendable: row workers write disjoint rows of
/// one buffer that outlives them (`forEachRow` returns only when all rows are done).
struct RowTarget: @unchecked Sendable {
  let base: UnsafeMutablePointer<Float>
}

/// Runs `row` for y in y0..<y1: on all cores in contiguous bands when the area is large,
/// else inline. Each row is computed independently of every other, from the same inputs, so
/// the bytes are identical however the rows are scheduled.
func forEachRow(_ y0: Int, _ y1: Int, pixels: Int, _ row: @Sendable (Int) -> Void) {
  let rows = y1 - y0
  let cores = ProcessInfo.processInfo.activeProcessorCount
  guard rows > 8, pixels >= 60_000, cores > 1 else {
    for y in y0..<y1 { row(y) }
    return
  }
  let bands = min(rows, cores * 4)
  DispatchQueue.concurrentPerform(iterations: bands) { band in
    let a = y0 + rows * band / bands
    let b = y0 + rows * (band + 1) / bands
    for y in a..<b { row(y) }
  }
}

/// True when every pixel's alpha is 255 (gray images are always opaque). The RGBA8 bytes are
/// AND-ed eight at a time (two pixels a word), 4 KiB between looks at the alpha bytes.
func isOpaque(_ p: UnsafeBufferPointer<UInt8>, channels: Int) -> Bool {
  guard channels == 4 else { return true }
  guard let base = p.baseAddress else { return true }
  let raw = UnsafeRawPointer(base)
  let alphas = UInt64(littleEndian: 0xFF00_0000_FF00_0000)
  let words = p.count / 8
  var w = 0
  while w < words {
    let end = min(words, w + 512)
    var acc = ~UInt64(0)
    for k in w..<end { acc &= raw.loadUnaligned(fromByteOffset: k &* 8, as: UInt64.self) }
    if acc & alphas != alphas { return false }
    w = end
  }
  var i = words * 8 + 3
  while i < p.count {
    if p[i] != 255 { return false }
    i += 4
  }
  return true
}
