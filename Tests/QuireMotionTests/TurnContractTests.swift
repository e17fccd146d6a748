import Foundation
import QuireRaster
import Testing

@testable import QuireMotion

@Suite struct TurnContractTests {
  static var allOptions: [(String, TurnOptions)] {
    var out: [(String, TurnOptions)] = []
    for style in TurnFixtures.styles {
      for corner in [TurnCorner.bottom, .top, .middle] {
        for back in [LeafBack.mirrored, .blank, .next] {
          var o = TurnOptions()
          o.corner = corner
          o.back = back
          out.append((style, o))
        }
      }
    }
    return out
  }

  @Test func endpointsAreExactForEveryStyleCornerAndBack() throws {
    let pages = TurnFixtures.pages
    for (style, options) in Self.allOptions {
      let r = PageTurnRenderer(effect: makeEffect(style: style)!, options: options)
      #expect(r.frame(at: 0, pages: pages) == pages.current, "\(style) \(options)")
      #expect(r.frame(at: 1, pages: pages) == pages.next, "\(style) \(options)")
      // Just inside the ends the geometry is continuous: nearly the end images.
      #expect(TurnFixtures.meanAbsDiff(r.frame(at: 0.001, pages: pages), pages.current) < 1.5)
      #expect(TurnFixtures.meanAbsDiff(r.frame(at: 0.999, pages: pages), pages.next) < 1.5)
    }
  }

  /// Monotonic progress toward the next page. Tolerance: the mean absolute difference to
  /// `next` (0…255 scale) over t = 0, 0.05, …, 1 may rise by at most 1.5 between neighbouring
  /// samples and never exceed the start by more than 1.5 — early on, the whitened back of the
  /// leaf and the shadows replace a strip of the current page faster than the next page is
  /// revealed — and at t = ¾ it must be clearly below the start.
  /// `back: .next` is left out on purpose: its back *is* the next page, so a mid-turn frame
  /// can be closer to `next` than later frames (at t = ½ the Leaves fold shows exactly it).
  @Test func turnsMoveMonotonicallyTowardTheNextPage() throws {
    let pages = TurnFixtures.pages
    let tolerance = 1.5
    for (style, options) in Self.allOptions where options.back != .next {
      let r = PageTurnRenderer(effect: makeEffect(style: style)!, options: options)
      let start = TurnFixtures.meanAbsDiff(pages.current, pages.next)
      var previous = start
      for k in 0...20 {
        let t = Double(k) / 20
        let d = TurnFixtures.meanAbsDiff(r.frame(at: t, pages: pages), pages.next)
        let label = "\(style) \(options.corner) \(options.back) t=\(t): \(d) after \(previous)"
        #expect(d <= previous + tolerance, "\(label)")
        #expect(d <= start + tolerance, "\(label)")
        if k == 15 { #expect(d < start - 3, "\(label): by t = ¾ much of the next page shows") }
        previous = d
      }
    }
  }

  @Test func rightToLeftIsTheMirrorOfLeftToRight() throws {
    let pages = TurnFixtures.pages
    for style in TurnFixtures.styles {
      var rtl = TurnOptions()
      rtl.rightToLeft = true
      let ltrRenderer = PageTurnRenderer(effect: makeEffect(style: style)!, options: TurnOptions())
      let rtlRenderer = PageTurnRenderer(effect: makeEffect(style: style)!, options: rtl)
      for t in [0.0, 0.3, 0.6, 1.0] {
        let mirrored = rtlRenderer.frame(at: t, pages: pages.mirrored)
        #expect(
          mirrored == ltrRenderer.frame(at: t, pages: pages).flippedLeftRight(), "\(style) t=\(t)")
      }
      // And an rtl mid frame differs from the ltr one (the leaf lifts on the other side).
      #expect(rtlRenderer.frame(at: 0.5, pages: pages) != ltrRenderer.frame(at: 0.5, pages: pages))
    }
  }

  @Test func previousIsTheForwardTurnReversed() throws {
    let pages = TurnFixtures.pages
    var prev = TurnOptions()
    prev.direction = .prev
    for style in TurnFixtures.styles {
      let back = PageTurnRenderer(effect: makeEffect(style: style)!, options: prev)
      let forward = PageTurnRenderer(effect: makeEffect(style: style)!, options: TurnOptions())
      // prev: current = page N, next = page N−1.
      #expect(back.frame(at: 0, pages: pages) == pages.current)
      #expect(back.frame(at: 1, pages: pages) == pages.next)
      #expect(back.frame(at: 0.25, pages: pages) == forward.frame(at: 0.75, pages: pages.reversed))
    }
  }

  @Test func spreadEndpointsAreTheCurrentAndNextSpreads() throws {
    let spread = TurnFixtures.spread
    for style in TurnFixtures.styles {
      for rtl in [false, true] {
        for direction in [TurnDirection.next, .prev] {
          var o = TurnOptions()
          o.spread = true
          o.rightToLeft = rtl
          o.direction = direction
          let r = PageTurnRenderer(effect: makeEffect(style: style)!, options: o)
          #expect(r.frame(at: 0, spread: spread) == spread.currentSpread)
          #expect(r.frame(at: 1, spread: spread) == spread.nextSpread)
          let mid = r.frame(at: 0.5, spread: spread)
          #expect(mid.width == 2 * TurnFixtures.width)
          // Near the end the leaf lies almost flat on the left page: continuous with the end.
          let late = r.frame(at: 0.9999, spread: spread)
          #expect(TurnFixtures.meanAbsDiff(late, spread.nextSpread) < 1, "\(style) rtl=\(rtl)")
          let early = r.frame(at: 0.0001, spread: spread)
          #expect(TurnFixtures.meanAbsDiff(early, spread.currentSpread) < 1, "\(style) rtl=\(rtl)")
        }
      }
    }
  }

  /// Styles that are not leaf renderers (the compositor's hard page and transitions) turn
  /// both halves of a spread at once; the endpoints still hold.
  @Test func compositorStylesKeepSpreadEndpoints() throws {
    let spread = TurnFixtures.spread
    for style in ["hard", "slide", "fade", "push"] {
      var o = TurnOptions()
      o.spread = true
      let r = PageTurnRenderer(effect: makeEffect(style: style)!, options: o)
      #expect(r.frame(at: 0, spread: spread) == spread.currentSpread, "\(style)")
      #expect(r.frame(at: 1, spread: spread) == spread.nextSpread, "\(style)")
      #expect(r.frame(at: 0.5, spread: spread).width == 2 * TurnFixtures.width)
    }
  }

  @Test func registryKnowsTheStyles() {
    for style in pageTurnStyles { #expect(makeEffect(style: style)?.name == style) }
    #expect(makeEffect(style: "wobble") == nil)
  }

  @Test func timelineEndsExactlyAndEases() {
    let tl = FlipTimeline(frameCount: 5, fps: 30) { t in t * t }
    #expect(tl.frames.map(\.t) == [0, 0.25, 0.5, 0.75, 1])
    #expect(tl.frames.map(\.progress) == [0, 0.0625, 0.25, 0.5625, 1])
    // Overshoot is kept (issue #14), bounded to FlipTimeline.progressBounds; the ends exact.
    let overshoot = FlipTimeline(frameCount: 3) { _ in 7 }
    #expect(overshoot.frames.map(\.progress) == [0, 2, 1])
    #expect(FlipTimeline(duration: 1, fps: 30).frameCount == 30)
  }
}

@Suite struct TurnGoldenTests {
  @Test(arguments: ["curl", "leaves", "fold"])
  func midFrameGolden(style: String) throws {
    let r = PageTurnRenderer(effect: makeEffect(style: style)!, options: TurnOptions())
    try Golden.check(r.frame(at: 0.5, pages: TurnFixtures.pages), name: "\(style)-mid.png")
  }

  @Test func spreadCurlGolden() throws {
    var o = TurnOptions()
    o.spread = true
    let r = PageTurnRenderer(effect: CurlEffect(), options: o)
    try Golden.check(r.frame(at: 0.5, spread: TurnFixtures.spread), name: "curl-spread-mid.png")
  }
}
