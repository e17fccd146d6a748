import Dispatch
import Foundation

// Encode: where the frames of a flip go.
//
// A flip is a timeline of N frames at times t_i = i/(N − 1) (0…1) whose eased progress
// p_i = easing(t_i) drives the effect (p_0 = 0 and p_{N−1} = 1 exactly, so the first and last
// frames are the current and next pages). Frames are rendered and compressed in parallel —
// each frame is independent and deterministic — then appended to the sink in order:
// `FrameSink.encoder` is the pure per-frame part (deflate for PNG/APNG, lossless WebP of the
// changed rectangle, RGB → yuv420p for ffmpeg), `append` the ordered part (file writes, the
// WebP mux, the ffmpeg pipe), which runs on its own thread while the next batch is drawn.
// The alternative, one sequential loop, leaves a core idle; a fully concurrent sink would
// need the sink itself to be thread-safe, which a mux and a pipe are not.
//
// Every sink writes through the core's `AtomicFile`: a temporary name next to its target
// (inside the output folder), renamed into place in `finish`, so a failed run never leaves a
// half-written file under the asked name (ffmpeg writes the temporary file itself).

/// The bounds of an animation (issue #9). Input-reachable values are clamped into them
/// here (never a trap); the façade refuses requests outside them before they get here.
package enum MotionLimits {
  /// The most frames one animation may have: 10,000 (5.5 minutes at 30 fps). Frames are
  /// recorded in bounded batches, so this caps time and output size, not memory.
  package static let maxFrames = 10_000

  /// Frame rates: 1 … 240 frames per second (past 240 no display shows the difference).
  package static let framesPerSecond = 1.0...240.0

  /// The memory the frames of one recording batch (rendered frame, its predecessor and its
  /// encoding, about three frames' bytes each) may take: 384 MB. The batch is a few frames
  /// per core at page sizes, and one frame when frames are huge.
  package static let batchMemoryBudget = 384 << 20

  /// Frames recorded in parallel for `cores` cores and frames of `frameBytes` bytes.
  package static func batch(cores: Int, frameBytes: Int) -> Int {
    let fit = batchMemoryBudget / Swift.max(1, 3 * frameBytes)
    return Swift.max(1, Swift.min(4 * Swift.max(1, cores), fit))
  }
}

/// Where one frame sits on the timeline (index from 0; file names count from 1). In a chain
/// of animations `t` and `progress` are the segment's own and `segment` names it (from 0).
package struct FrameInfo: Sendable, Codable, Hashable {
  package var index: Int
  package var t: Double
  package var progress: Double
  package var segment: Int?
  package init(index: Int, t: Double, progress: Double, segment: Int? = nil) {
    self.index = index
    self.t = t
    self.progress = progress
    self.segment = segment
  }
}

/// Any sequence of frames: how many, how fast, and where each sits (a `FlipTimeline`, or a
/// chain of them sharing their boundary frames).
package struct FrameSchedule: Sendable {
  package var frameCount: Int
  package var fps: Double
  package var info: @Sendable (Int) -> FrameInfo
  package init(frameCount: Int, fps: Double, info: @escaping @Sendable (Int) -> FrameInfo) {
    self.frameCount = Swift.min(Swift.max(frameCount, 1), MotionLimits.maxFrames)
    self.fps = fps
    self.info = info
  }
}

/// One animation of a chain as frames.json lists it: its kind ("open", "turn", "hold",
/// "close"), the style of a turn, its frames (from 1, both ends: a boundary frame belongs to
/// both segments it joins) and the pages (from 1) it starts and ends on.
package struct SegmentRecord: Sendable, Codable, Hashable {
  package var index: Int
  package var kind: String
  package var style: String?
  package var firstFrame: Int
  package var lastFrame: Int
  package var fromPage: Int?
  package var toPage: Int?
  package init(
    index: Int, kind: String, style: String?, firstFrame: Int, lastFrame: Int, fromPage: Int?,
    toPage: Int?
  ) {
    self.index = index
    self.kind = kind
    self.style = style
    self.firstFrame = firstFrame
    self.lastFrame = lastFrame
    self.fromPage = fromPage
    self.toPage = toPage
  }
}

/// N frames at t_i = i/(N − 1), eased. The motion-engine's `TimingFunction` plugs in as the
/// easing closure.
///
/// Progress is the easing's value as it is: an overshooting cubic-bezier leaves 0…1 (bounded
/// to `progressBounds`; each style decides what it can show past the ends). Only the first and
/// last frames are pinned to the segment's ends, so frame 0 and frame N−1 are exact pages.
///
/// A segment (`from`, `to`) plays part of a turn: progress p_i = from + (to − from)·e(t_i).
/// `fallsBack` plays it there and back — a drag released before the turn completes: the
/// first half rises along the curve, the second half is the same curve mirrored in time, and
/// the last frame is `from` again.
///
/// Duration. A timeline asked for by duration S at F frames per second has N = round(S·F)
/// frames (at least 2), each shown for 1/F s, so it lasts N/F ≈ S (`duration`); the first
/// frame is t = 0 and the last t = 1.
package struct FlipTimeline: Sendable {
  package var frameCount: Int
  package var fps: Double
  package var easing: @Sendable (Double) -> Double
  /// Progress at t = 0.
  package var from = 0.0
  /// Progress at t = 1 (or, with `fallsBack`, at t = ½).
  package var to = 1.0
  /// There and back: the progress returns to `from` at t = 1.
  package var fallsBack = false

  /// The most an overshooting curve may leave 0…1 by (a cubic-bezier's y is any number).
  package static let progressBounds = -1.0...2.0

  /// `frameCount` is clamped to 1 … `MotionLimits.maxFrames` and `fps` to
  /// `MotionLimits.framesPerSecond` (NaN: 30); callers check the request first.
  package init(
    frameCount: Int, fps: Double = 30, easing: @escaping @Sendable (Double) -> Double = { $0 }
  ) {
    let rates = MotionLimits.framesPerSecond
    self.frameCount = Swift.min(Swift.max(frameCount, 1), MotionLimits.maxFrames)
    self.fps = fps.isNaN ? 30 : Swift.min(Swift.max(fps, rates.lowerBound), rates.upperBound)
    self.easing = easing
  }

  /// Eased by a cubic-bezier timing function.
  package init(frameCount: Int, fps: Double = 30, timing: TimingFunction) {
    self.init(frameCount: frameCount, fps: fps, easing: { timing($0) })
  }

  /// Frames for a duration in seconds: round(duration × fps) frames (at least 2), each shown
  /// for 1/fps s.
  package init(
    duration: Double, fps: Double = 30, easing: @escaping @Sendable (Double) -> Double = { $0 }
  ) {
    let rates = MotionLimits.framesPerSecond
    let rate = fps.isNaN ? 30 : Swift.min(Swift.max(fps, rates.lowerBound), rates.upperBound)
    self.init(frameCount: Self.frameCount(duration: duration, fps: rate), fps: rate, easing: easing)
  }

  /// The frames a duration takes: round(seconds × fps), at least 2, at most the cap.
  package static func frameCount(duration: Double, fps: Double) -> Int {
    let seconds = duration.isNaN ? 0 : Swift.min(Swift.max(duration, 0), 600)
    let rate = fps.isNaN ? 30 : Swift.max(fps, 1)
    let n = Swift.min(Double(MotionLimits.maxFrames), (seconds * rate).rounded())
    return Swift.max(2, Int(n))
  }

  /// How long the frames play: frameCount / fps seconds.
  package var duration: Double { Double(frameCount) / fps }

  /// The same timeline over the segment `from`…`to` (each bounded to `progressBounds`).
  package func segment(from: Double, to: Double, fallsBack: Bool = false) -> FlipTimeline {
    var copy = self
    copy.from = Self.bounded(from, fallback: 0)
    copy.to = Self.bounded(to, fallback: 1)
    copy.fallsBack = fallsBack
    return copy
  }

  private static func bounded(_ v: Double, fallback: Double) -> Double {
    guard v.isFinite else { return fallback }
    return Swift.min(progressBounds.upperBound, Swift.max(progressBounds.lowerBound, v))
  }

  package func info(_ i: Int) -> FrameInfo {
    let t = frameCount <= 1 ? 1 : Double(i) / Double(frameCount - 1)
    return FrameInfo(index: i, t: t, progress: from + (to - from) * eased(i, t))
  }

  /// The curve's value for frame i at time t: exactly 0 and 1 at the ends (0 at both ends of
  /// a fall-back), the easing's value (bounded, not clamped to 0…1) between.
  private func eased(_ i: Int, _ t: Double) -> Double {
    if frameCount <= 1 { return 1 }
    if fallsBack {
      if i == 0 || i == frameCount - 1 { return 0 }
      let u = t <= 0.5 ? 2 * t : 2 - 2 * t
      if u >= 1 { return 1 }
      return Self.bounded(easing(u), fallback: u)
    }
    if i == 0 { return 0 }
    if i == frameCount - 1 { return 1 }
    return Self.bounded(easing(t), fallback: t)
  }

  package var frames: [FrameInfo] { (0..<frameCount).map(info) }

  /// The timeline as a schedule (what the recorder walks).
  package var schedule: FrameSchedule {
    let copy = self
    return FrameSchedule(frameCount: frameCount, fps: fps) { copy.info($0) }
  }
}

package protocol FrameSink: SendableMetatype {
  associatedtype EncodedFrame: Sendable
  /// The per-frame work (compression); called concurrently and in any order, with the frame
  /// before it on the timeline when the caller has it (nil for the first frame, or when
  /// frames are appended one by one) — APNG uses it to store only the changed rectangle.
  var encoder: @Sendable (PixelBuffer, PixelBuffer?) throws -> EncodedFrame { get }
  /// Appends one encoded frame; called in frame order.
  mutating func append(_ frame: EncodedFrame, info: FrameInfo) throws
  /// Completes the output and moves it into place.
  mutating func finish() throws
}

extension FrameSink {
  /// Encodes and appends one frame (the sequential path; each frame is stored whole).
  package mutating func append(_ frame: PixelBuffer, info: FrameInfo) throws {
    try append(encoder(frame, nil), info: info)
  }
}

package enum FrameSinkError: Error, Equatable, CustomStringConvertible {
  case cannotCreate(path: String, reason: String)
  case cannotWrite(path: String, reason: String)
  case frameSize(path: String, expected: String, got: String)
  case library(path: String, function: String, detail: String)
  case ffmpegNotFound(path: String)
  case ffmpegFailed(path: String, status: Int32, message: String)
  case noFrames(path: String)

  package var description: String {
    switch self {
    case .cannotCreate(let p, let r): return "\(p): cannot create output: \(r)"
    case .cannotWrite(let p, let r): return "\(p): cannot write: \(r)"
    case .frameSize(let p, let e, let g): return "\(p): frame is \(g), expected \(e)"
    case .library(let p, let f, let d): return "\(p): \(f) failed: \(d)"
    case .ffmpegNotFound(let p):
      return "\(p): writing video needs ffmpeg, which is not on PATH (install ffmpeg)"
    case .ffmpegFailed(let p, let s, let m): return "\(p): ffmpeg exited with \(s): \(m)"
    case .noFrames(let p): return "\(p): no frames were written"
    }
  }
}

/// Renders a timeline in parallel and feeds the sink in order.
package enum FlipRecorder {
  /// `render` maps eased progress to a frame; it must be deterministic and thread-safe.
  /// Frames are produced in batches of a few per core, fewer when frames are large
  /// (`MotionLimits.batch`), so memory stays bounded. `frameBytes` is one frame's size.
  package static func record<Sink: FrameSink>(
    _ timeline: FlipTimeline, into sink: inout Sink, frameBytes: Int = 0,
    render: @escaping @Sendable (Double) -> PixelBuffer
  ) throws {
    try record(timeline.schedule, into: &sink, frameBytes: frameBytes) { render($0.progress) }
  }

  /// The same for any schedule: `render` draws the frame at a schedule position.
  ///
  /// The ordered appends of one batch run on their own thread while the next batch is drawn
  /// and compressed (a pipe to ffmpeg or libwebp's animation encoder then never leaves the
  /// cores idle); at most two batches are alive at once.
  package static func record<Sink: FrameSink>(
    _ timeline: FrameSchedule, into sink: inout Sink, frameBytes: Int = 0,
    render: @escaping @Sendable (FrameInfo) -> PixelBuffer
  ) throws {
    let cores = Swift.max(1, ProcessInfo.processInfo.activeProcessorCount)
    let batch = Swift.min(
      timeline.frameCount, MotionLimits.batch(cores: cores, frameBytes: 2 * frameBytes))
    let encoder = sink.encoder
    let appender = OrderedAppender(sink)
    var carried: PixelBuffer?  // the last frame of the previous batch
    var start = 0
    while start < timeline.frameCount {
      let count = Swift.min(batch, timeline.frameCount - start)
      let first = start
      // Render the batch, then encode it (each frame with its predecessor), both in parallel.
      let frames = ResultSlots<PixelBuffer>(count: count)
      DispatchQueue.concurrentPerform(iterations: count) { k in
        frames.set(k, .success(render(timeline.info(first + k))))
      }
      let rendered = try (0..<count).map { try frames.take($0).get() }
      let previousOfBatch = carried
      let encoded = ResultSlots<Sink.EncodedFrame>(count: count)
      DispatchQueue.concurrentPerform(iterations: count) { k in
        let previous = k > 0 ? rendered[k - 1] : previousOfBatch
        encoded.set(k, Result { try encoder(rendered[k], previous) })
      }
      guard appender.append(encoded, infos: (first..<(first + count)).map(timeline.info))
      else { break }
      carried = rendered.last
      start += count
    }
    sink = try appender.finish()
  }
}

/// Appends encoded batches to a sink in order on one serial queue, so the caller can draw
/// the next batch meanwhile. The sink is touched only by that queue until `finish` (which
/// waits for it); the first error stops later appends and is rethrown by `finish`.
private final class OrderedAppender<Sink: FrameSink>: @unchecked Sendable {
  private var sink: Sink
  private var error: Error?
  private let queue = DispatchQueue(label: "quire.frame-sink")
  private let pending = DispatchGroup()

  init(_ sink: Sink) { self.sink = sink }

  /// Waits for the previous batch, then appends this one in the background; false (and
  /// nothing queued) once an append has failed.
  func append(_ frames: ResultSlots<Sink.EncodedFrame>, infos: [FrameInfo]) -> Bool {
    pending.wait()
    guard error == nil else { return false }
    queue.async(group: pending) {
      for (k, info) in infos.enumerated() where self.error == nil {
        do { try self.sink.append(frames.take(k).get(), info: info) } catch {
          self.error = error
        }
      }
    }
    return true
  }

  /// Waits for every append, then completes the sink (or rethrows the first error).
  func finish() throws -> Sink {
    pending.wait()
    if let error { throw error }
    try sink.finish()
    return sink
  }
}

/// One result slot per frame of a batch, each written by exactly one thread.
private final class ResultSlots<T>: @unchecked Sendable {
  private var items: UnsafeMutableBufferPointer<Result<T, Error>?>
  init(count: Int) {
    items = .allocate(capacity: count)
    items.initialize(repeating: nil)
  }
  // Safe without a lock: concurrentPerform gives each index to one thread, and the reads
  // happen after it returns.
  func set(_ i: Int, _ r: Result<T, Error>) { items[i] = r }
  func take(_ i: Int) -> Result<T, Error> {
    guard let r = items[i] else { return .failure(FrameSinkError.noFrames(path: "frame \(i)")) }
    items[i] = nil
    return r
  }
  deinit {
    _ = items.deinitialize()
    items.deallocate()
  }
}

/// The output kinds `quire flip -o OUT` chooses by OUT's name.
package enum FlipOutputKind: String, Sendable, Hashable {
  case frames, apng, webp, mp4, webm

  /// A directory (existing, or a name without extension) → frames; *.png / *.apng → APNG;
  /// *.webp → animated WebP; *.mp4 / *.webm → ffmpeg. Nil for another extension.
  package init?(path: String) {
    var isDirectory: ObjCBool = false
    if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory),
      isDirectory.boolValue
    {
      self = .frames
      return
    }
    switch (path as NSString).pathExtension.lowercased() {
    case "": self = .frames
    case "png", "apng": self = .apng
    case "webp": self = .webp
    case "mp4": self = .mp4
    case "webm": self = .webm
    default: return nil
    }
  }
}

/// Writes a whole flip to OUT, choosing the encoder by OUT's name (`FlipOutputKind`).
package enum FlipOutput {
  package static func write(
    to path: String, timeline: FlipTimeline, style: String, width: Int, height: Int,
    render: @escaping @Sendable (Double) -> PixelBuffer
  ) throws {
    try write(
      to: path, schedule: timeline.schedule, style: style, width: width, height: height,
      segments: nil
    ) { render($0.progress) }
  }

  /// Writes any schedule; `segments` (a chain's) go into frames.json.
  package static func write(
    to path: String, schedule timeline: FrameSchedule, style: String, width: Int, height: Int,
    segments: [SegmentRecord]?, render: @escaping @Sendable (FrameInfo) -> PixelBuffer
  ) throws {
    guard let kind = FlipOutputKind(path: path) else {
      throw FrameSinkError.cannotCreate(
        path: path, reason: "unknown output type (use a folder, .png, .apng, .webp, .mp4, .webm)")
    }
    let bytes = 4 * width * height
    switch kind {
    case .frames:
      var sink = try FrameFolderSink(
        directory: path, fps: timeline.fps, style: style, width: width, height: height)
      sink.segments = segments
      try FlipRecorder.record(timeline, into: &sink, frameBytes: bytes, render: render)
    case .apng:
      var sink = try APNGSink(path: path, fps: timeline.fps, width: width, height: height)
      try FlipRecorder.record(timeline, into: &sink, frameBytes: bytes, render: render)
    case .webp:
      var sink = try WebPSink(path: path, fps: timeline.fps, width: width, height: height)
      try FlipRecorder.record(timeline, into: &sink, frameBytes: bytes, render: render)
    case .mp4, .webm:
      var sink = try VideoSink(path: path, fps: timeline.fps, width: width, height: height)
      try FlipRecorder.record(timeline, into: &sink, frameBytes: bytes, render: render)
    }
  }
}

extension FlipOutput {
  /// Writes the turn of `input` played by `renderer` over `timeline` to OUT; the frame size
  /// is the input's (2W wide for a spread). `style` is recorded in frames.json.
  package static func write(
    to path: String, timeline: FlipTimeline, renderer: PageTurnRenderer, input: TurnInput
  ) throws {
    let size = input.first
    try write(
      to: path, timeline: timeline, style: renderer.effect.name, width: size.width,
      height: size.height
    ) { renderer.frame(at: $0, input: input) }
  }
}

extension AtomicFile {
  /// Writes `bytes` to `path` atomically, reporting failures as the sinks' errors.
  static func writeFrameOutput(_ bytes: some Collection<UInt8>, to path: String) throws {
    do { try AtomicFile.write(bytes, to: path) } catch {
      throw error.step == .open
        ? FrameSinkError.cannotCreate(path: path, reason: error.reason)
        : FrameSinkError.cannotWrite(path: path, reason: error.reason)
    }
  }
}
