import Foundation
import QuireRaster
import Testing

@testable import QuireMotion

@Suite struct TurnRecordingTests {
  /// Frames rendered in parallel batches and written as PNG equal the frames rendered one by
  /// one: each frame is independent and deterministic.
  @Test func parallelRecordingEqualsSequentialRendering() throws {
    let pages = TurnFixtures.pages
    for style in TurnFixtures.styles {
      let renderer = PageTurnRenderer(effect: makeEffect(style: style)!, options: TurnOptions())
      let timeline = FlipTimeline(frameCount: 11, fps: 30) { t in t * t * (3 - 2 * t) }
      let dir = try TurnFixtures.scratchDirectory("parallel-\(style)")
      try FlipOutput.write(
        to: dir, timeline: timeline, style: style, width: pages.current.width,
        height: pages.current.height
      ) { renderer.frame(at: $0, pages: pages) }
      for info in timeline.frames {
        let file = dir + "/" + FrameFolderSink.fileName(index: info.index)
        let decoded = try? PNGCodec.decode(try Data(contentsOf: URL(fileURLWithPath: file)))
        #expect(decoded == renderer.frame(at: info.progress, pages: pages), "\(style) \(info)")
      }
    }
  }

  /// The Benchmarks/flip.md measurement (runs only with QUIRE_BENCH=1, in a release build):
  /// a 60-frame 600×800 curl written as PNG frames. Prints frames/s; asserts nothing about
  /// time (no timed unit tests), only that every frame was written.
  @Test func curlBenchmark() throws {
    guard ProcessInfo.processInfo.environment["QUIRE_BENCH"] == "1" else { return }
    let w = 600
    let h = 800
    let pages = TurnPages(
      current: TurnFixtures.page(
        width: w, height: h, paper: (250, 246, 236), ink: (30, 30, 40), seed: 1),
      next: TurnFixtures.page(
        width: w, height: h, paper: (245, 245, 250), ink: (20, 40, 120), seed: 2))
    let dir = try TurnFixtures.scratchDirectory("bench")
    for style in ["curl", "leaves", "fold"] {
      let renderer = PageTurnRenderer(effect: makeEffect(style: style)!, options: TurnOptions())
      let timeline = FlipTimeline(frameCount: 60, fps: 60) { t in t * t * (3 - 2 * t) }
      var best = Double.infinity
      var bestCPU = Double.infinity
      for _ in 0..<3 {
        let clock = ContinuousClock()
        let cpu0 = cpuSeconds()
        let start = clock.now
        try FlipOutput.write(
          to: dir + "/" + style, timeline: timeline, style: style, width: w, height: h
        ) {
          renderer.frame(at: $0, pages: pages)
        }
        let d = (clock.now - start).components
        best = Swift.min(best, Double(d.seconds) + Double(d.attoseconds) / 1e18)
        bestCPU = Swift.min(bestCPU, cpuSeconds() - cpu0)
      }
      let files = try FileManager.default.contentsOfDirectory(atPath: dir + "/" + style)
      #expect(files.count == 61)
      // Render only (no PNG), for the breakdown.
      let clock = ContinuousClock()
      let start = clock.now
      DispatchQueue.concurrentPerform(iterations: 60) { i in
        _ = renderer.frame(at: timeline.info(i).progress, pages: pages)
      }
      let r = (clock.now - start).components
      let renderOnly = Double(r.seconds) + Double(r.attoseconds) / 1e18
      print(
        String(
          format:
            "BENCH %@ 60 frames 600x800 → PNG folder: wall best of 3 %.3f s = %.1f frames/s; CPU %.3f s = %.1f frames per CPU-second; render only (wall) %.3f s",
          style, best, 60 / best, bestCPU, 60 / bestCPU, renderOnly))
    }
  }
}

/// User + system CPU time of this process, in seconds.
private func cpuSeconds() -> Double {
  var usage = rusage()
  getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
  func s(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
  return s(usage.ru_utime) + s(usage.ru_stime)
}
