import Foundation
import Testing

@testable import QuireMotion

/// The gutter shadow of spreads (issue #14): both pages darken toward the spine, symmetric,
/// within a few % of the page width, and a spread turn keeps it before, during and after.
@Suite struct SpineShadingTests {
  static func white(_ w: Int, _ h: Int) -> PixelBuffer {
    PixelBuffer(
      width: w, height: h, format: .rgba8, pixels: [UInt8](repeating: 255, count: w * h * 4))
  }

  /// Column x of row y, red channel.
  static func red(_ p: PixelBuffer, _ x: Int, _ y: Int) -> Int {
    Int(p.pixels[(y * p.width + x) * 4])
  }

  @Test func bothPagesDarkenTowardTheSpineSymmetrically() {
    let w = 200
    var spread = PixelBuffer.joinedSideBySide(Self.white(w, 40), Self.white(w, 40))
    SpineShading.apply(to: &spread, spine: w, leftWidth: w, rightWidth: w)
    let reach = Int((SpineShading.widthFraction * Double(w)).rounded())
    // Darkest next to the spine (18 % → 209), the same on both sides, fading to nothing.
    #expect(Self.red(spread, w - 1, 7) == Self.red(spread, w, 7))
    #expect(Self.red(spread, w, 7) < 215 && Self.red(spread, w, 7) > 200)
    for i in 0..<(reach + 2) {
      #expect(Self.red(spread, w - 1 - i, 20) == Self.red(spread, w + i, 20), "column \(i)")
      if i > 0 { #expect(Self.red(spread, w + i, 20) >= Self.red(spread, w + i - 1, 20)) }
    }
    #expect(Self.red(spread, w + reach, 3) == 255 && Self.red(spread, w - 1 - reach, 3) == 255)
    #expect(Self.red(spread, w + reach - 3, 3) < 255)
    // Alpha is kept; every row is shaded alike.
    #expect(spread.pixels[(5 * 2 * w + w) * 4 + 3] == 255)
    #expect(Self.red(spread, w, 0) == Self.red(spread, w, 39))
  }

  @Test func grayAndRGBAShadeAlike() {
    var gray = PixelBuffer(
      width: 80, height: 4, format: .gray8, pixels: [UInt8](repeating: 200, count: 320))
    var rgba = gray.converted(to: .rgba8)
    SpineShading.apply(to: &gray, spine: 40, leftWidth: 40, rightWidth: 40)
    SpineShading.apply(to: &rgba, spine: 40, leftWidth: 40, rightWidth: 40)
    #expect(gray.converted(to: .rgba8) == rgba)
    #expect(gray.pixels[40] < 200)
  }

  /// Frame 0 is the shaded current spread and the last frame the shaded next spread for every
  /// style; before the leaf reaches it the left page (with its gutter) is untouched.
  @Test func spreadTurnsKeepTheGutterShadow() {
    let plain = TurnFixtures.spread
    let shaded = plain.withSpineShading()
    #expect(shaded.currentSpread != plain.currentSpread)
    let w = TurnFixtures.width
    for style in pageTurnStyles {
      var o = TurnOptions()
      o.spread = true
      let r = PageTurnRenderer(effect: makeEffect(style: style)!, options: o)
      #expect(r.frame(at: 0, spread: shaded) == shaded.currentSpread, "\(style)")
      #expect(r.frame(at: 1, spread: shaded) == shaded.nextSpread, "\(style)")
    }
    for style in ["curl", "hard", "fold"] {
      var o = TurnOptions()
      o.spread = true
      let r = PageTurnRenderer(effect: makeEffect(style: style)!, options: o)
      let early = r.frame(at: 0.2, spread: shaded)
      let start = shaded.currentSpread
      // The left page's gutter columns are still the shaded ones.
      for y in stride(from: 0, to: TurnFixtures.height, by: 9) {
        for x in (w - 5)..<w {
          #expect(Self.red(early, x, y) == Self.red(start, x, y), "\(style) (\(x), \(y))")
        }
      }
    }
  }
}
