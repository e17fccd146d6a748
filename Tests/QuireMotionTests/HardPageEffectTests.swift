import Foundation
import QuireRaster
import Testing

@testable import QuireMotion

private let pages = TurnPages(
  current: Synthetic.page(width: 120, height: 160, seed: 0),
  next: Synthetic.page(width: 120, height: 160, seed: 1))

/// frame(0) == current, frame(1) == next, and the distance to `next` shrinks with t.
func checkTurnContract(
  _ effect: PageTurnEffect, options: TurnOptions = TurnOptions(),
  sourceLocation: SourceLocation = #_sourceLocation
) {
  #expect(
    effect.frame(at: 0, pages: pages, options: options) == pages.current,
    sourceLocation: sourceLocation)
  #expect(
    effect.frame(at: 1, pages: pages, options: options) == pages.next,
    sourceLocation: sourceLocation)
  var last = meanAbsoluteDifference(pages.current, pages.next) + 1e-9
  for t in [0.1, 0.3, 0.5, 0.7, 0.9] {
    let f = effect.frame(at: t, pages: pages, options: options)
    #expect(f.width == 120 && f.height == 160, sourceLocation: sourceLocation)
    let d = meanAbsoluteDifference(f, pages.next)
    // The leaf's shade and shadow may outweigh the sliver it uncovers (1.5 levels; 2.5 at t = 0.1).
    let slack = t < 0.2 ? 2.5 : 1.5
    #expect(
      d < last + slack, "\(effect.name) t=\(t): \(d) !< \(last)", sourceLocation: sourceLocation)
    last = d
  }
}

@Test func hardPageContract() {
  checkTurnContract(HardPageEffect())
  #expect(makeEffect(style: "hard")?.name == "hard")
  for back in [LeafBack.blank, .next] {
    var o = TurnOptions()
    o.back = back
    checkTurnContract(HardPageEffect(), options: o)
  }
  var o = TurnOptions()
  o.direction = .prev
  let r = PageTurnRenderer(effect: HardPageEffect(), options: o)
  #expect(r.frame(at: 0, pages: pages) == pages.current)
  #expect(r.frame(at: 1, pages: pages) == pages.next)
}

@Test func hardPageRotatesAboutTheLeftEdge() {
  let e = HardPageEffect()
  let f = e.frame(at: 0.25, pages: pages, options: TurnOptions())
  // The hinge column still shows the current page, shaded by the leaf's turn (k·sin(θ/4):
  // a single page turns to θ = atan(6/1.5), edge-on, over the whole turn); the right edge shows
  // next (darkened by the shadow): the free edge swung in.
  let k = 1 - e.leafShading * sin(atan(e.perspectiveFactor / 1.5) / 4)
  let hinge = pixel(f, 1, 80)
  let cur = pixel(pages.current, 1, 80)
  for c in 0..<3 { #expect(abs(Double(hinge[c]) - Double(cur[c]) * k) <= 1.5) }
  let r = pixel(f, 118, 5)
  let n = pixel(pages.next, 118, 5)
  #expect(r[0] < n[0] || r[2] < n[2])
}

@Test func hardPageGoldens() {
  expectGolden("hard-mid", HardPageEffect().frame(at: 0.4, pages: pages, options: TurnOptions()))
  let spread = SpreadPages(
    leftCurrent: Synthetic.page(width: 120, height: 160, seed: 2), rightCurrent: pages.current,
    leftNext: pages.next, rightNext: Synthetic.page(width: 120, height: 160, seed: 3))
  let r = PageTurnRenderer(effect: HardPageEffect(), options: TurnOptions())
  #expect(r.frame(at: 0, spread: spread) == spread.currentSpread)
  #expect(r.frame(at: 1, spread: spread) == spread.nextSpread)
  expectGolden("hard-spread-mid", r.frame(at: 0.6, spread: spread))
}

/// A hard spread turn: once the leaf has crossed the spine the right page is the next
/// spread's right page, with no shadow left on it (issue #14: the shadow stayed there), and
/// while the leaf is still over the right page that page is shaded by it.
@Test func hardSpreadShadowLeavesTheRightPageOnceTheLeafCrossed() {
  let spread = TurnFixtures.spread
  let w = TurnFixtures.width
  let h = spread.currentSpread.height
  var o = TurnOptions()
  o.spread = true
  let r = PageTurnRenderer(effect: HardPageEffect(), options: o)
  let right = { (p: PixelBuffer) in p.cropped(x: w, y: 0, width: w, height: h) }
  let next = right(spread.nextSpread)
  for t in [0.7, 0.85, 0.95] {
    let d = meanAbsoluteDifference(right(r.frame(at: t, spread: spread)), next)
    #expect(d < 0.5, "t=\(t): the right page differs from the next spread's by \(d)")
  }
}

/// A hard spread turn draws the whole leaf in every frame (issue #14: it was cut off at the top
/// and bottom). The leaf is a rigid W×H rectangle turning by θ = πt about the spine (x = W)
/// away from the eye, seen with perspective d = perspectiveFactor·W from the spine at
/// mid-height: a leaf point at distance u from the spine lies at depth u·sinθ, so at canvas
/// column x its projected height is H·s(x) with s(x) = 1 − (x − W)·tanθ/d — a trapezoid
/// whose top and bottom edges are straight lines, the full page height at the spine. With the
/// four pages in four primaries (front red, back green, page beneath yellow, left page blue;
/// shading and shadows only scale them), every column the leaf spans must hold H·s(x) rows of
/// leaf, half above and half below the middle, to within a pixel: a leaf clipped by a band, or
/// swung toward the eye and cut by the canvas's top and bottom, fails here.
@Test func hardSpreadLeafIsNeverClipped() {
  let w = 120
  let h = 160
  let page = { (c: (UInt8, UInt8, UInt8)) in
    Synthetic.solid(width: w, height: h, (c.0, c.1, c.2, 255))
  }
  let spread = SpreadPages(
    leftCurrent: page((0, 0, 255)), rightCurrent: page((255, 0, 0)),
    leftNext: page((0, 255, 0)), rightNext: page((255, 255, 0)))
  var o = TurnOptions()
  o.spread = true
  let effect = HardPageEffect()
  let r = PageTurnRenderer(effect: effect, options: o)
  let d = effect.perspectiveFactor * Double(w)
  var columnsChecked = 0
  for i in 1..<24 {
    let t = Double(i) / 24
    let frame = r.frame(at: t, spread: spread)
    let theta = Double.pi * t
    let scale = { (x: Double) in 1 - (x - Double(w)) * tan(theta) / d }
    // The free edge (u = W) and the columns between it and the spine, one pixel clear of both.
    let edge = Double(w) + Double(w) * cos(theta) / (1 + Double(w) * sin(theta) / d)
    let lo = Int((min(edge, Double(w)) + 1).rounded(.up))
    let hi = Int((max(edge, Double(w)) - 1).rounded(.down))
    guard hi - lo >= 2 else { continue }
    for x in lo..<hi {
      let (upper, lower) = leafRows(frame, column: x)
      let half = Double(h) / 2 * scale(Double(x) + 0.5)
      #expect(
        abs(upper - half) <= 1 && abs(lower - half) <= 1,
        "t=\(i)/24 x=\(x): leaf rows \(upper) above and \(lower) below the middle, perspective \(half)"
      )
      columnsChecked += 1
    }
  }
  #expect(columnsChecked > 1500, "\(columnsChecked) columns checked")
}

/// The leaf's share of each pixel of column `x` summed over the upper and the lower half: a
/// pixel is unmixed into yellow (min(R, G)), red (R − yellow), green (G − yellow) and blue; the
/// leaf is the red and the green.
private func leafRows(_ p: PixelBuffer, column x: Int) -> (upper: Double, lower: Double) {
  var upper = 0.0
  var lower = 0.0
  for y in 0..<p.height {
    let c = pixel(p, x, y).map(Double.init)
    let yellow = min(c[0], c[1])
    let leaf = c[0] - yellow + c[1] - yellow
    let all = leaf + yellow + c[2]
    let share = all > 0 ? leaf / all : 0
    if 2 * y < p.height { upper += share } else { lower += share }
  }
  return (upper, lower)
}
