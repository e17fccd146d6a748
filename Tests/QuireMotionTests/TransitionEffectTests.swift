import Foundation
import QuireRaster
import Testing

@testable import QuireMotion

private let pages = TurnPages(
  current: Synthetic.page(width: 120, height: 160, seed: 0),
  next: Synthetic.page(width: 120, height: 160, seed: 1))

@Test func transitionEffectsKeepTheContract() {
  for name in ["slide", "fade", "push"] {
    let e = TransitionEffect(name: name)!
    #expect(e.name == name)
    checkTurnContract(e)
  }
  #expect(TransitionEffect(name: "curl") == nil)
}

@Test func pushMovesBothPagesFromTheRight() {
  let f = TransitionEffect(type: .push).frame(at: 0.5, pages: pages, options: TurnOptions())
  // Forward: next's left half is now at the right half; current's right half at the left.
  for y in stride(from: 0, to: 160, by: 13) {
    #expect(pixel(f, 70, y) == pixel(pages.next, 10, y))
    #expect(pixel(f, 10, y) == pixel(pages.current, 70, y))
  }
  // Through the shared renderer, a right-to-left book pushes from the left.
  var rtl = TurnOptions()
  rtl.rightToLeft = true
  let g = PageTurnRenderer(effect: TransitionEffect(type: .push), options: rtl)
    .frame(at: 0.5, pages: pages)
  #expect(pixel(g, 10, 30) == pixel(pages.next, 70, 30))
  #expect(makeEffect(style: "push")?.name == "push")
  #expect(makeEffect(style: "slide")?.name == "slide")
}

@Test func fadeIsACrossDissolve() {
  let f = TransitionEffect(type: .fade).frame(at: 0.5, pages: pages, options: TurnOptions())
  for (x, y) in [(5, 5), (60, 40), (100, 150)] {
    let a = pixel(pages.current, x, y)
    let b = pixel(pages.next, x, y)
    let m = pixel(f, x, y)
    for c in 0..<3 { #expect(abs(Int(m[c]) - (Int(a[c]) + Int(b[c])) / 2) <= 1) }
  }
}

@Test func transitionGoldens() {
  for name in ["slide", "fade", "push"] {
    expectGolden(
      "\(name)-mid",
      TransitionEffect(name: name)!.frame(at: 0.35, pages: pages, options: TurnOptions()))
  }
}

/// A spread push moves the whole spread as one picture (issue #14: the halves moved
/// separately and text of two pages ran together at the spine): half-way, the current
/// spread's right page fills the left half and the next spread's left page the right half.
@Test func spreadPushMovesTheWholeSpread() {
  let spread = TurnFixtures.spread
  let w = TurnFixtures.width
  var o = TurnOptions()
  o.spread = true
  let f = PageTurnRenderer(effect: TransitionEffect(type: .push), options: o)
    .frame(at: 0.5, spread: spread)
  let (current, next) = (spread.currentSpread, spread.nextSpread)
  for y in stride(from: 0, to: f.height, by: 7) {
    for x in stride(from: 0, to: w, by: 5) {
      #expect(pixel(f, x, y) == pixel(current, w + x, y), "x \(x) y \(y)")
      #expect(pixel(f, w + x, y) == pixel(next, x, y), "x \(w + x) y \(y)")
    }
  }
}

/// Slide draws the shadow of the incoming page's edge on the page it covers (issue #14: no
/// page-edge shadow): just left of the edge the page is darker than the page itself, and the
/// shadow fades away from the edge.
@Test func slideCastsAnEdgeShadow() {
  let white = PixelBuffer(
    width: 120, height: 160, format: .rgba8, pixels: [UInt8](repeating: 255, count: 120 * 160 * 4))
  let f = TransitionEffect(type: .moveIn).frame(
    at: 0.5, pages: TurnPages(current: white, next: pages.next), options: TurnOptions())
  // The incoming page's left edge is at x = 60.
  #expect(pixel(f, 58, 80)[0] < 250, "shadow at the edge: \(pixel(f, 58, 80))")
  #expect(pixel(f, 58, 80)[0] < pixel(f, 40, 80)[0], "the shadow fades away from the edge")
  #expect(pixel(f, 5, 80) == [255, 255, 255, 255], "far from the edge the page is untouched")
}
