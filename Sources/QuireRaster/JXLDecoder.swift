// JPEG XL through libjxl's event decoder, single-threaded (no parallel runner: pages are
// already rendered on several threads). libjxl is opened with dlopen on first use
// (Sources/CDecoders); without it the image gets `decoderUnavailable`.
//
// The basic-info event comes before any pixel is decoded: the size is checked against
// `ImageLimits` there, and only then is an output buffer handed over, sized by
// `JxlDecoderImageOutBufferSize`. libjxl applies the header's orientation itself (we never
// ask it to keep the stored orientation), so the buffer's size is the displayed size,
// width and height swapped for orientations 5–8. The first frame is taken; output is 8-bit
// straight RGBA in sRGB (libjxl's default for XYB-coded images; other images come out in
// their own colour space, which we take to be sRGB like every image here).

import CDecoders
import Foundation

enum JXLDecoder {
  static func decode(_ data: Data, source: String) throws(RasterError) -> PixelBuffer {
    if let why = quire_jxl_unavailable() {
      throw .decoderUnavailable(library: "JPEG XL", detail: String(cString: why), source: source)
    }
    guard let decoder = quire_JxlDecoderCreate() else {
      throw .library(function: "JxlDecoderCreate", detail: "out of memory", source: source)
    }
    defer { quire_JxlDecoderDestroy(decoder) }
    func fail(_ function: String, _ detail: String) -> RasterError {
      .library(function: function, detail: detail, source: source)
    }
    let events = Int32(JXL_DEC_BASIC_INFO.rawValue | JXL_DEC_FULL_IMAGE.rawValue)
    guard quire_JxlDecoderSubscribeEvents(decoder, events) == JXL_DEC_SUCCESS else {
      throw fail("JxlDecoderSubscribeEvents", "refused")
    }
    let bytes = [UInt8](data)
    var format = JxlPixelFormat(
      num_channels: 4, data_type: JXL_TYPE_UINT8, endianness: JXL_NATIVE_ENDIAN, align: 0)
    // libjxl keeps the output pointer between calls, so the buffer is one we own outright
    // (an array's storage may not escape its closure); it is copied out at the end.
    var output: UnsafeMutableRawBufferPointer?
    defer { output?.deallocate() }
    var size = (width: 0, height: 0)
    return try bytes.withUnsafeBufferPointer { (input) throws(RasterError) -> PixelBuffer in
      guard quire_JxlDecoderSetInput(decoder, input.baseAddress, input.count) == JXL_DEC_SUCCESS
      else {
        throw fail("JxlDecoderSetInput", "refused")
      }
      quire_JxlDecoderCloseInput(decoder)
      // Each event consumes input or finishes, so this ends; the bound is a backstop.
      for _ in 0..<64 {
        switch quire_JxlDecoderProcessInput(decoder) {
        case JXL_DEC_BASIC_INFO:
          var info = JxlBasicInfo()
          guard quire_JxlDecoderGetBasicInfo(decoder, &info) == JXL_DEC_SUCCESS else {
            throw fail("JxlDecoderGetBasicInfo", "no basic info")
          }
          let turned = info.orientation.rawValue >= JXL_ORIENT_TRANSPOSE.rawValue
          size = turned ? (Int(info.ysize), Int(info.xsize)) : (Int(info.xsize), Int(info.ysize))
          try ImageLimits.check(width: size.width, height: size.height, source: source)
        case JXL_DEC_NEED_IMAGE_OUT_BUFFER:
          var needed = 0
          guard quire_JxlDecoderImageOutBufferSize(decoder, &format, &needed) == JXL_DEC_SUCCESS,
            needed == size.width * size.height * 4
          else { throw fail("JxlDecoderImageOutBufferSize", "unexpected buffer size") }
          guard output == nil else { throw fail("JxlDecoderProcessInput", "second output buffer") }
          let out = UnsafeMutableRawBufferPointer.allocate(byteCount: needed, alignment: 16)
          out.initializeMemory(as: UInt8.self, repeating: 0)
          output = out
          let set = quire_JxlDecoderSetImageOutBuffer(decoder, &format, out.baseAddress, needed)
          guard set == JXL_DEC_SUCCESS else { throw fail("JxlDecoderSetImageOutBuffer", "refused") }
        case JXL_DEC_FULL_IMAGE:
          guard let output else { throw fail("JxlDecoderProcessInput", "no output buffer") }
          return PixelBuffer(
            width: size.width, height: size.height, format: .rgba8, pixels: [UInt8](output))
        case JXL_DEC_NEED_MORE_INPUT:
          throw fail("JxlDecoderProcessInput", "truncated data")
        case JXL_DEC_SUCCESS:
          throw fail("JxlDecoderProcessInput", "no image in the file")
        default:
          throw fail("JxlDecoderProcessInput", "corrupt data")
        }
      }
      throw fail("JxlDecoderProcessInput", "too many events")
    }
  }
}
