// Transformed groups (TransformedLayer.swift): items painted offscreen and composited
// through an affine matrix with bilinear sampling.

import Foundation
import QuireCore
import QuireIngest
import QuireTypeset
import Testing

@testable import QuireRaster

@Suite struct TransformedLayerTests {
  let red = RGBA(r: 200, g: 30, b: 40)

  func group(_ m: AffineMatrix, _ items: [DisplayItem], bounds: Rect) -> DisplayItem {
    .transformed(TransformedGroup(matrix: m, bounds: bounds, items: items))
  }

  /// A quarter turn about a pixel corner maps whole pixels onto whole pixels: the result is
  /// exactly the rotated rectangle filled directly, in both formats.
  @Test func quarterTurnIsExact() {
    let r = PageRenderer(fonts: FontTable(faces: []), images: { _ in nil })
    // rotate(90deg) about (20, 15): (x, y) → (20 − (y − 15), 15 + (x − 20)).
    let m = AffineMatrix(a: 0, b: 1, c: -1, d: 0, e: 35, f: -5)
    let rect = Rect(x: 10, y: 10, width: 20, height: 10)
    let turned = makePage([group(m, [.fill(rect, red)], bounds: rect)])
    let direct = makePage([.fill(Rect(x: 15, y: 5, width: 10, height: 20), red)])
    for format in [PixelBuffer.Format.gray8, .rgba8] {
      let a = r.render(turned, width: 40, height: 30, format: format)
      let b = r.render(direct, width: 40, height: 30, format: format)
      let same = a.pixels == b.pixels
      #expect(same, "\(format)")
    }
  }

  /// The identity matrix draws what the items draw directly (within rounding), translucent
  /// colours and text included: the coverage recovered from the black and white paints is
  /// right.
  @Test func identityMatchesDirectPainting() {
    let s = TestShaper(PageRendererTests.serif)
    let r = PageRenderer(fonts: s.table, images: { _ in nil })
    let items: [DisplayItem] = [
      .fill(Rect(x: 4, y: 4, width: 60, height: 30), RGBA(r: 20, g: 90, b: 200, a: 128)),
      .glyphs(s.run("Layer", font: 0, size: 20, x: 8, baseline: 28, color: red)),
      .fill(Rect(x: 30.5, y: 10.25, width: 20, height: 5.5), RGBA(r: 0, g: 0, b: 0, a: 60)),
    ]
    let under = DisplayItem.fill(
      Rect(x: 0, y: 0, width: 80, height: 20), RGBA(r: 240, g: 200, b: 0))
    let bounds = Rect(x: 0, y: 0, width: 80, height: 40)
    let grouped = makePage([under, group(.identity, items, bounds: bounds)])
    let direct = makePage([under] + items)
    for format in [PixelBuffer.Format.gray8, .rgba8] {
      let a = r.render(grouped, width: 80, height: 40, format: format)
      let b = r.render(direct, width: 80, height: 40, format: format)
      let worst = zip(a.pixels, b.pixels).map { abs(Int($0) - Int($1)) }.max() ?? 0
      #expect(worst <= 2, "\(format): \(worst)")
    }
  }

  /// scale(2) about the origin: the interior is the colour, the edges are bilinear blends,
  /// and the ink adds up to the scaled area.
  @Test func scaleKeepsAreaAndAntialiasesEdges() {
    let r = PageRenderer(fonts: FontTable(faces: []), images: { _ in nil })
    let rect = Rect(x: 5, y: 5, width: 10, height: 10)
    let page = makePage([
      group(AffineMatrix(a: 2, b: 0, c: 0, d: 2, e: 0, f: 0), [.fill(rect, .black)], bounds: rect)
    ])
    let image = r.render(page, width: 40, height: 40, format: .gray8)
    #expect(image.pixels[20 * 40 + 20] == 0)
    #expect(image.pixels[20 * 40 + 10] > 0 && image.pixels[20 * 40 + 10] < 255)
    #expect(image.pixels[20 * 40 + 8] == 255 && image.pixels[20 * 40 + 31] == 255)
    let ink = image.pixels.reduce(0.0) { $0 + Double(255 - Int($1)) / 255 }
    #expect(abs(ink - 400) < 8, "ink \(ink)")
  }

  /// Nested groups compose; a singular matrix draws nothing; groups nested past the bound
  /// are skipped, never a crash.
  @Test func nestingSingularAndDepthBound() {
    let r = PageRenderer(fonts: FontTable(faces: []), images: { _ in nil })
    let rect = Rect(x: 10, y: 10, width: 20, height: 10)
    let turn = AffineMatrix(a: 0, b: 1, c: -1, d: 0, e: 35, f: -5)
    let inner = group(turn, [.fill(rect, red)], bounds: rect)
    let twice = makePage([group(turn, [inner], bounds: turn.bounds(of: rect))])
    // Two quarter turns about (20, 15) map the rectangle onto itself.
    let halfTurn = makePage([.fill(rect, red)])
    let a = r.render(twice, width: 40, height: 30, format: .rgba8)
    let b = r.render(halfTurn, width: 40, height: 30, format: .rgba8)
    let same = a.pixels == b.pixels
    #expect(same)
    let flat = AffineMatrix(a: 1, b: 1, c: 1, d: 1, e: 0, f: 0)
    let none = r.render(
      makePage([group(flat, [.fill(rect, red)], bounds: rect)]), width: 40, height: 30,
      format: .gray8)
    #expect(none.pixels.allSatisfy { $0 == 255 })
    var deep = DisplayItem.fill(rect, red)
    for _ in 0..<40 { deep = group(.identity, [deep], bounds: rect) }
    let deepImage = r.render(makePage([deep]), width: 40, height: 30, format: .gray8)
    #expect(deepImage.pixels.allSatisfy { $0 == 255 })
    let huge = AffineMatrix(a: 1e-6, b: 0, c: 0, d: 1e-6, e: 0, f: 0)
    let far = Rect(x: -1e9, y: -1e9, width: 2e9, height: 2e9)
    _ = r.render(
      makePage([group(huge, [.fill(far, red)], bounds: far)]), width: 40, height: 30,
      format: .gray8)
  }

  /// A page's groups share one pixel budget (16 canvases, at least 2^24 pixels): two
  /// groups of 4-megapixel layers fit, a third is not drawn, so thousands of them cost no
  /// more than two.
  @Test func groupsShareAPixelBudget() {
    let r = PageRenderer(fonts: FontTable(faces: []), images: { _ in nil })
    let big = Rect(x: 0, y: 0, width: 2000, height: 2000)
    let shrink = AffineMatrix(a: 0.05, b: 0, c: 0, d: 0.05, e: 0, f: 0)
    let colours = [red, RGBA(r: 0, g: 160, b: 0), RGBA(r: 0, g: 0, b: 200)]
    let page = makePage(colours.map { group(shrink, [.fill(big, $0)], bounds: big) })
    let image = r.render(page, width: 100, height: 100, format: .rgba8)
    #expect(Array(image.pixels[(50 * 100 + 50) * 4..<(50 * 100 + 50) * 4 + 3]) == [0, 160, 0])
  }

  /// Rotated text on a box: a golden (look at Goldens/transformed-text-rgba8.png).
  @Test func rotatedTextGolden() {
    let s = TestShaper(PageRendererTests.serif)
    let r = PageRenderer(fonts: s.table, images: { _ in nil })
    let rect = Rect(x: 20, y: 30, width: 120, height: 40)
    let angle = 20.0 * .pi / 180
    let (sn, cs) = (sin(angle), cos(angle))
    let (ox, oy) = (80.0, 50.0)
    let m = AffineMatrix(
      a: cs, b: sn, c: -sn, d: cs, e: ox - cs * ox + sn * oy, f: oy - sn * ox - cs * oy)
    let page = makePage([
      group(
        m,
        [
          .fill(rect, RGBA(r: 176, g: 58, b: 46)),
          .glyphs(s.run("Turned", font: 0, size: 24, x: 40, baseline: 58, color: .white)),
        ], bounds: rect)
    ])
    expectGolden(
      r.render(page, width: 160, height: 100, format: .rgba8), "transformed-text-rgba8.png")
  }
}
