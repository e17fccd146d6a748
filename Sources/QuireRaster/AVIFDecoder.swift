// AVIF through libavif (with whichever AV1 codec Debian built it against, dav1d or aom).
//
// Limits are libavif's own: `imageDimensionLimit` and `imageSizeLimit` are set to
// `ImageLimits` before parsing, so a hostile `ispe` is refused inside `avifDecoderParse`
// before any plane is allocated; the size is checked again here before our RGBA buffer.
// The first frame of an image sequence is taken. YUV → RGB is libavif's (8-bit straight
// RGBA, any source depth scaled down), then the HEIF transforms browsers honour: `irot`
// (anticlockwise quarter turns) followed by `imir` (mirror), expressed as the equivalent
// EXIF orientation so one routine turns every format's pixels. `clap` (clean aperture
// cropping) is not applied: encoders practically never write it.

import CAVIF
import Foundation

enum AVIFDecoder {
  static func decode(_ data: Data, source: String) throws(RasterError) -> PixelBuffer {
    guard let decoder = avifDecoderCreate() else {
      throw .library(function: "avifDecoderCreate", detail: "out of memory", source: source)
    }
    defer { avifDecoderDestroy(decoder) }
    decoder.pointee.maxThreads = 1
    decoder.pointee.imageDimensionLimit = UInt32(ImageLimits.maxSide)
    decoder.pointee.imageSizeLimit = UInt32(ImageLimits.maxPixels)
    decoder.pointee.ignoreExif = AVIF_TRUE
    decoder.pointee.ignoreXMP = AVIF_TRUE
    return try [UInt8](data).withUnsafeBufferPointer { (raw) throws(RasterError) -> PixelBuffer in
      func check(_ result: avifResult, _ function: String) throws(RasterError) {
        guard result == AVIF_RESULT_OK else {
          let message = String(cString: avifResultToString(result))
          throw .library(function: function, detail: message, source: source)
        }
      }
      try check(
        avifDecoderSetIOMemory(decoder, raw.baseAddress, raw.count), "avifDecoderSetIOMemory")
      try check(avifDecoderParse(decoder), "avifDecoderParse")
      let image = decoder.pointee.image!
      let width = Int(image.pointee.width)
      let height = Int(image.pointee.height)
      try ImageLimits.check(width: width, height: height, source: source)
      try check(avifDecoderNextImage(decoder), "avifDecoderNextImage")
      var pixels = [UInt8](repeating: 0, count: width * height * 4)
      var rgb = avifRGBImage()
      avifRGBImageSetDefaults(&rgb, decoder.pointee.image)
      rgb.format = AVIF_RGB_FORMAT_RGBA
      rgb.depth = 8
      rgb.alphaPremultiplied = AVIF_FALSE
      rgb.rowBytes = UInt32(width * 4)
      guard Int(rgb.width) == width, Int(rgb.height) == height else {
        throw .library(
          function: "avifDecoderNextImage", detail: "frame size changed", source: source)
      }
      let converted = pixels.withUnsafeMutableBufferPointer { px in
        rgb.pixels = px.baseAddress
        return avifImageYUVToRGB(decoder.pointee.image, &rgb)
      }
      try check(converted, "avifImageYUVToRGB")
      return PixelBuffer(width: width, height: height, format: .rgba8, pixels: pixels)
        .oriented(orientation(decoder.pointee.image.pointee))
    }
  }

  /// `irot` then `imir` as the EXIF orientation that does the same.
  static func orientation(_ image: avifImage) -> ExifOrientation {
    let flags = image.transformFlags
    let angle = flags & AVIF_TRANSFORM_IROT.rawValue != 0 ? Int(image.irot.angle & 3) : 0
    let mirror = flags & AVIF_TRANSFORM_IMIR.rawValue != 0 ? Int(image.imir.mode & 1) : -1
    // Rows: angle 0…3 (anticlockwise quarter turns); columns: no mirror, top↔bottom (mode 0),
    // left↔right (mode 1).
    let table = [[1, 4, 2], [8, 5, 7], [3, 2, 4], [6, 7, 5]]
    return ExifOrientation(value: table[angle][mirror + 1])
  }
}
