// GIF: the first frame, through giflib's record-level API.
//
// A book shows a GIF as a still, so only the first image matters, composited as browsers do
// before any animation starts: on a transparent canvas of the logical screen's size, at the
// frame's offset, with the graphic control extension's transparent index punched out.
// `DGifSlurp` would read every frame and allocate each at its claimed size before we could
// check it; reading records one at a time lets the screen and the frame be checked against
// `ImageLimits` first, and the frame is read row by row into one row buffer.
//
// Bytes reach giflib through its input callback from a `GIFInput` cursor over our `Data`
// (never past its end), passed as the file's user pointer.

import CGIF
import Foundation

/// The bytes giflib reads, and how far it has read.
private final class GIFInput {
  let bytes: [UInt8]
  var offset = 0
  init(_ data: Data) { bytes = [UInt8](data) }
}

enum GIFDecoder {
  static func decode(_ data: Data, source: String) throws(RasterError) -> PixelBuffer {
    let input = GIFInput(data)
    var error: Int32 = 0
    let opened = withExtendedLifetime(input) {
      DGifOpen(Unmanaged.passUnretained(input).toOpaque(), readGIF, &error)
    }
    guard let gif = opened else { throw failure("DGifOpen", error, source) }
    defer {
      var closeError: Int32 = 0
      _ = DGifCloseFile(gif, &closeError)
    }
    return try withExtendedLifetime(input) { () throws(RasterError) -> PixelBuffer in
      let width = Int(gif.pointee.SWidth)
      let height = Int(gif.pointee.SHeight)
      try ImageLimits.check(width: width, height: height, source: source)
      var transparent = -1
      for _ in 0..<100_000 {
        var record = UNDEFINED_RECORD_TYPE
        guard DGifGetRecordType(gif, &record) == GIF_OK else {
          throw failure("DGifGetRecordType", gif.pointee.Error, source)
        }
        switch record {
        case EXTENSION_RECORD_TYPE:
          transparent = try readExtension(gif, source: source) ?? transparent
        case IMAGE_DESC_RECORD_TYPE:
          var canvas = [UInt8](repeating: 0, count: width * height * 4)
          try readFrame(gif, transparent: transparent, into: &canvas, width: width, source: source)
          return PixelBuffer(width: width, height: height, format: .rgba8, pixels: canvas)
        default:
          throw .library(
            function: "DGifGetRecordType", detail: "no image in the file", source: source)
        }
      }
      throw .library(function: "DGifGetRecordType", detail: "too many extensions", source: source)
    }
  }

  /// Reads one extension block; the transparent index when it is a graphic control
  /// extension that names one.
  private static func readExtension(_ gif: UnsafeMutablePointer<GifFileType>, source: String)
    throws(RasterError) -> Int?
  {
    var code: Int32 = 0
    var block: UnsafeMutablePointer<GifByteType>?
    guard DGifGetExtension(gif, &code, &block) == GIF_OK else {
      throw failure("DGifGetExtension", gif.pointee.Error, source)
    }
    var transparent: Int?
    if code == GRAPHICS_EXT_FUNC_CODE, let b = block, b[0] >= 4 {
      var gcb = GraphicsControlBlock()
      if DGifExtensionToGCB(Int(b[0]), b + 1, &gcb) == GIF_OK,
        gcb.TransparentColor != NO_TRANSPARENT_COLOR
      {
        transparent = Int(gcb.TransparentColor)
      }
    }
    var blocks = 0
    while block != nil {
      blocks += 1
      guard blocks < 1_000_000, DGifGetExtensionNext(gif, &block) == GIF_OK else {
        throw failure("DGifGetExtensionNext", gif.pointee.Error, source)
      }
    }
    return transparent
  }

  /// Reads the first frame's rows (in interlaced order when it is interlaced) and paints the
  /// part inside the canvas.
  private static func readFrame(
    _ gif: UnsafeMutablePointer<GifFileType>, transparent: Int, into canvas: inout [UInt8],
    width: Int, source: String
  ) throws(RasterError) {
    guard DGifGetImageDesc(gif) == GIF_OK else {
      throw failure("DGifGetImageDesc", gif.pointee.Error, source)
    }
    let desc = gif.pointee.Image
    let fw = Int(desc.Width)
    let fh = Int(desc.Height)
    try ImageLimits.check(width: fw, height: fh, source: source)
    guard let map = desc.ColorMap ?? gif.pointee.SColorMap, let colors = map.pointee.Colors else {
      throw .library(function: "DGifGetImageDesc", detail: "no colour map", source: source)
    }
    let colorCount = Int(map.pointee.ColorCount)
    let height = canvas.count / (4 * width)
    var order: [Int] = []
    if desc.Interlace {
      for (start, step) in [(0, 8), (4, 8), (2, 4), (1, 2)] {
        order += stride(from: start, to: fh, by: step)
      }
    } else {
      order = Array(0..<fh)
    }
    var row = [GifPixelType](repeating: 0, count: fw)
    for y in order {
      guard DGifGetLine(gif, &row, Int32(fw)) == GIF_OK else {
        throw failure("DGifGetLine", gif.pointee.Error, source)
      }
      let cy = Int(desc.Top) + y
      guard cy < height else { continue }
      for x in 0..<fw {
        let cx = Int(desc.Left) + x
        let index = Int(row[x])
        guard cx < width, index != transparent, index < colorCount else { continue }
        let c = colors[index]
        let o = 4 * (cy * width + cx)
        canvas[o] = c.Red
        canvas[o + 1] = c.Green
        canvas[o + 2] = c.Blue
        canvas[o + 3] = 255
      }
    }
  }

  private static func failure(_ function: String, _ code: Int32, _ source: String) -> RasterError {
    let message = GifErrorString(code).map { String(cString: $0) } ?? "error \(code)"
    return .library(function: function, detail: message, source: source)
  }
}

/// giflib's input callback: copies up to `length` bytes from the `GIFInput` cursor.
private func readGIF(
  _ gif: UnsafeMutablePointer<GifFileType>?, _ buffer: UnsafeMutablePointer<GifByteType>?,
  _ length: Int32
) -> Int32 {
  guard let gif, let buffer, length > 0, let user = gif.pointee.UserData else { return 0 }
  let input = Unmanaged<GIFInput>.fromOpaque(user).takeUnretainedValue()
  let n = min(Int(length), input.bytes.count - input.offset)
  guard n > 0 else { return 0 }
  input.bytes.withUnsafeBufferPointer { src in
    buffer.update(from: src.baseAddress! + input.offset, count: n)
  }
  input.offset += n
  return Int32(n)
}
