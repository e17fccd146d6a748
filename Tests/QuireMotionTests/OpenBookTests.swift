import Foundation
import QuireRaster
import Testing

@testable import QuireMotion

private func book() -> BookOpenAnimation {
  var coverPx = Synthetic.page(width: 120, height: 160, seed: 3)
  // A darker cover: invert the page.
  coverPx.pixels = coverPx.pixels.enumerated().map {
    $0.offset % 4 == 3 ? $0.element : 255 - $0.element
  }
  return BookOpenAnimation(
    cover: coverPx, firstPage: Synthetic.page(width: 120, height: 160, seed: 1),
    canvas: (width: 120, height: 160), from: (x: 70, y: 100, w: 30, h: 40),
    background: RGBA(red: 0.3, green: 0.2, blue: 0.1))
}

@Test func openEndsOnTheFirstPageAndStartsInTheShelfCell() {
  let b = book()
  #expect(b.frame(at: 1) == b.firstPage)
  let start = b.frame(at: 0)
  // Outside the shelf cell: background only (shadow aside, far away).
  #expect(pixel(start, 5, 5) == [77, 51, 26, 255])
  // Inside: the cover.
  #expect(pixel(start, 85, 120) != [77, 51, 26, 255])
  #expect(b.frame(at: 0, closing: true) == b.firstPage)
  #expect(b.frame(at: 1, closing: true) == start)
  #expect(b.frame(at: 0.3, closing: true) == b.frame(at: 0.7))
  var last = Double.infinity
  for t in [0.0, 0.25, 0.5, 0.75, 0.95] {
    let d = meanAbsoluteDifference(b.frame(at: t), b.firstPage)
    #expect(d < last, "t=\(t)")
    last = d
  }
}

@Test func openGolden() {
  expectGolden("open-mid", book().frame(at: 0.5))
}
