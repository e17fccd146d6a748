import Foundation
import QuireRaster

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
    if case .texture(let image, let rect) = paint, shape.radius == 0, shape.hole == nil,
      blitIfAligned(m, shape.rect, image, rect, opacity)
    {
      return true
    }
    markDirty(q.x0, q.y0, q.x1, q.y1)
    let w = width
    let hi = q.inv
    let edges = q.edges
    let scale = q.scale
    let needsLocalCoverage = shape.radius > 0 || shape.hole != nil
    // Paint set-up.
    var solid: (Float, Float, Float, Float) = (0, 0, 0, 0)
    var texW = 0
    var texH = 0
    var texC = 4
    var texPixels: [UInt8] = []
    var tsx = 0.0
    var tsy = 0.0
    var tox = 0.0
    var toy = 0.0
    var gradO = LayerPoint.zero
    var gradA = LayerPoint.zero
    var table: [Float] = []
    var kind = 0
    switch paint {
    case .solid(let r, let g, let b, let a):
      solid = (r * opacity, g * opacity, b * opacity, a * opacity)
      kind = 0
    case .texture(let image, let rect):
      kind = 1
      texW = image.width
      texH = image.height
      texC = image.format.channels
      texPixels = image.pixels
      guard texW > 0, texH > 0 else { return false }
      tsx = Double(texW) / rect.width
      tsy = Double(texH) / rect.height
      tox = rect.minX
      toy = rect.minY
    case .gradient(let o, let a, let t):
      kind = 2
      gradO = o
      gradA = a
      table = t
    }
    let tableMax = Double(max(table.count / 4 - 1, 0))
    texPixels.withUnsafeBufferPointer { tex in
      table.withUnsafeBufferPointer { tab in
        px.withUnsafeMutableBufferPointer { dst in
          for y in q.y0..<q.y1 {
            let py = Double(y) + 0.5
            // The span where every edge function exceeds −½.
            var xs = Double(q.x0)
            var xe = Double(q.x1)
            var inS = xs
            var inE = xe
            for e in edges {
              let base = e.b * py + e.c
              // a·x + base > −0.5  (x = pixel centre)
              if abs(e.a) < 1e-12 {
                if base <= -0.5 {
                  xs = xe
                }
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
            let sx = max(q.x0, Int(max(xs, -1e9)))
            let ex = min(q.x1, Int(min(xe, 1e9)))
            if sx >= ex { continue }
            let fullS = Int(max(inS, -1e9))
            let fullE = Int(min(inE, 1e9))
            for x in sx..<ex {
              let pxc = Double(x) + 0.5
              var cov: Float = 1
              if x < fullS || x >= fullE {
                var md = Double.infinity
                for e in edges { md = min(md, e.a * pxc + e.b * py + e.c) }
                let c = md + 0.5
                if c <= 0 { continue }
                cov = Float(min(c, 1))
              }
              // Inverse homography.
              let ha = pxc * hi[0] + py * hi[3] + hi[6]
              let hb = pxc * hi[1] + py * hi[4] + hi[7]
              let hc = pxc * hi[2] + py * hi[5] + hi[8]
              if hc == 0 { continue }
              let u = ha / hc
              let v = hb / hc
              if needsLocalCoverage {
                var lc = 1.0
                if shape.radius > 0 {
                  let d = roundedRectInside(u, v, shape.rect, shape.radius)
                  lc = min(max(0.5 + d * scale, 0), 1)
                }
                if let hole = shape.hole {
                  let d = roundedRectInside(u, v, hole.rect, hole.radius)
                  lc *= 1 - min(max(0.5 + d * scale, 0), 1)
                }
                cov *= Float(lc)
                if cov <= 0 { continue }
              }
              var sr: Float
              var sg: Float
              var sb: Float
              var sa: Float
              switch kind {
              case 0:
                (sr, sg, sb, sa) = solid
              case 1:
                let fx = (u - tox) * tsx - 0.5
                let fy = (v - toy) * tsy - 0.5
                let ix0 = Int(fx.rounded(.down))
                let iy0 = Int(fy.rounded(.down))
                let wx = Float(fx - Double(ix0))
                let wy = Float(fy - Double(iy0))
                let xa = min(max(ix0, 0), texW - 1)
                let xb = min(max(ix0 + 1, 0), texW - 1)
                let ya = min(max(iy0, 0), texH - 1)
                let yb = min(max(iy0 + 1, 0), texH - 1)
                let w00 = (1 - wx) * (1 - wy)
                let w10 = wx * (1 - wy)
                let w01 = (1 - wx) * wy
                let w11 = wx * wy
                if texC == 4 {
                  let i00 = (ya * texW + xa) * 4
                  let i10 = (ya * texW + xb) * 4
                  let i01 = (yb * texW + xa) * 4
                  let i11 = (yb * texW + xb) * 4
                  let a00 = Float(tex[i00 + 3]) * w00
                  let a10 = Float(tex[i10 + 3]) * w10
                  let a01 = Float(tex[i01 + 3]) * w01
                  let a11 = Float(tex[i11 + 3]) * w11
                  sa = a00 + a10 + a01 + a11
                  let k: Float = 1 / 255
                  sr =
                    (Float(tex[i00]) * a00 + Float(tex[i10]) * a10 + Float(tex[i01]) * a01
                      + Float(tex[i11]) * a11) * k
                  sg =
                    (Float(tex[i00 + 1]) * a00 + Float(tex[i10 + 1]) * a10 + Float(tex[i01 + 1])
                      * a01 + Float(tex[i11 + 1]) * a11) * k
                  sb =
                    (Float(tex[i00 + 2]) * a00 + Float(tex[i10 + 2]) * a10 + Float(tex[i01 + 2])
                      * a01 + Float(tex[i11 + 2]) * a11) * k
                } else {
                  let g =
                    Float(tex[ya * texW + xa]) * w00 + Float(tex[ya * texW + xb]) * w10
                    + Float(tex[yb * texW + xa]) * w01 + Float(tex[yb * texW + xb]) * w11
                  (sr, sg, sb, sa) = (g, g, g, 255)
                }
                let o = opacity
                sr *= o
                sg *= o
                sb *= o
                sa *= o
              default:
                var t = ((u - gradO.x) * gradA.x + (v - gradO.y) * gradA.y)
                t = min(max(t, 0), 1)
                let i = Int((t * tableMax).rounded()) * 4
                let o = opacity
                (sr, sg, sb, sa) = (tab[i] * o, tab[i + 1] * o, tab[i + 2] * o, tab[i + 3] * o)
              }
              if cov < 1 {
                sr *= cov
                sg *= cov
                sb *= cov
                sa *= cov
              }
              if sa <= 0 { continue }
              let di = (y * w + x) * 4
              if sa >= 255 {
                dst[di] = sr
                dst[di + 1] = sg
                dst[di + 2] = sb
                dst[di + 3] = sa
              } else {
                let k = 1 - sa / 255
                dst[di] = sr + dst[di] * k
                dst[di + 1] = sg + dst[di + 1] * k
                dst[di + 2] = sb + dst[di + 2] * k
                dst[di + 3] = sa + dst[di + 3] * k
              }
            }
          }
        }
      }
    }
    return true
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
    image.pixels.withUnsafeBufferPointer { tex in
      px.withUnsafeMutableBufferPointer { dst in
        for y in y0..<y1 {
          let srow = (y - ioy) * iw
          for x in x0..<x1 {
            let si = (srow + x - iox) * c
            var sr: Float
            var sg: Float
            var sb: Float
            var sa: Float
            if c == 4 {
              sa = Float(tex[si + 3])
              let k = sa / 255
              sr = Float(tex[si]) * k
              sg = Float(tex[si + 1]) * k
              sb = Float(tex[si + 2]) * k
              if sa == 255 {
                sr = Float(tex[si])
                sg = Float(tex[si + 1])
                sb = Float(tex[si + 2])
              }
            } else {
              sr = Float(tex[si])
              sg = sr
              sb = sr
              sa = 255
            }
            if opacity < 1 {
              sr *= opacity
              sg *= opacity
              sb *= opacity
              sa *= opacity
            }
            if sa <= 0 { continue }
            let di = (y * w + x) * 4
            if sa >= 255 {
              dst[di] = sr
              dst[di + 1] = sg
              dst[di + 2] = sb
              dst[di + 3] = sa
            } else {
              let k = 1 - sa / 255
              dst[di] = sr + dst[di] * k
              dst[di + 1] = sg + dst[di + 1] * k
              dst[di + 2] = sb + dst[di + 2] * k
              dst[di + 3] = sa + dst[di + 3] * k
            }
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
