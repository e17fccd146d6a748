import Foundation
import QuireCore
import QuireIngest
import QuireTypeset
import Testing

@testable import QuireRaster

/// Rounded corners, round dots, 3-D border styles, background images and gradients.
@Suite struct BoxBackgroundTests {
  /// A 4×4 PNG: left half red, right half blue.
  static let tile: Data = {
    var px: [UInt8] = []
    for _ in 0..<4 {
      for x in 0..<4 { px += x < 2 ? [255, 0, 0, 255] : [0, 0, 255, 255] }
    }
    return Data(PNGCodec.encode(PixelBuffer(width: 4, height: 4, format: .rgba8, pixels: px)))
  }()

  private func render(_ items: [DisplayItem], width: Int = 60, height: Int = 40) -> PixelBuffer {
    let s = TestShaper(PageRendererTests.serif)
    let tile = Self.tile
    return PageRenderer(fonts: s.table, images: { $0 == "tile.png" ? tile : nil })
      .render(makePage(items), width: width, height: height, format: .rgba8)
  }

  private func pixel(_ b: PixelBuffer, _ x: Int, _ y: Int) -> [UInt8] {
    let o = (y * b.width + x) * 4
    return Array(b.pixels[o..<o + 3])
  }

  private func layer(_ source: BackgroundLayer.Source, _ rep: String, _ pos: String, _ size: String)
    -> BackgroundLayer
  {
    var l = BackgroundLayer(source: source)
    l.repeatValue = rep
    l.position = pos
    l.size = size
    return l
  }

  @Test func roundedBackgroundLeavesTheCornersBare() {
    let b = render([
      .box(
        BoxPaint(
          rect: Rect(x: 10, y: 10, width: 40, height: 20), radii: [10, 10, 10, 10],
          backgroundColor: .black))
    ])
    #expect(pixel(b, 10, 10) == [255, 255, 255])  // outside the arc
    #expect(pixel(b, 30, 20) == [0, 0, 0])
    #expect(pixel(b, 30, 10) == [0, 0, 0])  // the straight edge between the arcs
    let edge = pixel(b, 11, 15)[0]
    #expect(edge > 0 && edge < 255)  // anti-aliased on the arc
  }

  @Test func dottedSidesAreRoundDots() {
    let red = RGBA(r: 255, g: 0, b: 0)
    let b = render([
      .box(
        BoxPaint(
          rect: Rect(x: 0, y: 0, width: 60, height: 40),
          top: PaintedBorderSide(width: 6, style: .dotted, color: red)))
    ])
    // Five dots of 6 px on 12 px centres: centre at x = 6, a gap at x = 12.
    #expect(pixel(b, 6, 3) == [255, 0, 0])
    #expect(pixel(b, 12, 3) == [255, 255, 255])
    #expect(pixel(b, 6, 0)[1] > 0)  // the dot's top is round, not square
    #expect(pixel(b, 3, 0) == [255, 255, 255])
  }

  @Test func insetAndRidgeShadeTheirSides() {
    let gray = RGBA(r: 150, g: 150, b: 150)
    let b = render([
      .box(
        BoxPaint(
          rect: Rect(x: 0, y: 0, width: 60, height: 40),
          top: PaintedBorderSide(width: 4, style: .inset, color: gray),
          right: PaintedBorderSide(width: 4, style: .inset, color: gray),
          bottom: PaintedBorderSide(width: 4, style: .ridge, color: gray),
          left: PaintedBorderSide(width: 4, style: .inset, color: gray)))
    ])
    #expect(pixel(b, 30, 1) == [100, 100, 100])  // inset top: dark
    #expect(pixel(b, 58, 20) == [150, 150, 150])  // inset right: the colour
    #expect(pixel(b, 30, 39) == [100, 100, 100])  // ridge bottom, outer half: dark
    #expect(pixel(b, 30, 36) == [150, 150, 150])  // inner half: light
  }

  @Test func linearGradientRunsAlongItsAngle() {
    let g = layer(.linearGradient("to right , red , blue"), "repeat", "0% 0%", "auto")
    let b = render([
      .box(BoxPaint(rect: Rect(x: 0, y: 0, width: 60, height: 40), backgroundLayers: [g]))
    ])
    #expect(pixel(b, 0, 20) == [255, 0, 0] || pixel(b, 0, 20)[0] > 245)
    #expect(pixel(b, 59, 20)[2] > 245)
    let mid = pixel(b, 29, 20)
    #expect(abs(Int(mid[0]) - 132) <= 3 && abs(Int(mid[2]) - 123) <= 3)
    let down = GradientRamp(
      LinearGradientValue.parse("red 20% , blue 60px")!,
      area: Rect(x: 0, y: 0, width: 10, height: 100))
    #expect(down.stops.map(\.t) == [0.2, 0.6])
    #expect(down.color(5, 10).r == 255 && down.color(5, 90).b == 255)
    #expect(LinearGradientValue.parse("45deg , red")?.stops == nil)  // one stop is not enough
    #expect(
      LinearGradientValue.parse("to left top , red , blue 80%")?.direction == .corner(x: -1, y: -1))
  }

  @Test func backgroundImageRepeatsFromItsPosition() {
    let rect = Rect(x: 10, y: 10, width: 40, height: 20)
    let repeatX = layer(.url("tile.png"), "repeat-x", "2px 0", "8px 8px")
    let b = render([.box(BoxPaint(rect: rect, backgroundLayers: [repeatX]))])
    // Tiles of 8 px (red 4, blue 4) from x = 12, repeated both ways along x only.
    #expect(pixel(b, 12, 10) == [255, 0, 0])
    #expect(pixel(b, 18, 10) == [0, 0, 255])
    #expect(pixel(b, 11, 10) == [0, 0, 255])  // the tile before the origin
    #expect(pixel(b, 20, 17) == [255, 0, 0])
    #expect(pixel(b, 20, 18) == [255, 255, 255])  // no repeat down
    let none = layer(.url("tile.png"), "no-repeat", "right bottom", "contain")
    let c = render([.box(BoxPaint(rect: rect, backgroundLayers: [none]))])
    // Contain: a 20 px square at the right end.
    #expect(pixel(c, 29, 20) == [255, 255, 255])
    #expect(pixel(c, 31, 20) == [255, 0, 0] && pixel(c, 49, 20) == [0, 0, 255])
  }

  @Test func positionSizeAndRepeatSyntax() {
    let area = Rect(x: 0, y: 0, width: 100, height: 50)
    let tile = (10.0, 10.0)
    #expect(Tiling.position("center", area: area, tile: tile) == (45, 20))
    #expect(Tiling.position("right 5px bottom 10%", area: area, tile: tile) == (85, 36))
    #expect(Tiling.position("25% 10px", area: area, tile: tile) == (22.5, 10))
    #expect(Tiling.position("top right", area: area, tile: tile) == (90, 0))
    #expect(Tiling.position("center left", area: area, tile: tile) == (0, 20))
    let natural = (width: 20.0, height: 10.0)
    #expect(Tiling.size("cover", area: area, natural: natural) == (100, 50))
    #expect(
      Tiling.size("contain", area: Rect(x: 0, y: 0, width: 100, height: 20), natural: natural) == (
        40, 20
      ))
    #expect(Tiling.size("50% auto", area: area, natural: natural) == (50, 25))
    #expect(Tiling.size("auto", area: area, natural: natural) == (20, 10))
    var round = BackgroundLayer(source: .url("x"))
    round.repeatValue = "round"
    round.size = "30px"
    let t = Tiling(round, area: area, natural: natural)
    #expect(t.width == 100.0 / 3 && t.periodX == 100.0 / 3)
    var space = BackgroundLayer(source: .url("x"))
    space.repeatValue = "space no-repeat"
    space.size = "15px"
    let u = Tiling(space, area: area, natural: natural)
    #expect(u.periodX == 15 + 10.0 / 5 && u.x == 0 && u.periodY == nil)
  }

  @Test func boxSampler() {
    let red = RGBA(r: 200, g: 30, b: 30)
    let navy = RGBA(r: 20, g: 40, b: 120)
    let items: [DisplayItem] = [
      .box(
        BoxPaint(
          rect: Rect(x: 8, y: 8, width: 104, height: 54),
          top: PaintedBorderSide(width: 3, style: .solid, color: red),
          right: PaintedBorderSide(width: 3, style: .dashed, color: navy),
          bottom: PaintedBorderSide(width: 4, style: .dotted, color: red),
          left: PaintedBorderSide(width: 6, style: .double, color: navy), radii: [12, 0, 20, 4],
          backgroundColor: RGBA(r: 240, g: 230, b: 200))),
      .box(
        BoxPaint(
          rect: Rect(x: 128, y: 8, width: 104, height: 54),
          top: PaintedBorderSide(width: 6, style: .groove, color: red),
          right: PaintedBorderSide(width: 6, style: .ridge, color: red),
          bottom: PaintedBorderSide(width: 6, style: .outset, color: navy),
          left: PaintedBorderSide(width: 6, style: .inset, color: navy),
          backgroundLayers: [
            layer(
              .linearGradient("135deg , #fc0 , rgba(0,128,255,0.5) 70% , #080"), "repeat", "0 0",
              "auto")
          ])),
      .box(
        BoxPaint(
          rect: Rect(x: 8, y: 74, width: 224, height: 40), radii: [20, 20, 20, 20],
          backgroundColor: .white,
          backgroundLayers: [
            layer(.url("tile.png"), "no-repeat", "center", "16px"),
            layer(.url("tile.png"), "space round", "0 0", "12px 12px"),
          ])),
    ]
    expectGolden(render(items, width: 240, height: 122), "box-sampler.png")
  }
}
