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
    background: RGBA(red: 0.3, green: 0.2, blue: 0.1), perspective: 200)
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

@Test func openCoverUsesPerspectiveBeforeRotation() {
  // At t = 0.5 the book spans x 35…110, y 50…150 and the cover is at 45°. With m34 applied
  // before the rotation its free edge (local x = 75) comes toward the eye: X = 75·cos 45° ≈ 53,
  // z ≈ 53, w = 1 − 53/200 ≈ 0.73, so the edge projects to x ≈ 107 and its top to y ≈ 32 —
  // above the book. With the seed's bug (m34 set after rotating) it would only narrow and
  // stay within y ≥ 50.
  let b = book()
  let f = b.frame(at: 0.5)
  let background: [UInt8] = [77, 51, 26, 255]
  #expect(pixel(f, 100, 40) != background)
  #expect(pixel(f, 100, 28) == background)
  #expect(pixel(f, 60, 40) == background)
}

@Test func openGolden() {
  expectGolden("open-mid", book().frame(at: 0.5))
}
