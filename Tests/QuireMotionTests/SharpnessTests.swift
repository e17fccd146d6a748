import Foundation
import Testing

@testable import QuireMotion

/// Hard and open keep their sharpness (issue #14): the first and last frames are exact pages,
/// so the frames next to them must not be visibly softer (bilinear resampling at a sub-pixel
/// offset) — sharpness changes smoothly across the frames.
///
/// Metric: edge steepness Σ|∇|² / Σ|∇| over the frame's luminance (horizontal and vertical
/// differences). A step edge of contrast C gives C; the same edge spread over two pixels gives
/// C/2. It does not depend on how many edges there are, so a page that shrinks as it turns
/// keeps its value while it stays sharp.
@Suite struct SharpnessTests {
  static func steepness(_ f: PixelBuffer) -> Double {
    var sq = 0.0
    var abs = 0.0
    let w = f.width
    func luma(_ x: Int, _ y: Int) -> Double {
      let o = (y * w + x) * 4
      return (Double(f.pixels[o]) + Double(f.pixels[o + 1]) + Double(f.pixels[o + 2])) / 3
    }
    for y in 0..<(f.height - 1) {
      for x in 0..<(w - 1) {
        let c = luma(x, y)
        for d in [luma(x + 1, y) - c, luma(x, y + 1) - c] where d != 0 {
          sq += d * d
          abs += Swift.abs(d)
        }
      }
    }
    return abs > 0 ? sq / abs : 0
  }

  /// Consecutive frames' steepness ratios, each as max/min (≥ 1).
  static func steps(_ frames: [PixelBuffer]) -> [Double] {
    let s = frames.map(steepness)
    return zip(s, s.dropFirst()).map { a, b in Swift.max(a, b) / Swift.max(1e-9, Swift.min(a, b)) }
  }

  static func textPage(_ seed: Int) -> PixelBuffer {
    TurnFixtures.page(
      width: 300, height: 400, paper: (250, 248, 240), ink: (20, 20, 30), seed: seed)
  }

  @Test func hardTurnKeepsItsSharpness() {
    let pages = TurnPages(current: Self.textPage(1), next: Self.textPage(2))
    let r = PageTurnRenderer(effect: HardPageEffect(), options: TurnOptions())
    let timeline = FlipTimeline(frameCount: 24, timing: .easeInEaseOut)
    // The leaf covers most of the page over the first half of the turn.
    let frames = (0..<12).map { r.frame(at: timeline.info($0).progress, pages: pages) }
    let steps = Self.steps(frames)
    #expect(steps[0] < 1.15, "frame 1 → 2 changes sharpness by \(steps[0])×")
    #expect(steps.allSatisfy { $0 < 1.15 }, "\(steps)")
  }

  @Test func openingKeepsItsSharpness() {
    let page = Self.textPage(3)
    let anim = BookOpenAnimation(
      cover: Self.textPage(4), firstPage: page, canvas: (300, 400),
      from: (20, 200, 90, 130), background: RGBA(r: 90, g: 60, b: 40))
    let timeline = FlipTimeline(frameCount: 24, timing: .easeInEaseOut)
    // The book fills most of the canvas over the last third of the opening.
    let frames = (16..<24).map { anim.frame(at: timeline.info($0).progress) }
    #expect(frames.last == { () -> PixelBuffer in anim.frame(at: 1) }())
    let steps = Self.steps(frames)
    #expect(steps.last! < 1.15, "the last step changes sharpness by \(steps.last!)×")
    #expect(steps.allSatisfy { $0 < 1.15 }, "\(steps)")
  }
}
