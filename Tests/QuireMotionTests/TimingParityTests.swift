import Foundation
import Testing

@testable import QuireMotion

/// Issue #14, timing: the motion follows the declared curve, frame for frame.
@Suite struct TimingParityTests {
  /// Two pages on the same white paper with text inside 8-px margins, as real pages are:
  /// a corner lifted over a white margin shows only by its shading and shadow.
  static var whitePages: TurnPages {
    TurnPages(
      current: TurnFixtures.page(
        width: 240, height: 320, paper: (255, 255, 255), ink: (30, 30, 40), seed: 1),
      next: TurnFixtures.page(
        width: 240, height: 320, paper: (255, 255, 255), ink: (20, 40, 120), seed: 2))
  }

  @Test("Per-frame progress is the timing curve's value (no second remapping, no clamp)")
  func progressIsTheCurve() {
    for curve in [TimingFunction.easeIn, .easeOut, .easeInEaseOut, .linear] {
      let timeline = FlipTimeline(frameCount: 24, fps: 30, timing: curve)
      for i in 0..<24 {
        let info = timeline.info(i)
        #expect(info.t == Double(i) / 23)
        #expect(abs(info.progress - curve(info.t)) < 1e-12, "\(curve) frame \(i)")
      }
    }
  }

  @Test("An overshooting cubic-bezier is kept, and slide and push show it")
  func overshootKept() throws {
    let back = try #require(TimingFunction(parsing: "cubic-bezier(0.3, -0.6, 0.7, 1.6)"))
    let timeline = FlipTimeline(frameCount: 30, fps: 30, timing: back)
    let progress = timeline.frames.map(\.progress)
    #expect(progress.min()! < -0.02)
    #expect(progress.max()! > 1.02)
    #expect(progress.first == 0 && progress.last == 1)
    // A slide at p = 1.1 carries the incoming page a tenth of a page past its rest.
    let pages = Self.whitePages
    let slide = PageTurnRenderer(effect: makeEffect(style: "slide")!, options: TurnOptions())
    let f = slide.frame(at: 1.1, pages: pages)
    for y in stride(from: 10, to: 300, by: 17) {
      #expect(pixel(f, 50, y) == pixel(pages.next, 74, y))
    }
    #expect(f != pages.next)
    // Leaf styles cannot go past lying down: they stop at the next page.
    let curl = PageTurnRenderer(effect: makeEffect(style: "curl")!, options: TurnOptions())
    #expect(curl.frame(at: 1.1, pages: pages) == pages.next)
  }

  @Test("--direction prev is the forward geometry at 1 − curve(t): ease-in stays ease-in")
  func previousIsTheReversedCurve() {
    let pages = Self.whitePages
    for style in pageTurnStyles {
      var prev = TurnOptions()
      prev.direction = .prev
      let backward = PageTurnRenderer(effect: makeEffect(style: style)!, options: prev)
      let forward = PageTurnRenderer(effect: makeEffect(style: style)!, options: TurnOptions())
      let timeline = FlipTimeline(frameCount: 12, fps: 30, timing: .easeIn)
      for info in timeline.frames where info.index % 3 == 1 {
        #expect(
          backward.frame(at: info.progress, pages: pages)
            == forward.frame(at: 1 - info.progress, pages: pages.reversed), "\(style) \(info)")
      }
      // Ease-in: the backward turn starts slowly — its first step is smaller than its last.
      let frames = timeline.frames.map { backward.frame(at: $0.progress, pages: pages) }
      // (Slide and push move text sideways: the difference of a step saturates, not a measure.)
      guard style != "slide" && style != "push" else { continue }
      let first = meanAbsoluteDifference(frames[0], frames[1])
      let last = meanAbsoluteDifference(frames[10], frames[11])
      #expect(first < last, "\(style): first step \(first), last step \(last)")
    }
  }

  @Test("No two neighbouring frames are identical while progress changes (every style)")
  func noStalledFrames() {
    let pages = Self.whitePages
    let timeline = FlipTimeline(frameCount: 24, fps: 30, timing: .easeInEaseOut)
    for style in pageTurnStyles {
      for corner in [TurnCorner.bottom, .top] where corner == .bottom || style == "curl" {
        var options = TurnOptions()
        options.corner = corner
        let r = PageTurnRenderer(effect: makeEffect(style: style)!, options: options)
        var previous = r.frame(at: 0, pages: pages)
        for info in timeline.frames.dropFirst() {
          let f = r.frame(at: info.progress, pages: pages)
          #expect(f != previous, "\(style) \(corner): frame \(info.index) equals its neighbour")
          previous = f
        }
      }
    }
  }

  @Test("Partial turns, stills and cancelled turns are segments of the same curve")
  func segments() {
    let whole = FlipTimeline(frameCount: 11, fps: 30, timing: .easeInEaseOut)
    let part = whole.segment(from: 0.2, to: 0.6)
    #expect(part.info(0).progress == 0.2 && part.info(10).progress == 0.6)
    #expect(abs(part.info(4).progress - (0.2 + 0.4 * whole.info(4).progress)) < 1e-12)
    let cancel = whole.segment(from: 0, to: 0.5, fallsBack: true)
    #expect(cancel.info(0).progress == 0 && cancel.info(10).progress == 0)
    #expect(cancel.info(5).progress == 0.5)
    for i in 1..<5 {
      #expect(abs(cancel.info(i).progress - cancel.info(10 - i).progress) < 1e-12)
      #expect(cancel.info(i).progress < cancel.info(i + 1).progress)
    }
    let still = FlipTimeline(frameCount: 1).segment(from: 0.4, to: 0.4)
    #expect(still.frames.map(\.progress) == [0.4])
    // Bounded: a segment never leaves the overshoot bounds.
    #expect(whole.segment(from: -50, to: .nan).info(0).progress == -1)
  }
}
