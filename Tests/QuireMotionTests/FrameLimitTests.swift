// Issue #9: a timeline never traps on input-reachable values (`flip --duration 600 --fps 240`
// was a SIGILL); frame counts and rates are clamped to `MotionLimits`, and the recording
// batch shrinks with the frame size.

import Testing

@testable import QuireMotion

@Suite("Frame limits")
struct FrameLimitTests {
  @Test("Timelines clamp frame counts, rates and durations instead of trapping")
  func clamped() {
    #expect(FlipTimeline(frameCount: 1_000_000).frameCount == MotionLimits.maxFrames)
    #expect(FlipTimeline(frameCount: -5).frameCount == 1)
    #expect(FlipTimeline(frameCount: 10, fps: 100_000).fps == 240)
    #expect(FlipTimeline(frameCount: 10, fps: 0).fps == 1)
    #expect(FlipTimeline(frameCount: 10, fps: .nan).fps == 30)
    #expect(FlipTimeline(duration: 600, fps: 240).frameCount == MotionLimits.maxFrames)
    #expect(FlipTimeline(duration: .infinity, fps: 30).frameCount == MotionLimits.maxFrames)
    #expect(FlipTimeline(duration: .nan, fps: 30).frameCount == 2)
    #expect(FlipTimeline(duration: 1, fps: 30).frameCount == 30)
    #expect(FlipTimeline(duration: 1.5, fps: 24).frameCount == 36)
    #expect(FlipTimeline(duration: 1.5, fps: 24).duration == 1.5)
    let t = FlipTimeline(frameCount: 3)
    #expect(t.info(0).progress == 0 && t.info(2).progress == 1)
  }

  @Test("The recording batch fits the batch memory budget")
  func batches() {
    #expect(MotionLimits.batch(cores: 2, frameBytes: 600 * 800 * 4) == 8)
    let huge = 4096 * 4096 * 4
    let n = MotionLimits.batch(cores: 64, frameBytes: huge)
    #expect(n >= 1 && n * 3 * huge <= MotionLimits.batchMemoryBudget)
    #expect(MotionLimits.batch(cores: 2, frameBytes: Int.max / 4) == 1)
  }
}
