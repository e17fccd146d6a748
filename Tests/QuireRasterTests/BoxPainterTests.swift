import Foundation
import QuireCore
import QuireIngest
import QuireTypeset
import Testing

@testable import QuireRaster

@Suite struct BoxPainterTests {
  private func render(_ box: BoxPaint, width: Int = 40, height: Int = 30) -> PixelBuffer {
    let s = TestShaper(PageRendererTests.serif)
    return PageRenderer(fonts: s.table, images: { _ in nil })
      .render(makePage([.box(box)]), width: width, height: height, format: .rgba8)
  }

  private func pixel(_ b: PixelBuffer, _ x: Int, _ y: Int) -> [UInt8] {
    let o = (y * b.width + x) * 4
    return Array(b.pixels[o..<o + 3])
  }

  @Test func backgroundUnderSolidBorders() {
    let red = RGBA(r: 255, g: 0, b: 0)
    let box = BoxPaint(
      rect: Rect(x: 5, y: 5, width: 30, height: 20),
      top: PaintedBorderSide(width: 2, style: .solid, color: red),
      right: PaintedBorderSide(width: 1, style: .solid, color: .black),
      bottom: .none, left: PaintedBorderSide(width: 3, style: .solid, color: red),
      backgroundColor: RGBA(r: 0, g: 0, b: 255))
    let b = render(box)
    #expect(pixel(b, 2, 2) == [255, 255, 255])  // outside: paper
    #expect(pixel(b, 20, 5) == [255, 0, 0])  // top border row
    #expect(pixel(b, 20, 6) == [255, 0, 0])
    #expect(pixel(b, 20, 7) == [0, 0, 255])  // background inside
    #expect(pixel(b, 34, 15) == [0, 0, 0])  // right border column
    #expect(pixel(b, 5, 15) == [255, 0, 0] && pixel(b, 7, 15) == [255, 0, 0])
    #expect(pixel(b, 8, 15) == [0, 0, 255])
    #expect(pixel(b, 20, 24) == [0, 0, 255])  // no bottom border: background to the edge
    #expect(pixel(b, 20, 25) == [255, 255, 255])
  }

  @Test func doubleAndDashedSides() {
    let box = BoxPaint(
      rect: Rect(x: 0, y: 0, width: 40, height: 30),
      top: PaintedBorderSide(width: 3, style: .double, color: .black),
      bottom: PaintedBorderSide(width: 2, style: .dashed, color: .black))
    let b = render(box)
    #expect(pixel(b, 20, 0) == [0, 0, 0])
    #expect(pixel(b, 20, 1) == [255, 255, 255])  // the gap between the two lines
    #expect(pixel(b, 20, 2) == [0, 0, 0])
    // Dashes of 6 px: 40 / 6 → 5 segments (odd) of 8 px: dash, gap, dash, gap, dash.
    #expect(pixel(b, 0, 29) == [0, 0, 0] && pixel(b, 39, 29) == [0, 0, 0])
    #expect(pixel(b, 12, 29) == [255, 255, 255])
    #expect(pixel(b, 20, 29) == [0, 0, 0])
  }

  @Test func hostileGeometryDrawsNothing() {
    let b = render(
      BoxPaint(
        rect: Rect(x: .nan, y: 0, width: 1e300, height: 10),
        top: PaintedBorderSide(width: 1e-300, style: .dotted, color: .black),
        backgroundColor: .black))
    #expect(b.pixels.allSatisfy { $0 == 255 })
    let huge = render(
      BoxPaint(
        rect: Rect(x: 0, y: 0, width: 40, height: 1e9),
        left: PaintedBorderSide(width: 1e-6, style: .dotted, color: .black)))
    #expect(huge.width == 40)
    // A hair-thin dotted side on a tall box: more dots than can be counted, drawn solid.
    let thin = render(
      BoxPaint(
        rect: Rect(x: 0, y: 0, width: 40, height: 30),
        top: PaintedBorderSide(width: 1e-300, style: .dotted, color: .black)))
    #expect(thin.width == 40)
  }
}
