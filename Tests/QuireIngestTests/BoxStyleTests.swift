import Foundation
import QuireCore
import Testing

@testable import QuireIngest

private func blocks(_ body: String, css: String) -> [Block] {
  ContentFixtures.styled(body, css: css, cssHref: "css/s.css").blocksInOrder
}

private func box(_ css: String, element: String = "div") -> BoxStyle {
  let bs = blocks("<\(element) class=\"t\">x</\(element)>", css: ".t { \(css) }")
  return bs.first { $0.element == element }?.box ?? BoxStyle()
}

private let px = 1.0 / 16

@Suite struct BoxStyleTests {
  @Test func borderShorthandsAndLonghands() {
    let b = box(
      "border: 2px dashed #f00; border-left: thick double blue; border-bottom-style: none")
    #expect(
      b.border.top
        == BorderSide(width: .rem(2 * px), style: .dashed, color: RGBA(r: 255, g: 0, b: 0)))
    #expect(
      b.border.left
        == BorderSide(width: .rem(5 * px), style: .double, color: RGBA(r: 0, g: 0, b: 255)))
    #expect(b.border.bottom.style == .none)
    #expect(b.border.bottom.usedWidth == .zero)
    #expect(b.border.right.style == .dashed)

    let c = box("border-width: 1px 2px; border-style: solid; border-color: red rgb(0, 128, 0) blue")
    #expect(c.border.top.width == .rem(px))
    #expect(c.border.right.width == .rem(2 * px))
    #expect(c.border.left.width == .rem(2 * px))
    #expect(c.border.right.color == RGBA(r: 0, g: 128, b: 0))
    #expect(c.border.left.color == RGBA(r: 0, g: 128, b: 0))
    #expect(c.border.bottom.color == RGBA(r: 0, g: 0, b: 255))
    // A border without colour takes currentColor (nil), medium width by default.
    let d = box("border: solid")
    #expect(d.border.top == BorderSide(width: .rem(3 * px), style: .solid, color: nil))
  }

  @Test func invalidValuesAreIgnoredNotReset() {
    let b = box(
      "border: 1px solid red; border: 3px wiggly green; width: 10em; width: -4px; max-width: banana"
    )
    #expect(b.border.top.style == .solid)
    #expect(b.border.top.width == .rem(px))
    #expect(b.width == .rem(10))
    #expect(b.maxWidth == nil)
  }

  @Test func radiiSizesAndSizing() {
    let b = box(
      "border-radius: 4px 8px / 2px; width: 50%; min-width: 2em; max-width: none; height: auto; box-sizing: border-box"
    )
    #expect(b.radius.topLeft == .rem(4 * px))
    #expect(b.radius.topRight == .rem(8 * px))
    #expect(b.radius.bottomRight == .rem(4 * px))
    #expect(b.radius.bottomLeft == .rem(8 * px))
    #expect(b.width == .percent(50))
    #expect(b.minWidth == .rem(2))
    #expect(b.maxWidth == nil && b.height == nil)
    #expect(b.boxSizing == .borderBox)
  }

  @Test func marginAutoFlagsAndReset() {
    let centred = blocks("<div class=\"c\">x</div>", css: ".c { margin: 1em auto 2em }")
      .first { $0.element == "div" }!
    #expect(centred.box.marginLeftAuto && centred.box.marginRightAuto)
    #expect(centred.style.margin.top == .rem(1))
    #expect(centred.style.margin.bottom == .rem(2))
    #expect(centred.style.margin.left == .zero)
    let reset = blocks("<div class=\"c\">x</div>", css: ".c { margin: 0 auto; margin: 3px }")
      .first { $0.element == "div" }!
    #expect(!reset.box.marginLeftAuto && !reset.box.marginRightAuto)
    #expect(reset.style.margin.left == .rem(3 * px))
    let right = box("margin-left: auto")
    #expect(right.marginLeftAuto && !right.marginRightAuto)
  }

  @Test func backgroundsResolveURLsAgainstTheSheet() {
    let b = box(
      "background: #eee url(../img/paper.png) no-repeat center / cover; background-color: rgba(0,0,0,0.5)"
    )
    #expect(b.background.color == RGBA(r: 0, g: 0, b: 0, a: 128))
    #expect(b.background.layers.count == 1)
    #expect(b.background.layers[0].source == .url("OPS/img/paper.png"))
    #expect(b.background.layers[0].repeatValue == "no-repeat")
    #expect(b.background.layers[0].position == "center")
    #expect(b.background.layers[0].size == "cover")

    let g = box("background-image: linear-gradient(to right, red, #00f 80%)")
    #expect(g.background.layers.map(\.source) == [.linearGradient("to right , red , #00f 80%")])
    #expect(g.background.color == nil)
    // The shorthand resets what it does not name.
    let r = box("background-image: url(a.png); background: blue")
    #expect(r.background.layers.isEmpty && r.background.color == RGBA(r: 0, g: 0, b: 255))
  }

  @Test func styleAttributeURLsResolveAgainstTheDocument() {
    let bs = blocks("<div style=\"background-image: url('img/x.png')\">x</div>", css: "")
    let div = bs.first { $0.element == "div" }!
    #expect(div.box.background.layers.map(\.source) == [.url("OPS/img/x.png")])
  }

  @Test func floatsOverflowDisplayAndTables() {
    let b = box("float: right; clear: both; overflow: hidden")
    #expect(b.float == .right && b.clear == .both && b.clipsOverflow)
    let bs = blocks(
      "<table><tr><td>a</td></tr></table>",
      css: "table { border-collapse: collapse; border-spacing: 2px 4px } td { border: 1px solid }")
    let cell = bs.first { $0.element == "td" }!
    #expect(cell.box.collapsesBorders)
    #expect(cell.box.borderSpacingX == .rem(2 * px) && cell.box.borderSpacingY == .rem(4 * px))
    #expect(cell.box.border.left.style == .solid)
  }

  @Test func imagesCarryTheirBox() {
    let bs = blocks(
      "<p><img src=\"i.png\" alt=\"\" class=\"w\"/></p><p>a <img src=\"j.png\" alt=\"\" class=\"w\"/></p>",
      css: ".w { width: 40%; max-width: 300px; border: 1px solid }")
    let image = bs.first { if case .image = $0.kind { true } else { false } }!
    guard case .image(let ref) = image.kind else { return }
    #expect(ref.box.width == .percent(40))
    #expect(ref.box.maxWidth == .rem(300 * px))
    #expect(image.box.border.top.style == .solid)
    let inline = bs.compactMap { b -> InlineImage? in
      for case .image(let i) in b.inlines { return i }
      return nil
    }
    #expect(inline.first?.image.box.width == .percent(40))
  }
}
