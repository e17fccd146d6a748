import Foundation
import QuireCore
import QuireTypeset
import Testing

@testable import QuireRaster

/// Filled paths (`DisplayItem.path`) through FreeType's scan converter: exact-area coverage
/// that agrees with the renderer's own rectangle fill, anti-aliased diagonals, curves of the
/// right area, and hostile paths drawn as nothing.
@Suite struct PathRasterTests {
  typealias P = FilledPath.Point
  let renderer = PageRenderer(fonts: FontTable(faces: []), images: { _ in nil })

  func render(_ items: [DisplayItem], _ w: Int = 120, _ h: Int = 60) -> PixelBuffer {
    renderer.render(makePage(items), width: w, height: h, format: .gray8)
  }

  func square(_ x: Double, _ y: Double, _ side: Double) -> [P] {
    [P(x, y), P(x + side, y), P(x + side, y + side), P(x, y + side)]
  }

  @Test func rectanglesMatchTheExactFill() {
    for (x, y) in [(10.0, 10.0), (40.5, 10.5), (70.25, 20.75)] {
      let path = render([.path(FilledPath(contours: [square(x, y, 20)], color: .black))])
      let fill = render([.fill(Rect(x: x, y: y, width: 20, height: 20), .black)])
      let worst = zip(path.pixels, fill.pixels).map { abs(Int($0) - Int($1)) }.max() ?? 0
      #expect(worst <= 2, "square at \(x), \(y): max difference \(worst)")
      #expect(fill.pixels.contains { $0 > 0 && $0 < 255 } == (x != x.rounded()))
    }
  }

  @Test func diagonalStrokeIsAntialiased() {
    let stroke = FilledPath.stroke(10, 50, 50, 10, width: 2)
    let image = render([.path(FilledPath(contours: [stroke], color: .black))])
    func at(_ x: Int, _ y: Int) -> UInt8 { image.pixels[y * 120 + x] }
    #expect(at(30, 29) < 64 || at(30, 30) < 64)  // on the line x + y = 60
    #expect(at(34, 34) == 255 && at(26, 26) == 255)  // 4 px off it, either side
    let grays = image.pixels.filter { $0 > 16 && $0 < 240 }.count
    #expect(grays > 40, "edges are anti-aliased: \(grays) partial pixels")
    // The ink adds up to the stroke's area (length × width), in pixel coverage.
    let ink = image.pixels.reduce(0.0) { $0 + Double(255 - $1) / 255 }
    #expect(abs(ink - 2 * 40 * 2.0.squareRoot()) < 3, "\(ink)")
  }

  @Test func cubicCirclesHaveTheirArea() {
    // A circle of radius 15 from four cubics (control distance 0.5523 r).
    let (cx, cy, r, k) = (60.0, 30.0, 15.0, 0.5523 * 15)
    let circle = [
      P(cx + r, cy), P(cx + r, cy + k, onCurve: false), P(cx + k, cy + r, onCurve: false),
      P(cx, cy + r), P(cx - k, cy + r, onCurve: false), P(cx - r, cy + k, onCurve: false),
      P(cx - r, cy), P(cx - r, cy - k, onCurve: false), P(cx - k, cy - r, onCurve: false),
      P(cx, cy - r), P(cx + k, cy - r, onCurve: false), P(cx + r, cy - k, onCurve: false),
    ]
    let image = render([.path(FilledPath(contours: [circle], color: .black))])
    let ink = image.pixels.reduce(0.0) { $0 + Double(255 - $1) / 255 }
    #expect(abs(ink - Double.pi * r * r) / (Double.pi * r * r) < 0.01, "\(ink)")
  }

  @Test func hostilePathsDrawNothing() {
    let huge = (0..<(FilledPath.maxPoints + 1)).map { P(Double($0 % 100), Double($0 % 7)) }
    for contours in [
      [huge], [[P(0, 0), P(1e9, 0), P(0, 1e9)]], [[P(0, 0), P(.nan, 5), P(5, 5)]],
      [[P(-500, -500), P(-400, -500), P(-400, -400)]], [],
    ] {
      let image = render([.path(FilledPath(contours: contours, color: .black))])
      #expect(image.pixels.allSatisfy { $0 == 255 })
    }
    let clear = render([
      .path(FilledPath(contours: [square(5, 5, 30)], color: RGBA(r: 0, g: 0, b: 0, a: 0)))
    ])
    #expect(clear.pixels.allSatisfy { $0 == 255 })
    #expect(renderer.warnings.isEmpty)
  }
}
