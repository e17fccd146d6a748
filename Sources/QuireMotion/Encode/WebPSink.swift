import CWebP
import Foundation

/// An animated WebP through libwebp's WebPAnimEncoder.
///
/// Lossless (effort preset 1, `exact`): page frames are text on flat paper, where lossless
/// WebP is both smaller than quality-90 lossy and keeps glyph edges crisp (lossy VP8 rings
/// around text and shifts colours by chroma subsampling), and the first frame decodes to the
/// input exactly, which the tests check. Effort 1 keeps the encoder fast; the encoder's own
/// inter-frame diffing (sub-frame rectangles) still applies.
package struct WebPSink: FrameSink {
  package let path: String
  package let width: Int
  package let height: Int
  package let encoder: @Sendable (PixelBuffer, PixelBuffer?) throws -> PixelBuffer
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
    encoder = { frame, _ in
      guard frame.width == w && frame.height == h else {
        throw FrameSinkError.frameSize(
          path: path, expected: "\(w)x\(h)", got: "\(frame.width)x\(frame.height)")
      }
      return frame.format == .rgba8 ? frame : frame.asRGBA()
    }
  }

  package mutating func append(_ frame: PixelBuffer, info: FrameInfo) throws {
    try animation.add(frame, timestampMillis: Int32((Double(frameCount) * frameMillis).rounded()))
    frameCount += 1
  }

  package mutating func finish() throws {
    guard frameCount > 0 else { throw FrameSinkError.noFrames(path: path) }
    let data = try animation.assemble(
      endMillis: Int32((Double(frameCount) * frameMillis).rounded()))
    try AtomicFile.writeFrameOutput(data, to: path)
  }
}

/// Owns one WebPAnimEncoder (deleted in deinit).
private final class WebPAnimation {
  private let encoder: OpaquePointer
  private var config = WebPConfig()
  let path: String

  init(path: String, width: Int, height: Int) throws {
    self.path = path
    var options = WebPAnimEncoderOptions()
    guard cwebp_anim_encoder_options_init(&options) != 0 else {
      throw FrameSinkError.library(
        path: path, function: "WebPAnimEncoderOptionsInit", detail: "ABI mismatch")
    }
    options.anim_params.loop_count = 0
    options.allow_mixed = 0
    guard let e = cwebp_anim_encoder_new(Int32(width), Int32(height), &options) else {
      throw FrameSinkError.library(path: path, function: "WebPAnimEncoderNew", detail: "")
    }
    encoder = e
    guard cwebp_config_init(&config) != 0, WebPConfigLosslessPreset(&config, 1) != 0 else {
      throw FrameSinkError.library(path: path, function: "WebPConfigInit", detail: "")
    }
    config.lossless = 1
    config.exact = 1
  }

  deinit { WebPAnimEncoderDelete(encoder) }

  func add(_ frame: PixelBuffer, timestampMillis: Int32) throws {
    var picture = WebPPicture()
    defer { WebPPictureFree(&picture) }
    if let refused = importRGBA(
      &picture, width: frame.width, height: frame.height, pixels: frame.pixels)
    {
      throw FrameSinkError.library(path: path, function: refused, detail: "")
    }
    guard WebPAnimEncoderAdd(encoder, &picture, timestampMillis, &config) != 0 else {
      throw FrameSinkError.library(
        path: path, function: "WebPAnimEncoderAdd", detail: errorText())
    }
  }

  func assemble(endMillis: Int32) throws -> Data {
    guard WebPAnimEncoderAdd(encoder, nil, endMillis, nil) != 0 else {
      throw FrameSinkError.library(
        path: path, function: "WebPAnimEncoderAdd", detail: errorText())
    }
    var data = WebPData()
    guard WebPAnimEncoderAssemble(encoder, &data) != 0, let bytes = data.bytes else {
      throw FrameSinkError.library(
        path: path, function: "WebPAnimEncoderAssemble", detail: errorText())
    }
    defer { WebPDataClear(&data) }
    return Data(bytes: bytes, count: data.size)
  }

  private func errorText() -> String {
    WebPAnimEncoderGetError(encoder).map { String(cString: $0) } ?? ""
  }
}
