import Foundation

/// The drop shadow of a square-cornered layer under an affine transform, without rasterising
/// and blurring a mask per frame.
///
/// The Gaussian blur of a rectangle is separable: its value at a point is the product of the
/// blurred box along each of the rectangle's axes, ½(erf((u − u₀)/(√2σ)) − erf((u − u₁)/(√2σ))).
/// Each factor is tabulated once per layer at half-pixel steps (linear interpolation between
/// entries), and each canvas pixel maps back to layer-local (u, v) by the inverse affine map
/// stepped incrementally along the row, so a pixel costs two table lookups. The blur is done
/// in the layer's axes with σ divided by each axis's scale: exact for rotations and uniform or
/// axis-aligned scales (where blurring commutes with the transform), an approximation under
/// shear. Perspective transforms and rounded corners take the general mask-and-blur path.
///
/// Occlusion: when the layer itself is opaque (`opaqueLayer`), the pixels it will cover
/// outright — every pixel centre at least 1.5 px inside its rectangle, where its fill has
/// coverage 1 and replaces what lies beneath — are skipped, so the shadow costs only the
/// ring around the layer. The bytes are those of drawing it everywhere.
struct RectShadow {
  /// The layer's local rectangle.
  var rect: LayerRect
  /// Canvas-space Gaussian σ (pixels).
  var sigma: Double
  /// The layer's affine map local → canvas, as X = a·u + c·v + tx, Y = b·u + d·v + ty.
  var a, b, c, d, tx, ty: Double
  /// The shadow's offset on the canvas.
  var offset: LayerSize
  /// The layer is drawn opaque over its whole rectangle right after its shadow.
  var opaqueLayer = false

  /// nil when `m` is not affine in the plane z = 0.
  init?(_ m: Transform3D, rect: LayerRect, sigma: Double, offset: LayerSize) {
    guard m.m14 == 0, m.m24 == 0, m.m44 == 1 else { return nil }
    self.rect = rect
    self.sigma = max(sigma, 0.3)
    self.offset = offset
    (a, b, c, d) = (m.m11, m.m12, m.m21, m.m22)
    (tx, ty) = (m.m41 + offset.width, m.m42 + offset.height)
  }

  /// The local rectangle the opaque layer covers outright, in the shadow's local
  /// coordinates (shifted by the offset mapped back), as (u0, u1, v0, v1); an empty range
  /// when nothing is skipped. `ia…id` is the inverse linear map.
  private func covered(_ ia: Double, _ ib: Double, _ ic: Double, _ id: Double)
    -> (Double, Double, Double, Double)
  {
    guard opaqueLayer else { return (1, 0, 1, 0) }
    // The smallest singular value of the linear map: canvas distance ≥ local distance × it.
    let s2 = a * a + b * b + c * c + d * d
    let det = a * d - b * c
    let smin = ((s2 - (max(s2 * s2 - 4 * det * det, 0)).squareRoot()) / 2).squareRoot()
    guard smin > 1e-6, smin.isFinite else { return (1, 0, 1, 0) }
    let m = 1.5 / smin
    // A canvas pixel at shadow-local (u, v) is at layer-local (u, v) + (du, dv).
    let du = offset.width * ia + offset.height * ic
    let dv = offset.width * ib + offset.height * id
    return (
      rect.minX + m - du, rect.maxX - m - du, rect.minY + m - dv, rect.maxY - m - dv
    )
  }

  /// One axis's blurred box, sampled every `step` local units from `origin`.
  struct Profile {
    var origin: Double
    var invStep: Double
    var table: [Float]

    init?(from lo: Double, to hi: Double, sigma: Double, step: Double) {
      let reach = 4 * sigma
      origin = lo - reach
      let count = Int(((hi - lo + 2 * reach) / step).rounded(.up)) + 2
      guard count > 1, count <= 1 << 20, step > 0 else { return nil }
      invStep = 1 / step
      let k = 1 / (2.0.squareRoot() * sigma)
      let o = origin
      table = (0..<count).map { i in
        let u = o + Double(i) * step
        return Float(0.5 * (erf((u - lo) * k) - erf((u - hi) * k)))
      }
    }

    @inline(__always) func value(_ u: Double) -> Float {
      let f = (u - origin) * invStep
      guard f > 0 else { return 0 }
      let i = Int(f)
      guard i + 1 < table.count else { return 0 }
      let w = Float(f - Double(i))
      return table[i] + (table[i + 1] - table[i]) * w
    }
  }

  /// Composites the shadow (colour premultiplied by `strength` · 255) source-over.
  func draw(into canvas: inout Canvas, color: RGBA, strength: Double) -> Bool {
    let det = a * d - b * c
    let su = (a * a + b * b).squareRoot()
    let sv = (c * c + d * d).squareRoot()
    guard abs(det) > 1e-12, su > 1e-9, sv > 1e-9, det.isFinite else { return false }
    guard
      let pu = Profile(
        from: rect.minX, to: rect.maxX, sigma: sigma / su, step: 0.5 / su),
      let pv = Profile(
        from: rect.minY, to: rect.maxY, sigma: sigma / sv, step: 0.5 / sv)
    else { return false }
    // The canvas box: the corners pushed out by 4σ.
    let corners = [
      (rect.minX, rect.minY), (rect.maxX, rect.minY), (rect.minX, rect.maxY),
      (rect.maxX, rect.maxY),
    ].map { (a * $0.0 + c * $0.1 + tx, b * $0.0 + d * $0.1 + ty) }
    let reach = 4 * sigma + 1
    let fx0 = corners.map(\.0).min()! - reach
    let fx1 = corners.map(\.0).max()! + reach
    let fy0 = corners.map(\.1).min()! - reach
    let fy1 = corners.map(\.1).max()! + reach
    guard fx0.isFinite, fx1.isFinite, fy0.isFinite, fy1.isFinite else { return false }
    let x0 = max(0, Int(max(fx0, -1e9).rounded(.down)))
    let y0 = max(0, Int(max(fy0, -1e9).rounded(.down)))
    let x1 = min(canvas.width, Int(min(fx1, 1e9).rounded(.up)))
    let y1 = min(canvas.height, Int(min(fy1, 1e9).rounded(.up)))
    guard x0 < x1, y0 < y1 else { return true }
    canvas.markDirty(x0, y0, x1, y1)
    // Inverse map canvas → local.
    let (ia, ib, ic, id) = (d / det, -b / det, -c / det, a / det)
    let k = Float(strength) * 255
    let (cr, cg, cb) = (Float(color.red), Float(color.green), Float(color.blue))
    let w = canvas.width
    let (cu0, cu1, cv0, cv1) = covered(ia, ib, ic, id)
    canvas.px.withUnsafeMutableBufferPointer { buf in
      let dst = RowTarget(base: buf.baseAddress!)
      forEachRow(y0, y1, pixels: (x1 - x0) * (y1 - y0)) { y in
        let dst = dst.base
        let py = Double(y) + 0.5 - ty
        let px = Double(x0) + 0.5 - tx
        var u = px * ia + py * ic
        var v = px * ib + py * id
        var i = (y * w + x0) * 4
        for _ in x0..<x1 {
          defer {
            u += ia
            v += ib
            i += 4
          }
          if u > cu0 && u < cu1 && v > cv0 && v < cv1 { continue }
          let s = pu.value(u)
          if s <= 0 { continue }
          let al = s * pv.value(v) * k
          if al <= 1e-3 { continue }
          let f = 1 - al / 255
          dst[i] = cr * al + dst[i] * f
          dst[i + 1] = cg * al + dst[i + 1] * f
          dst[i + 2] = cb * al + dst[i + 2] * f
          dst[i + 3] = al + dst[i + 3] * f
        }
      }
    }
    return true
  }
}
