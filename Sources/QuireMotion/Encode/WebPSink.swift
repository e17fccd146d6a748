import CWebP
import Foundation

/// An animated WebP: each frame encoded by libwebp's `WebPEncode` in the parallel per-frame
/// step, the frames assembled in order with WebPMux.
///
/// Lossless (effort preset 0, `exact`): page frames are text on flat paper, where lossless
/// WebP is both smaller than quality-90 lossy and keeps glyph edges crisp (lossy VP8 rings
/// around text and shifts colours by chroma subsampling), and every frame decodes to the
/// input exactly, which the tests check. Effort 0, the fastest preset (as for the
/// flipbook's sheets): on whole 600x800 page frames cwebp takes 2.4× less time than at
/// effort 1 for files a quarter larger (Benchmarks/flip.md, session 12).
///
/// Every frame after the first stores only the rectangle that changed since the frame before
/// it (widened to even offsets, as ANMF frames need), drawn without blending over a canvas
/// that is never disposed — what libwebp's WebPAnimEncoder picks for such frames, but that
/// encoder takes frames one at a time on one thread, which bounded the animation's frames per
/// second (61 against 187 for APNG at 600x800, Benchmarks/flip.md session 11). Done here the
/// compression runs on every core while the mux only concatenates.
package struct WebPSink: FrameSink {
  package let path: String
  package let width: Int
  package let height: Int
  package let encoder: @Sendable (PixelBuffer, PixelBuffer?) throws -> WebPFrameBits
  private let animation: WebPAnimation
  private let frameMillis: Double
  private var frameCount = 0

  package init(path: String, fps: Double, width: Int, height: Int) throws {
    guard width > 0, height > 0, width <= 16383, height <= 16383 else {
      throw FrameSinkError.cannotCreate(
        path: path, reason: "WebP frames must be 1…16383 px, got \(width)x\(height)")
    }
    self.path = path
    self.width = width
    self.height = height
    frameMillis = 1000 / fps
    animation = try WebPAnimation(path: path, width: width, height: height)
    let w = width
    let h = height
    encoder = { frame, previous in
      guard frame.width == w && frame.height == h else {
        throw FrameSinkError.frameSize(
          path: path, expected: "\(w)x\(h)", got: "\(frame.width)x\(frame.height)")
      }
      return try WebPFrameBits(frame, previous: previous, path: path)
    }
  }

  package mutating func append(_ frame: WebPFrameBits, info: FrameInfo) throws {
    let start = Int32((Double(frameCount) * frameMillis).rounded())
    let end = Int32((Double(frameCount + 1) * frameMillis).rounded())
    try animation.add(frame, durationMillis: end - start)
    frameCount += 1
  }

  package mutating func finish() throws {
    guard frameCount > 0 else { throw FrameSinkError.noFrames(path: path) }
    try AtomicFile.writeFrameOutput(try animation.assemble(), to: path)
  }
}

/// One frame of an animated WebP: a lossless bitstream of the changed rectangle and where it
/// goes on the canvas (even offsets).
package struct WebPFrameBits: Sendable {
  package var bitstream: [UInt8]
  package var x: Int
  package var y: Int

  /// The frame whole (no `previous`, or one of another size or format), else the rectangle
  /// where it differs from `previous` (its top-left pixel when nothing changed).
  init(_ frame: PixelBuffer, previous: PixelBuffer?, path: String) throws {
    var (x, y, w, h) = (0, 0, frame.width, frame.height)
    if let previous, previous.width == frame.width, previous.height == frame.height,
      previous.format == frame.format
    {
      (x, y, w, h) = changedRectangle(frame, previous)
      // ANMF offsets are stored halved: widen the rectangle left and up to even ones.
      w += x & 1
      h += y & 1
      x &= ~1
      y &= ~1
    }
    var part =
      (x, y, w, h) == (0, 0, frame.width, frame.height)
      ? frame : frame.cropped(x: x, y: y, width: w, height: h)
    if part.format != .rgba8 { part = part.converted(to: .rgba8) }
    bitstream = try Self.encode(part, path: path)
    self.x = x
    self.y = y
  }

  /// Lossless WebP at effort preset 0, exact RGB under transparent pixels.
  private static func encode(_ image: PixelBuffer, path: String) throws -> [UInt8] {
    switch losslessWebP(
      image.pixels, width: image.width, height: image.height, preset: 0, exact: true)
    {
    case .success(let bytes): return bytes
    case .failure(let failure):
      throw FrameSinkError.library(
        path: path, function: failure.function,
        detail: failure.code.map { "error \($0.rawValue)" } ?? "")
    }
  }
}

/// Owns one WebPMux (deleted in deinit) that collects the frames in order.
private final class WebPAnimation {
  private let mux: OpaquePointer
  private let width: Int
  private let height: Int
  let path: String

  init(path: String, width: Int, height: Int) throws {
    self.path = path
    self.width = width
    self.height = height
    guard let m = WebPMuxNew() else {
      throw FrameSinkError.library(path: path, function: "WebPMuxNew", detail: "")
    }
    mux = m
  }

  deinit { WebPMuxDelete(mux) }

  func add(_ frame: WebPFrameBits, durationMillis: Int32) throws {
    let status = frame.bitstream.withUnsafeBufferPointer { bytes in
      var info = WebPMuxFrameInfo()
      info.bitstream = WebPData(bytes: bytes.baseAddress, size: bytes.count)
      info.x_offset = Int32(frame.x)
      info.y_offset = Int32(frame.y)
      info.duration = durationMillis
      info.id = WEBP_CHUNK_ANMF
      info.dispose_method = WEBP_MUX_DISPOSE_NONE
      info.blend_method = WEBP_MUX_NO_BLEND
      return WebPMuxPushFrame(mux, &info, 1)
    }
    try check(status, "WebPMuxPushFrame")
  }

  /// The whole file: canvas size, white background, endless loop, the frames.
  func assemble() throws -> Data {
    try check(WebPMuxSetCanvasSize(mux, Int32(width), Int32(height)), "WebPMuxSetCanvasSize")
    var params = WebPMuxAnimParams(bgcolor: 0xFFFF_FFFF, loop_count: 0)
    try check(WebPMuxSetAnimationParams(mux, &params), "WebPMuxSetAnimationParams")
    var data = WebPData()
    try check(WebPMuxAssemble(mux, &data), "WebPMuxAssemble")
    defer { WebPDataClear(&data) }
    guard let bytes = data.bytes else {
      throw FrameSinkError.library(path: path, function: "WebPMuxAssemble", detail: "empty")
    }
    return Data(bytes: bytes, count: data.size)
  }

  private func check(_ status: WebPMuxError, _ function: String) throws {
    guard status == WEBP_MUX_OK else {
      throw FrameSinkError.library(
        path: path, function: function, detail: "error \(status.rawValue)")
    }
  }
}
