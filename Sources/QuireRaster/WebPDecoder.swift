// WebP: lossy, lossless and alpha through libwebp's simple decoder; animated files through
// libwebpdemux's animation decoder, which composites the first frame onto the canvas (a
// frame may cover only part of it) exactly as a viewer shows it before playing.
//
// `WebPGetFeatures` reads the header (for an animation, the canvas size from VP8X) so the
// size is checked against `ImageLimits` before libwebp allocates anything; the still path
// then decodes straight into our buffer. Both paths ask for straight (not premultiplied)
// RGBA, the format every decoder here returns.

import CWebP
import Foundation

enum WebPDecoder {
  static func decode(_ data: Data, source: String) throws(RasterError) -> PixelBuffer {
    var features = WebPBitstreamFeatures()
    let status = data.withUnsafeBytes { raw in
      WebPGetFeatures(raw.bindMemory(to: UInt8.self).baseAddress, raw.count, &features)
    }
    guard status == VP8_STATUS_OK else {
      throw .library(
        function: "WebPGetFeatures", detail: "status \(status.rawValue)", source: source)
    }
    let width = Int(features.width)
    let height = Int(features.height)
    try ImageLimits.check(width: width, height: height, source: source)
    if features.has_animation != 0 {
      return try firstFrame(data, width: width, height: height, source: source)
    }
    var pixels = [UInt8](repeating: 0, count: width * height * 4)
    let count = pixels.count
    let out = data.withUnsafeBytes { raw in
      pixels.withUnsafeMutableBufferPointer { px in
        WebPDecodeRGBAInto(
          raw.bindMemory(to: UInt8.self).baseAddress, raw.count, px.baseAddress, count,
          Int32(width * 4))
      }
    }
    guard out != nil else {
      throw .library(
        function: "WebPDecodeRGBAInto", detail: "corrupt or truncated data", source: source)
    }
    return PixelBuffer(width: width, height: height, format: .rgba8, pixels: pixels)
  }

  /// The first frame of an animation, composited on its canvas.
  private static func firstFrame(_ data: Data, width: Int, height: Int, source: String)
    throws(RasterError) -> PixelBuffer
  {
    try [UInt8](data).withUnsafeBufferPointer { (raw) throws(RasterError) -> PixelBuffer in
      var webp = WebPData(bytes: raw.baseAddress, size: raw.count)
      var options = WebPAnimDecoderOptions()
      guard cwebp_anim_decoder_options_init(&options) != 0 else {
        throw .library(
          function: "WebPAnimDecoderOptionsInit", detail: "ABI mismatch", source: source)
      }
      options.color_mode = MODE_RGBA
      options.use_threads = 0
      guard let decoder = cwebp_anim_decoder_new(&webp, &options) else {
        throw .library(function: "WebPAnimDecoderNew", detail: "corrupt animation", source: source)
      }
      defer { WebPAnimDecoderDelete(decoder) }
      var info = WebPAnimInfo()
      guard WebPAnimDecoderGetInfo(decoder, &info) != 0,
        Int(info.canvas_width) == width, Int(info.canvas_height) == height
      else {
        throw .library(
          function: "WebPAnimDecoderGetInfo", detail: "canvas mismatch", source: source)
      }
      var frame: UnsafeMutablePointer<UInt8>?
      var timestamp: Int32 = 0
      guard WebPAnimDecoderGetNext(decoder, &frame, &timestamp) != 0, let frame else {
        throw .library(function: "WebPAnimDecoderGetNext", detail: "corrupt frame", source: source)
      }
      let pixels = [UInt8](UnsafeBufferPointer(start: frame, count: width * height * 4))
      return PixelBuffer(width: width, height: height, format: .rgba8, pixels: pixels)
    }
  }
}
