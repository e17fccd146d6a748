import Foundation

/// A flat 2-D fold (the StPageFlip / turn.js model): the turning page is reflected across a
/// fold line and clipped; no cylinder, no perspective.
///
/// In page coordinates (TurnCanvas.swift): the grabbed corner O (bottom-right (W, H), top-right
/// (W, 0), or for `middle` the middle of the right edge (W, H/2)) is dragged to C(p). The fold
/// line is the perpendicular bisector of O–C with unit normal n = (O − C)/|O − C| pointing to the
/// lifted side; page points q with n·(q − M) > 0 (M the midpoint) are lifted and land reflected
/// at q − 2·d·n, showing their back. The corner path: C = (W − 2W·p, H ∓ lift) with
/// lift = 0.15·H·sin(πp) (the corner rises in an arc), then pulled back to within radius W of
/// the spine point (0, H) (resp. (0, 0)) so the leaf never tears from the spine; `middle`
/// drags the whole edge straight (no lift) — a vertical fold at x = W(1 − p), the Leaves
/// geometry without its shadows. At p = 1, C = (−W, y): the fold is the spine and the leaf lies
/// reflected on [−W, 0): off a single page, exactly on a spread's left page.
///
/// Shading: the back gets a gradient darkening toward the fold (α 0.25 over 0.15W), the page
/// beneath a shadow along the fold (α 0.5 over min(0.08W, |O − C|/4), so it grows with the
/// flap); both are at full strength from the start (a corner lifted over white margins shows
/// only by its shading) and fade as min(1, 4(1 − p)), so they vanish as the leaf lies down. The fold edge and the page edges are anti-aliased by coverage.
package struct FoldEffect: PageTurnEffect, LeafEffect {
  package var name: String { "fold" }
  package init() {}

  package func frame(at t: Double, pages: TurnPages, options: TurnOptions) -> PixelBuffer {
    leafFrame(at: t, pages: pages, options: options)
  }

  /// The dragged corner at progress p (page coordinates).
  static func corner(progress p: Double, width: Int, height: Int, corner: TurnCorner) -> (
    origin: SIMD2<Double>, dragged: SIMD2<Double>
  ) {
    let w = Double(width)
    let h = Double(height)
    switch corner {
    case .middle:
      return (SIMD2(w, h / 2), SIMD2(w - 2 * w * p, h / 2))
    case .bottom, .top:
      let spineY = corner == .bottom ? h : 0
      let lift = 0.15 * h * sin(Double.pi * p) * (corner == .bottom ? -1 : 1)
      var c = SIMD2(w - 2 * w * p, spineY + lift)
      let spine = SIMD2(0, spineY)
      let v = c - spine
      let len = (v * v).sum().squareRoot()
      if len > w { c = spine + v * (w / len) }
      return (SIMD2(w, spineY), c)
    }
  }

  func render(progress: Double, faces: LeafFaces, corner: TurnCorner) -> PixelBuffer {
    if progress <= 0 || faces.width == 0 || faces.height == 0 { return faces.startImage }
    if progress >= 1 { return faces.endImage }
    let (o, c) = Self.corner(
      progress: progress, width: faces.width, height: faces.height, corner: corner)
    let v = o - c
    let len = (v * v).sum().squareRoot()
    if len < 1e-9 { return faces.startImage }
    let n = v / len
    let m = (o + c) / 2
    let nx = Float(n.x)
    let ny = Float(n.y)
    let cOff = Float((n * m).sum())
    let w = faces.width
    let h = faces.height
    let fw = Float(w)
    let fh = Float(h)
    // Shading is at full strength from the first frame (a lifted corner over white margins
    // shows only by its shading) and fades over the last quarter; the beneath shadow is as
    // wide as a quarter of the fold's distance from the corner, at most 0.08W.
    let envelope = Float(Swift.min(1, 4 * (1 - progress)))
    let backShadeWidth = 0.15 * fw
    let backShadeMax: Float = 0.25 * envelope
    let shadowWidth = Swift.max(1e-3, Swift.min(0.08 * fw, 0.25 * Float(len)) * envelope)
    let shadowMax: Float = 0.5 * envelope
    let veil = faces.backVeil
    let canvasWidth = faces.canvasWidth
    let originX = faces.originX

    @inline(__always) func coverage(_ px: Float, _ py: Float) -> Float {
      clamp01(Swift.min(Swift.min(px, fw - px), Swift.min(py, fh - py)) + 0.5)
    }

    return withLeafCanvas(faces) { out, front, back, beneath, left in
      for y in 0..<h {
        let qy = Float(y) + 0.5
        let rowOut = y * canvasWidth * 4
        // d grows along the row (nx > 0): left of the work span the flat page, right of it
        // the page beneath. The span covers the fold band (−½ ≤ d ≤ shadow + ½) and the
        // columns whose reflection lands on the page (the flap).
        var (workStart, workEnd) = (0, canvasWidth)
        if nx > 1e-6 {
          let k = ny * qy - cOff
          var lo = (-0.5 - k) / nx
          var hi = (shadowWidth + 0.5 - k) / nx
          // Reflection r(qx) = q − 2d·n, linear in qx; keep r within the page (±1 px).
          if let rx = span(1 - 2 * nx * nx, -2 * nx * k, -1, fw + 1),
            let ry = span(-2 * nx * ny, qy - 2 * ny * k, -1, fh + 1)
          {
            let a = Swift.max(rx.0, ry.0)
            let b = Swift.min(Swift.min(rx.1, ry.1), (0.5 - k) / nx)
            if a <= b {
              lo = Swift.min(lo, a)
              hi = Swift.max(hi, b)
            }
          }
          let first = Swift.max(-Float(originX) - 2, Swift.min(fw + 2, lo))
          let last = Swift.max(-Float(originX) - 2, Swift.min(fw + 2, hi))
          workStart = Swift.max(0, Int((first - 0.5).rounded(.down)) + originX - 1)
          workEnd = Swift.min(canvasWidth, Int((last - 0.5).rounded(.up)) + originX + 2)
          workEnd = Swift.max(workStart, workEnd)
        }
        copyRun(
          out, canvasWidth: canvasWidth, row: y, from: 0, to: workStart, originX: originX,
          page: front, left: left)
        copyRun(
          out, canvasWidth: canvasWidth, row: y, from: workEnd, to: canvasWidth,
          originX: originX, page: beneath, left: left)
        for cx in workStart..<workEnd {
          let px = cx - originX
          let qx = Float(px) + 0.5
          let d = nx * qx + ny * qy - cOff
          let o = rowOut + cx * 4
          // The flat page at q (the page beneath if q is lifted, else the front / left page).
          let lifted = clamp01(d + 0.5)  // fraction of the pixel on the lifted side
          var color: Texel
          if px < 0 {
            color = left!.pixel(px + w, y)
          } else if lifted >= 1 {
            let shadow = d < shadowWidth ? shadowMax * (1 - d / shadowWidth) : 0
            if shadow <= 0 {
              copyPixel(beneath.base, (y * w + px) * 4, out, o)
              continue
            }
            color = shadowed(beneath.pixel(px, y), shadow * shadow / shadowMax)
          } else if lifted <= 0 {
            color = front.pixel(px, y)
          } else {
            color = mix(front.pixel(px, y), beneath.pixel(px, y), lifted)
          }
          // The reflected flap lands where d < 0 (its page point lies at distance −d > 0).
          if d < 0.5 {
            let rx = qx - 2 * d * nx
            let ry = qy - 2 * d * ny
            let cov = coverage(rx, ry) * clamp01(0.5 - d)
            if cov > 0 {
              var b = back?.sample(rx, ry) ?? paperWhite
              if veil > 0 { b = mix(b, paperWhite, veil) }
              let k = clamp01(1 + d / backShadeWidth)
              if backShadeMax > 0 && k > 0 { b = shadowed(b, backShadeMax * k * k) }
              color = mix(color, b, cov)
            } else if px >= 0 && lifted <= 0 {
              copyPixel(front.base, (y * w + px) * 4, out, o)
              continue
            }
          }
          store(color, out, o)
        }
      }
    }
  }
}

/// The interval of x where a·x + b ∈ [lo, hi] (nil if none; unbounded as ±∞).
private func span(_ a: Float, _ b: Float, _ lo: Float, _ hi: Float) -> (Float, Float)? {
  if abs(a) < 1e-9 { return (b >= lo && b <= hi) ? (-.infinity, .infinity) : nil }
  let x0 = (lo - b) / a
  let x1 = (hi - b) / a
  return x0 <= x1 ? (x0, x1) : (x1, x0)
}
