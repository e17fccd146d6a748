import Foundation

/// A realistic page curl: the leaf rolls around a cylinder whose axis (the fold line) sweeps
/// from the right edge across the page.
///
/// Geometry, in page coordinates (TurnCanvas.swift). The fold line has unit normal n pointing
/// to the lifted side and passes through (f, H/2); the signed distance of a point q from it is
/// d(q) = n·q − c. A page point at distance d:
/// - d ≤ 0 stays flat (the current page, unshaded);
/// - 0 < d < πr wraps the cylinder of radius r: it lands at distance r·sin(d/r), height
///   r(1 − cos(d/r)); past a quarter turn we see its back;
/// - d ≥ πr lies flat on top, mirrored about the fold: it lands at distance πr − d.
/// The renderer inverts this per output pixel q with dq = d(q): the flat-back hit at page
/// distance πr − dq (if dq ≤ 0), the cylinder's two hits θ = asin(dq/r) (front) and π − θ
/// (back) (if 0 ≤ dq ≤ r), the flat page itself, and the page beneath — topmost first.
///
/// Progress p drives the geometry: the fold travels from the grabbed corner to beyond the left
/// edge (far enough that the curl and its shadow are gone), the radius shrinks from 0.12W to
/// 0.04W, the tilt of a corner grab (top or bottom) starts at 0.3 rad and straightens to 0. In a
/// spread the fold stops at the spine and the radius shrinks to 0, so the leaf lies down on the
/// left page exactly. Corner: bottom lifts the bottom-right corner first (n tilted down), top
/// the top-right corner, middle the whole right edge (vertical fold).
///
/// Shading: a Lambert term with light from the viewer and the upper left on both sides of the
/// cylinder (1 on flat paper, so the curl blends into the page at the fold); the back shows
/// options.back (LeafFaces); a soft shadow (α 0.45, quadratic falloff over 0.8r) falls on the
/// page beneath past the curl's silhouette, on the flat page around the flipped-over flap, and
/// on the flat page along the fold where the roll rises from it, and on the inside of the roll
/// (the front face before a quarter turn, visible where the sheet's edge cuts the roll's back
/// away, at the foot of a corner curl): there it continues the fold's shadow up from the fold
/// and takes the shadow of the roll's back beside it — lit as the open side of the paper, that
/// inside showed as a white patch at the roll's foot between shaded page and shaded roll.
/// Edges of the leaf are anti-aliased by the distance of the sampled page point to the page
/// edge (coverage = clamp(distance + ½)).
package struct CurlEffect: PageTurnEffect, LeafEffect {
  package var name: String { "curl" }
  package init() {}

  package func frame(at t: Double, pages: TurnPages, options: TurnOptions) -> PixelBuffer {
    leafFrame(at: t, pages: pages, options: options)
  }

  /// The curl's geometry at progress p for a page of the given size (exposed for tests).
  struct Geometry {
    var nx: Float
    var ny: Float
    var c: Float
    var radius: Float
    var shadowWidth: Float

    init(progress p: Double, width: Int, height: Int, corner: TurnCorner, spread: Bool) {
      let w = Double(width)
      let h = Double(height)
      let tilt0 = corner == .middle ? 0 : 0.3
      let r0 = 0.12 * w
      let r = spread ? r0 * (1 - p) : w * (0.12 - 0.08 * p)
      let sw = 0.8 * r
      // The fold starts 2 % of the width inside the grabbed corner, so the corner lifts
      // visibly from the first frame after frame 0 (frame 0 is the flat page exactly).
      let f0 = w + (h / 2) * tan(tilt0) - 0.02 * w
      let r1 = 0.04 * w
      // The curl and its shadow leave the page exactly at p = 1 (no frame before the last
      // already equal to the next page).
      let f1 = spread ? 0 : -(r1 + 0.8 * r1)
      let f = f0 + (f1 - f0) * p
      var tilt = tilt0 * (1 - p)
      if spread {
        // Hinged at the spine: the fold line must not cross x = 0 anywhere on the page.
        tilt = min(tilt, atan(max(0, 2 * f / h)))
      }
      let sign: Double = corner == .top ? -1 : 1
      nx = Float(cos(tilt))
      ny = Float(sign * sin(tilt))
      c = Float(cos(tilt) * f + sign * sin(tilt) * h / 2)
      radius = Float(r)
      shadowWidth = Float(sw)
      // A corner just lifted rolls on a small cylinder: the radius is at most half the depth
      // the fold has reached into the page, so the lifted corner shows (and shades) from the
      // first frame instead of lying on a wide cylinder that barely moves it.
      let depth = farthestLift(width: Float(w), height: Float(h))
      let small = Swift.max(0.25, depth / 2)
      if small < radius {
        radius = small
        shadowWidth = 0.8 * small
      }
    }

    /// The farthest any corner of a width × height page lies on the lifted side (n·q − c).
    func farthestLift(width: Float, height: Float) -> Float {
      var farthest = -Float.infinity
      for x in [Float(0), width] {
        for y in [Float(0), height] { farthest = Swift.max(farthest, nx * x + ny * y - c) }
      }
      return farthest
    }
  }

  func render(progress: Double, faces: LeafFaces, corner: TurnCorner) -> PixelBuffer {
    if progress <= 0 || faces.width == 0 || faces.height == 0 { return faces.startImage }
    if progress >= 1 { return faces.endImage }
    let g = Geometry(
      progress: progress, width: faces.width, height: faces.height, corner: corner,
      spread: faces.left != nil)
    let w = faces.width
    let h = faces.height
    let fw = Float(w)
    let fh = Float(h)
    let nx = g.nx
    let ny = g.ny
    let r = g.radius
    let sw = g.shadowWidth
    let piR = Float.pi * r
    let hasCylinder = r > 1e-3
    let shadowMax: Float = 0.45
    let veil = faces.backVeil
    let canvasWidth = faces.canvasWidth
    let originX = faces.originX
    let dMax = g.farthestLift(width: fw, height: fh)
    // Output pixels with dq below this see neither the flap, nor its shadow, nor the roll's.
    let flapMin = Swift.min(-sw - 1, piR - dMax - sw - 1)
    let paper = CurlPaper(width: fw, height: fh, shadowWidth: sw, shadowMax: shadowMax)
    let l = CurlPaper.light
    let lateral = nx * l.x + ny * l.y

    return withLeafCanvas(faces) { out, front, back, beneath, left in
      @inline(__always) func backColor(_ px: Float, _ py: Float) -> Texel {
        var b = back?.sample(px, py) ?? paperWhite
        if veil > 0 { b = mix(b, paperWhite, veil) }
        return b
      }
      @inline(__always) func flat(_ x: Int, _ y: Int) -> Texel {
        x < 0 ? left!.pixel(x + w, y) : front.pixel(x, y)
      }
      @inline(__always) func under(_ x: Int, _ y: Int) -> Texel {
        x < 0 ? left!.pixel(x + w, y) : beneath.pixel(x, y)
      }
      for y in 0..<h {
        let qy = Float(y) + 0.5
        let base = ny * qy - g.c
        let rowOut = y * canvasWidth * 4
        // dq(cx) = nx·(cx + ½ − originX) + base grows with cx (nx > 0): find the span that
        // needs per-pixel work; left of it the flat page, right of it the page beneath.
        let firstWork = Swift.max(
          0, Swift.min(canvasWidth, Int(((flapMin - base) / nx).rounded(.down)) + originX - 1))
        let lastWork = Swift.max(
          firstWork,
          Swift.min(canvasWidth, Int(((r + sw - base) / nx).rounded(.up)) + originX + 2))
        copyRun(
          out, canvasWidth: canvasWidth, row: y, from: 0, to: firstWork, originX: originX,
          page: front, left: left)
        copyRun(
          out, canvasWidth: canvasWidth, row: y, from: lastWork, to: canvasWidth,
          originX: originX, page: beneath, left: left)
        for cx in firstWork..<lastWork {
          let px = cx - originX
          let qx = Float(px) + 0.5
          let dq = nx * qx + base
          let o = rowOut + cx * 4
          var color: Texel
          if dq <= 0 {
            // Flat page, perhaps under the flipped-over flap.
            color = flat(px, y)
            let dA = piR - dq
            let ax = qx + (dA - dq) * nx
            let ay = qy + (dA - dq) * ny
            // The flap's shadow, and the roll's along the fold (seen at the roll's foot).
            let shadow = Swift.max(paper.dropShadow(paper.outside(ax, ay)), paper.dropShadow(-dq))
            if shadow > 0 { color = shadowed(color, shadow) }
            let cov = paper.coverage(ax, ay)
            if cov > 0 { color = mix(color, backColor(ax, ay), cov) }
          } else if hasCylinder && dq <= r + 0.5 {
            let s = Swift.min(1, dq / r)
            let theta1 = asin(s)
            let theta2 = Float.pi - theta1
            let move1 = r * theta1 - dq
            let move2 = r * theta2 - dq
            let p1x = qx + move1 * nx
            let p1y = qy + move1 * ny
            let p2x = qx + move2 * nx
            let p2y = qy + move2 * ny
            let edge = clamp01(r - dq + 0.5)
            color = under(px, y)
            let cov1 = paper.coverage(p1x, p1y) * edge
            let shadow = paper.dropShadow(Swift.max(dq - r, paper.outside(p1x, p1y)))
            if shadow > 0 { color = shadowed(color, shadow) }
            if cov1 > 0 {
              // The inside of the roll (seen where the sheet's edge cuts its back away) lies
              // under the roll: the foot shadow continues up from the fold, and the back of
              // the roll beside it shades it as the flap shades the flat page.
              let inside = Swift.max(
                paper.dropShadow(dq), paper.dropShadow(paper.outside(p2x, p2y)))
              let shade = CurlPaper.lambert(cos(theta1) * l.z - sin(theta1) * lateral)
              color = mix(
                color, CurlPaper.lit(front.sample(p1x, p1y), shade * (1 - inside)), cov1)
            }
            let cov2 = paper.coverage(p2x, p2y) * edge
            if cov2 > 0 {
              let shade = CurlPaper.lambert(sin(theta2) * lateral - cos(theta2) * l.z)
              color = mix(color, CurlPaper.lit(backColor(p2x, p2y), shade), cov2)
            }
          } else {
            let shadow = paper.dropShadow(dq - r)
            if shadow <= 0 {
              if px < 0 {
                copyPixel(left!.base, (y * w + px + w) * 4, out, o)
              } else {
                copyPixel(beneath.base, (y * w + px) * 4, out, o)
              }
              continue
            }
            color = shadowed(under(px, y), shadow)
          }
          store(color, out, o)
        }
      }
    }
  }
}

/// The leaf as a sheet of paper for the curl's per-pixel work: edge coverage, distance
/// outside the sheet, the drop shadow's falloff, and the light.
private struct CurlPaper {
  let width: Float
  let height: Float
  let shadowWidth: Float
  let shadowMax: Float

  /// Light from the viewer and the upper left (unit vector); shading is normalised to 1 on
  /// flat paper.
  static let light: SIMD3<Float> = {
    let v = SIMD3<Float>(-0.35, -0.45, 1)
    return v / (v * v).sum().squareRoot()
  }()

  /// Anti-aliased coverage of page point (px, py): clamp(distance inside the edge + ½).
  @inline(__always) func coverage(_ px: Float, _ py: Float) -> Float {
    clamp01(Swift.min(Swift.min(px, width - px), Swift.min(py, height - py)) + 0.5)
  }

  /// How far (px, py) lies outside the sheet (0 inside).
  @inline(__always) func outside(_ px: Float, _ py: Float) -> Float {
    let dx = Swift.max(0, Swift.max(-px, px - width))
    let dy = Swift.max(0, Swift.max(-py, py - height))
    return (dx * dx + dy * dy).squareRoot()
  }

  /// The shadow's opacity at `distance` past the silhouette: quadratic falloff to 0.
  @inline(__always) func dropShadow(_ distance: Float) -> Float {
    guard shadowWidth > 1e-3, distance < shadowWidth else { return 0 }
    let k = 1 - distance / shadowWidth
    return shadowMax * k * k
  }

  /// The shade of the roll for n·l = `cosine`: ambient 0.35 plus Lambert, 1 on flat paper
  /// (light normalised by its z), at most 1.08 where the roll faces the light more than flat
  /// paper does.
  @inline(__always) static func lambert(_ cosine: Float) -> Float {
    Swift.min(1.08, 0.35 + 0.65 * Swift.max(0, cosine) / light.z)
  }

  /// `c` with its colour (not alpha) scaled by `shade`.
  @inline(__always) static func lit(_ c: Texel, _ shade: Float) -> Texel {
    Texel(c.x * shade, c.y * shade, c.z * shade, c.w)
  }
}
