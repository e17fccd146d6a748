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
