// AVIF through libavif (with whichever AV1 codec Debian built it against, dav1d or aom),
// opened with dlopen on first use (Sources/CDecoders): a process that meets no AVIF never
// loads it or its codecs, and a system without it gets `decoderUnavailable` for the image.
//
// Limits are libavif's own: `imageDimensionLimit` and `imageSizeLimit` are set to
// `ImageLimits` before parsing, so a hostile `ispe` is refused inside `avifDecoderParse`
// before any plane is allocated; the size is checked again here before our RGBA buffer.
// The first frame of an image sequence is taken. Then the HEIF transforms, in the order
// MIAF (ISO/IEC 23000-22 §7.3.6.7) fixes: `clap` (clean aperture) crops first, as a view
// of the YUV planes (libavif's `avifImageSetViewRect`, so chroma is not resampled twice);
// a `clap` that libavif cannot turn into whole-pixel crop rectangle fails parsing (its
// default strict mode). YUV → RGB is libavif's (8-bit straight RGBA, any source depth
// scaled down); then `irot` (anticlockwise quarter turns) followed by `imir` (mirror),
// expressed as the equivalent EXIF orientation so one routine turns every format's pixels.

import CDecoders
import Foundation

enum AVIFDecoder {
  static func decode(_ data: Data, source: String) throws(RasterError) -> PixelBuffer {
    if let why = quire_avif_unavailable() {
      throw .decoderUnavailable(library: "AVIF", detail: String(cString: why), source: source)
    }
    guard let decoder = quire_avifDecoderCreate() else {
      throw .library(function: "avifDecoderCreate", detail: "out of memory", source: source)
    }
    defer { quire_avifDecoderDestroy(decoder) }
    decoder.pointee.maxThreads = 1
    decoder.pointee.imageDimensionLimit = UInt32(ImageLimits.maxSide)
    decoder.pointee.imageSizeLimit = UInt32(ImageLimits.maxPixels)
    decoder.pointee.ignoreExif = AVIF_TRUE
    decoder.pointee.ignoreXMP = AVIF_TRUE
    return try [UInt8](data).withUnsafeBufferPointer { (raw) throws(RasterError) -> PixelBuffer in
      let check = Check(source: source)
      try check(
        quire_avifDecoderSetIOMemory(decoder, raw.baseAddress, raw.count), "avifDecoderSetIOMemory")
      try check(quire_avifDecoderParse(decoder), "avifDecoderParse")
      let image = decoder.pointee.image!
      try ImageLimits.check(
        width: Int(image.pointee.width), height: Int(image.pointee.height), source: source)
      try check(quire_avifDecoderNextImage(decoder), "avifDecoderNextImage")
      let frame = decoder.pointee.image!
      let pixels = try cropped(frame, check: check) { (visible) throws(RasterError) in
        try rgba(visible, check: check)
      }
      return pixels.oriented(orientation(frame.pointee))
    }
  }

  /// Throws libavif's message for a result other than OK.
  private struct Check {
    let source: String
    func callAsFunction(_ result: avifResult, _ function: String) throws(RasterError) {
      guard result == AVIF_RESULT_OK else {
        let message = String(cString: quire_avifResultToString(result))
        throw .library(function: function, detail: message, source: source)
      }
    }
  }

  /// Calls `body` with the image's clean aperture: the image itself without `clap`, else a
  /// view of its planes cropped to the rectangle the box converts to.
  private static func cropped(
    _ image: UnsafeMutablePointer<avifImage>, check: Check,
    _ body: (UnsafeMutablePointer<avifImage>) throws(RasterError) -> PixelBuffer
  ) throws(RasterError) -> PixelBuffer {
    guard image.pointee.transformFlags & AVIF_TRANSFORM_CLAP.rawValue != 0 else {
      return try body(image)
    }
    var rect = avifCropRect()
    var diagnostics = avifDiagnostics()
    guard
      quire_avifCropRectConvertCleanApertureBox(
        &rect, &image.pointee.clap, image.pointee.width, image.pointee.height,
        image.pointee.yuvFormat, &diagnostics) == AVIF_TRUE
    else {
      throw .library(
        function: "avifCropRectConvertCleanApertureBox", detail: "invalid clean aperture",
        source: check.source)
    }
    guard let view = quire_avifImageCreateEmpty() else {
      throw .library(
        function: "avifImageCreateEmpty", detail: "out of memory", source: check.source)
    }
    defer { quire_avifImageDestroy(view) }
    try check(quire_avifImageSetViewRect(view, image, &rect), "avifImageSetViewRect")
    return try body(view)
  }

  /// The image's pixels as straight 8-bit RGBA.
  private static func rgba(
    _ image: UnsafeMutablePointer<avifImage>, check: Check
  ) throws(RasterError) -> PixelBuffer {
    let width = Int(image.pointee.width)
    let height = Int(image.pointee.height)
    try ImageLimits.check(width: width, height: height, source: check.source)
    var pixels = [UInt8](repeating: 0, count: width * height * 4)
    var rgb = avifRGBImage()
    quire_avifRGBImageSetDefaults(&rgb, image)
    rgb.format = AVIF_RGB_FORMAT_RGBA
    rgb.depth = 8
    rgb.alphaPremultiplied = AVIF_FALSE
    rgb.rowBytes = UInt32(width * 4)
    let converted = pixels.withUnsafeMutableBufferPointer { px in
      rgb.pixels = px.baseAddress
      return quire_avifImageYUVToRGB(image, &rgb)
    }
    try check(converted, "avifImageYUVToRGB")
    return PixelBuffer(width: width, height: height, format: .rgba8, pixels: pixels)
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
