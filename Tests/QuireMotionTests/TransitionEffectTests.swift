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
