import CPNG
import Foundation

/// PNG in and out. Encoding is the core's `PNGEncoder` (chunks written by hand, compressed
/// with libdeflate; see Benchmarks/png-encoding.md), shared with Motion's APNG writer;
/// decoding uses libpng's simplified `png_image_*` API, which needs no setjmp from Swift.
package enum PNGCodec {
  /// PNG row filters (the PNG spec's filter types 0–4, plus per-row adaptive choice).
  package typealias Filter = PNGEncoder.Filter

  /// The defaults chosen from the measurements in Benchmarks/png-encoding.md.
  package static let defaultFilter: Filter = PNGEncoder.defaultFilter
  package static let defaultLevel: Int32 = PNGEncoder.defaultLevel

  /// Encodes 8-bit gray or RGBA, deterministic bytes: no time or text chunks.
  package static func encode(_ b: PixelBuffer) -> [UInt8] {
    PNGEncoder.encode(b, filter: defaultFilter, level: defaultLevel)
  }

  /// libdeflate's level of `PNGCompression.small`, the page files of every render before
  /// session 13: level 1, where the library's default (3, `defaultLevel`) is kept for
  /// everything else (tests' goldens, flip frames, APNG). On moby-dick's text pages level 1
  /// runs about half the instructions of level 3 for files 2–3 % larger.
  package static let pageLevel: Int32 = 1

  /// A page file of a render, compressed as `compression` says (`PNGCompression.standard`
  /// unless the user chose). Every path that writes page files (fresh, from the layout
  /// cache, spreads, bench) uses it, so their bytes agree.
  package static func encodePage(
    _ b: PixelBuffer, compression: PNGCompression = .standard
  ) -> [UInt8] {
    PNGEncoder.encode(b, filter: compression.filter, method: compression.method(for: b.format))
  }

  /// Encodes with an explicit row filter and deflate method, for measurement and tests.
  package static func encode(_ b: PixelBuffer, filter: Filter, method: DeflateMethod) -> [UInt8] {
    PNGEncoder.encode(b, filter: filter, method: method)
  }

  /// Encodes with an explicit row filter and libdeflate level (1…12), for measurement.
  package static func encode(_ b: PixelBuffer, filter: Filter, level: Int32) -> [UInt8] {
    PNGEncoder.encode(b, filter: filter, level: level)
  }

  /// Decodes a PNG into gray8 (gray files without alpha) or rgba8 (everything else).
  package static func decode(_ data: Data) throws(RasterError) -> PixelBuffer {
    try decode(data, source: "PNG data")
  }

  static func decode(_ data: Data, source: String) throws(RasterError) -> PixelBuffer {
    var image = png_image()
    image.version = UInt32(PNG_IMAGE_VERSION)
    let began = data.withUnsafeBytes { raw in
      png_image_begin_read_from_memory(&image, raw.baseAddress, raw.count)
    }
    guard began != 0 else {
      let message = imageMessage(&image)
      png_image_free(&image)
      throw .library(
        function: "png_image_begin_read_from_memory", detail: message, source: source)
    }
    let width = Int(image.width)
    let height = Int(image.height)
    do {
      try ImageLimits.check(width: width, height: height, source: source)
    } catch {
      png_image_free(&image)
      throw error
    }
    let flagAlpha: UInt32 = 1
    let flagColor: UInt32 = 2
    let flagLinear: UInt32 = 4
    let format: PixelBuffer.Format =
      (image.format & (flagAlpha | flagColor)) == 0 ? .gray8 : .rgba8
    let channels = format.channels
    let count = width * height * channels
    var pixels: [UInt8]
    let finished: Int32
    if image.format & flagLinear == 0 {
      image.format = format == .gray8 ? 0 : (flagAlpha | flagColor)
      pixels = [UInt8](repeating: 0, count: count)
      finished = pixels.withUnsafeMutableBytes { out in
        png_image_finish_read(&image, nil, out.baseAddress, 0, nil)
      }
    } else {
      // A 16-bit file. Asked for 8-bit output, libpng's simplified API treats 16-bit samples
      // as linear light and gamma-encodes them, lightening every midtone; browsers (and
      // we) read them as sRGB values like 8-bit ones. So take them as 16-bit "linear" (no
      // conversion, alpha premultiplied) and narrow by hand.
      image.format = flagLinear | (format == .gray8 ? 0 : (flagAlpha | flagColor))
      var wide = [UInt16](repeating: 0, count: count)
      finished = wide.withUnsafeMutableBytes { out in
        png_image_finish_read(&image, nil, out.baseAddress, 0, nil)
      }
      pixels = [UInt8](repeating: 0, count: count)
      for i in stride(from: 0, to: count, by: channels) {
        if channels == 4 {
          let a = UInt32(wide[i + 3])
          for k in 0..<3 {
            let c = a == 0 ? 0 : Swift.min(65535, (UInt32(wide[i + k]) * 65535 + a / 2) / a)
            pixels[i + k] = UInt8((c * 255 + 32767) / 65535)
          }
          pixels[i + 3] = UInt8((a * 255 + 32767) / 65535)
        } else {
          pixels[i] = UInt8((UInt32(wide[i]) * 255 + 32767) / 65535)
        }
      }
    }
    guard finished != 0 else {
      let message = imageMessage(&image)
      png_image_free(&image)
      throw .library(function: "png_image_finish_read", detail: message, source: source)
    }
    png_image_free(&image)
    return PixelBuffer(width: width, height: height, format: format, pixels: pixels)
  }

  private static func imageMessage(_ image: inout png_image) -> String {
    withUnsafeBytes(of: &image.message) { raw in
      let bytes = raw.prefix { $0 != 0 }
      return String(decoding: bytes, as: UTF8.self)
    }
  }
}
