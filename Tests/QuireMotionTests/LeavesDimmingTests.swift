import Foundation
import QuireRaster
import Testing

@testable import QuireMotion

/// Leaves' `topPageOverlay`: the uncovered part of the page being turned is dimmed under
/// black α 0.2 × min(1, 4t, 4(1 − t)) while the leaf passes, and not at the ends.
@Test(arguments: [0.05, 0.1, 0.2, 0.3])
func leavesDimsTheTopPageMidTurn(t: Double) {
  let pages = TurnFixtures.pages
  let f = LeavesEffect().frame(at: t, pages: pages, options: TurnOptions())
  let k = 1 - 0.2 * min(1, 4 * t, 4 * (1 - t))
  // Column 10 lies left of the leaf's back and its 5 px shadow for every t here.
  var darker = 0
  for y in stride(from: 0, to: TurnFixtures.height, by: 7) {
    let got = pixel(f, 10, y)
    let page = pixel(pages.current, 10, y)
    for c in 0..<3 {
      #expect(abs(Double(got[c]) - Double(page[c]) * k) <= 1, "t=\(t) y=\(y) c=\(c)")
      if got[c] < page[c] { darker += 1 }
    }
    #expect(got[3] == 255)
  }
  #expect(darker > 0, "t=\(t): nothing dimmed")
}

@Test func leavesDimmingIsGoneAtTheEnds() {
  let pages = TurnFixtures.pages
  let e = LeavesEffect()
  #expect(e.frame(at: 0, pages: pages, options: TurnOptions()) == pages.current)
  #expect(e.frame(at: 1, pages: pages, options: TurnOptions()) == pages.next)
  // Just after the start the dimming is small (α 0.2 × 4t) and grows with t.
  let early = pixel(e.frame(at: 0.01, pages: pages, options: TurnOptions()), 10, 20)
  let later = pixel(e.frame(at: 0.1, pages: pages, options: TurnOptions()), 10, 20)
  let page = pixel(pages.current, 10, 20)
  #expect(Int(page[0]) - Int(early[0]) <= 2)
  #expect(early[0] > later[0])
}
