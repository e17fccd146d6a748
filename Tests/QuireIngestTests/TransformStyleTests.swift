// `transform` and `transform-origin` as the cascade reads them (CSS Transforms 1 §7, §13).

import Foundation
import Testing

@testable import QuireIngest

private func box(_ css: String) -> BoxStyle {
  let bs = ContentFixtures.styled(
    "<div class=\"t\">x</div>", css: ".t { \(css) }", cssHref: "s.css"
  )
  .blocksInOrder
  return bs.first { $0.element == "div" }?.box ?? BoxStyle()
}

private let px = 1.0 / 16

@Suite struct TransformStyleTests {
  @Test func functionsInOrderWithTheirUnits() throws {
    let t = try #require(
      box(
        "transform: translate(10px, 50%) rotate(90deg) scale(2, 0.5) skewX(0.5rad) "
          + "matrix(1, 0.5, -0.5, 1, 32, -16) rotate(0.25turn) rotate(100grad) scaleY(150%)"
      ).transform)
    let f = t.functions
    #expect(f.count == 8)
    #expect(f[0] == .translate(.rem(10 * px), .percent(50)))
    #expect(f[1] == .rotate(.pi / 2))
    #expect(f[2] == .scale(2, 0.5))
    #expect(f[3] == .skew(0.5, 0))
    #expect(f[4] == .matrix(a: 1, b: 0.5, c: -0.5, d: 1, e: .rem(2), f: .rem(-1)))
    #expect(f[5] == .rotate(.pi / 2))
    #expect(f[6] == .rotate(.pi / 2))
    #expect(f[7] == .scale(1, 1.5))
    #expect(!t.isTranslation)
    #expect(box("transform: translateX(4px) translateY(-2px)").transform?.isTranslation == true)
  }

  @Test func invalidListsKeepThePreviousValueAndNoneClears() {
    // A bad function (unitless angle, wrong arity, unknown name) invalidates the declaration.
    for bad in ["rotate(45)", "scale(1, 2, 3)", "wobble(1)", "translate(10px", "rotate(1px)"] {
      let b = box("transform: scale(3); transform: \(bad)")
      #expect(b.transform?.functions == [.scale(3, 3)], "\(bad)")
    }
    #expect(box("transform: scale(3); transform: none").transform == nil)
    // 3-D functions: flat ones (rotateX(0)) apply nothing; others are flagged and skipped.
    let flat = box("transform: rotateX(0deg) scale(2)")
    #expect(flat.transform?.functions == [.scale(2, 2)] && !flat.transformDropped)
    let deep = box("transform: rotateY(30deg) scale(2)")
    #expect(deep.transform?.functions == [.scale(2, 2)] && deep.transformDropped)
    #expect(
      box("transform: translate3d(1px, 2px, 3px)").transform?.functions == [
        .translate(.rem(px), .rem(2 * px))
      ])
  }

  @Test func originKeywordsLengthsAndPercentages() {
    func origin(_ v: String) -> [Length] {
      let b = box("transform-origin: \(v)")
      return [b.transformOriginX, b.transformOriginY]
    }
    #expect(origin("top left") == [.percent(0), .percent(0)])
    #expect(origin("left top") == [.percent(0), .percent(0)])
    #expect(origin("bottom") == [.percent(50), .percent(100)])
    #expect(origin("right") == [.percent(100), .percent(50)])
    #expect(origin("10px 25%") == [.rem(10 * px), .percent(25)])
    #expect(origin("center bottom 4px") == [.percent(50), .percent(100)])
    #expect(origin("0 100%") == [.zero, .percent(100)])
    // Invalid: two horizontal keywords, a length before a vertical keyword pair swap.
    #expect(origin("left right") == [.percent(50), .percent(50)])
    #expect(origin("10px left") == [.percent(50), .percent(50)])
    #expect(BoxStyle().transformOriginX == .percent(50))
  }

  @Test func verticalAutoMargins() {
    let b = box("margin: auto 0")
    #expect(b.marginTopAuto && b.marginBottomAuto && !b.marginLeftAuto)
    let c = box("margin: auto; margin-top: 4px")
    #expect(!c.marginTopAuto && c.marginBottomAuto && c.marginLeftAuto)
  }
}
