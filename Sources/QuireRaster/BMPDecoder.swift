// BMP, written by hand. Debian 12 packages no small BMP library: stb_image (libstb-dev)
// reads neither RLE4 nor RLE8, and the libraries that read everything (ImageMagick,
// GraphicsMagick, gdk-pixbuf) are whole imaging frameworks for a format that is a header,
// an optional palette and rows. What is read:
//
// - headers: OS/2 BITMAPCOREHEADER (12 bytes, 3-byte palette entries) and BITMAPINFOHEADER
//   and its V2–V5 extensions (40–124 bytes, 4-byte palette entries);
// - 1, 4 and 8 bits per pixel through the palette; 16, 24 and 32 bits direct;
// - BI_RGB, BI_RLE8, BI_RLE4, BI_BITFIELDS and BI_ALPHABITFIELDS (masks of any width);
// - bottom-up rows (positive height) and top-down rows (negative height, uncompressed only).
//
// Alpha comes from an explicit alpha mask (BITFIELDS), or, in a 32-bit BI_RGB image, from
// the fourth byte when any pixel's is non-zero (Chromium's and Firefox's rule: otherwise it
// is padding). Pixels an RLE stream skips (delta, early end
// of line or bitmap) stay transparent, as browsers leave them. Embedded JPEG/PNG (BI_JPEG,
// BI_PNG) is refused as unsupported.
//
// Every read goes through `BMPBytes`, which answers 0 past the end, and the row and RLE
// loops are bounded by the pixel count, so a lying header costs at most the size check and
// one pass over the data. The size is checked against `ImageLimits` before the canvas exists.

import Foundation

/// Bounds-checked little-endian reads; 0 past the end.
private struct BMPBytes {
  let bytes: [UInt8]
  subscript(_ i: Int) -> UInt8 { i >= 0 && i < bytes.count ? bytes[i] : 0 }
  func u16(_ i: Int) -> Int { Int(self[i]) | Int(self[i + 1]) << 8 }
  func u32(_ i: Int) -> Int { u16(i) | u16(i + 2) << 16 }
  func i32(_ i: Int) -> Int { Int(Int32(truncatingIfNeeded: u32(i))) }
}

/// What the headers say about the pixels.
private struct BMPLayout {
  var width = 0
  var height = 0
  var topDown = false
  var bitsPerPixel = 0
  var compression = 0
  var dataOffset = 0
  /// Straight RGBA per palette index.
  var palette: [[UInt8]] = []
  /// Red, green, blue, alpha masks for 16/32-bit pixels (alpha 0 = opaque).
  var masks: [UInt32] = [0, 0, 0, 0]
}

enum BMPDecoder {
  static func decode(_ data: Data, source: String) throws(RasterError) -> PixelBuffer {
    let b = BMPBytes(bytes: [UInt8](data))
    let layout = try readLayout(b, source: source)
    var canvas = [UInt8](repeating: 0, count: layout.width * layout.height * 4)
    switch layout.compression {
    case 1, 2: try readRLE(b, layout, into: &canvas, source: source)
    default: try readRows(b, layout, into: &canvas, source: source)
    }
    return PixelBuffer(width: layout.width, height: layout.height, format: .rgba8, pixels: canvas)
  }

  private static func readLayout(_ b: BMPBytes, source: String) throws(RasterError) -> BMPLayout {
    func bad(_ detail: String) -> RasterError {
      .library(function: "BMP header", detail: detail, source: source)
    }
    var l = BMPLayout()
    let dib = b.u32(14)
    l.dataOffset = b.u32(10)
    let entry: Int
    if dib == 12 {
      (l.width, l.height, l.bitsPerPixel, entry) = (b.u16(18), b.u16(20), b.u16(24), 3)
    } else if dib >= 40 && dib <= 1024 {
      let h = b.i32(22)
      (l.width, l.height, l.topDown) = (b.i32(18), abs(h), h < 0)
      (l.bitsPerPixel, l.compression, entry) = (b.u16(28), b.u32(30), 4)
    } else {
      throw bad("unknown header size \(dib)")
    }
    guard b.bytes.count >= 14 + dib else { throw bad("truncated header") }
    try ImageLimits.check(width: l.width, height: l.height, source: source)
    guard [1, 4, 8, 16, 24, 32].contains(l.bitsPerPixel) else {
      throw bad("\(l.bitsPerPixel) bits per pixel")
    }
    let allowed: Bool
    switch l.compression {
    case 0: allowed = true
    case 1: allowed = l.bitsPerPixel == 8 && !l.topDown
    case 2: allowed = l.bitsPerPixel == 4 && !l.topDown
    case 3, 6: allowed = l.bitsPerPixel == 16 || l.bitsPerPixel == 32
    default: allowed = false
    }
    guard allowed else {
      if l.compression == 4 || l.compression == 5 { throw .unsupportedFormat(source: source) }
      throw bad("compression \(l.compression) with \(l.bitsPerPixel) bits per pixel")
    }
    var tableStart = 14 + dib
    l.masks = defaultMasks(l.bitsPerPixel)
    if l.compression == 3 || l.compression == 6 {
      let maskCount = l.compression == 6 || dib >= 56 ? 4 : 3
      let at = dib >= 52 ? 54 : tableStart
      for k in 0..<maskCount { l.masks[k] = UInt32(b.u32(at + 4 * k)) }
      if dib < 52 { tableStart += 4 * maskCount }
    }
    if l.bitsPerPixel <= 8 {
      let used = dib == 12 ? 0 : b.u32(46)
      let count = used == 0 ? 1 << l.bitsPerPixel : min(used, 1 << l.bitsPerPixel)
      l.palette = (0..<count).map { i in
        let p = tableStart + entry * i
        return [b[p + 2], b[p + 1], b[p], 255]
      }
    }
    return l
  }

  private static func defaultMasks(_ bits: Int) -> [UInt32] {
    switch bits {
    case 16: return [0x7C00, 0x03E0, 0x001F, 0]
    case 24, 32: return [0xFF_0000, 0x00_FF00, 0x00_00FF, 0]
    default: return [0, 0, 0, 0]
    }
  }

  /// Uncompressed and BITFIELDS rows, each padded to 4 bytes.
  private static func readRows(
    _ b: BMPBytes, _ l: BMPLayout, into canvas: inout [UInt8], source: String
  ) throws(RasterError) {
    let stride = (l.width * l.bitsPerPixel + 31) / 32 * 4
    guard l.dataOffset >= 14, l.dataOffset + stride * l.height <= b.bytes.count else {
      throw .library(function: "BMP rows", detail: "truncated pixel data", source: source)
    }
    var masks = l.masks
    if l.bitsPerPixel == 32, l.compression == 0, hasAlphaBytes(b, l, stride: stride) {
      masks[3] = 0xFF00_0000
    }
    let channels = masks.map(MaskChannel.init)
    for row in 0..<l.height {
      let y = l.topDown ? row : l.height - 1 - row
      let start = l.dataOffset + row * stride
      for x in 0..<l.width {
        let o = 4 * (y * l.width + x)
        if l.bitsPerPixel <= 8 {
          let bit = x * l.bitsPerPixel
          let byte = Int(b[start + bit / 8])
          let index = (byte >> (8 - l.bitsPerPixel - bit % 8)) & ((1 << l.bitsPerPixel) - 1)
          paint(&canvas, o, index < l.palette.count ? l.palette[index] : [0, 0, 0, 255])
        } else if l.bitsPerPixel == 24 {
          let p = start + 3 * x
          paint(&canvas, o, [b[p + 2], b[p + 1], b[p], 255])
        } else {
          let p = start + x * l.bitsPerPixel / 8
          let v = UInt32(l.bitsPerPixel == 16 ? b.u16(p) : b.u32(p))
          paint(&canvas, o, channels.map { $0.value(v) })
        }
      }
    }
  }

  /// Whether any fourth byte of a 32-bit BI_RGB image is non-zero: then it is alpha (as
  /// browsers read it: writers such as Pillow store RGBA that way), else padding.
  private static func hasAlphaBytes(_ b: BMPBytes, _ l: BMPLayout, stride: Int) -> Bool {
    for row in 0..<l.height {
      let start = l.dataOffset + row * stride
      for x in 0..<l.width where b[start + 4 * x + 3] != 0 { return true }
    }
    return false
  }

  private static func paint(_ canvas: inout [UInt8], _ o: Int, _ rgba: [UInt8]) {
    for k in 0..<4 { canvas[o + k] = rgba[k] }
  }

  /// RLE8/RLE4: runs and literal spans of palette indexes, bottom-up, with end-of-line,
  /// end-of-bitmap and delta escapes.
  private static func readRLE(
    _ b: BMPBytes, _ l: BMPLayout, into canvas: inout [UInt8], source: String
  ) throws(RasterError) {
    let four = l.compression == 2
    var i = l.dataOffset
    var x = 0
    var row = 0
    func put(_ index: Int) {
      guard x < l.width, row < l.height else { return }
      let o = 4 * ((l.height - 1 - row) * l.width + x)
      paint(&canvas, o, index < l.palette.count ? l.palette[index] : [0, 0, 0, 255])
      x += 1
    }
    // Each step consumes at least two bytes, so the data's length bounds the loop.
    while i + 1 < b.bytes.count, row < l.height {
      let count = Int(b[i])
      let value = Int(b[i + 1])
      i += 2
      if count > 0 {
        for k in 0..<min(count, l.width - min(x, l.width)) {
          put(four ? (k % 2 == 0 ? value >> 4 : value & 15) : value)
        }
        continue
      }
      switch value {
      case 0: (x, row) = (0, row + 1)
      case 1: return
      case 2:
        x += Int(b[i])
        row += Int(b[i + 1])
        i += 2
      default:
        let bytes = four ? (value + 1) / 2 : value
        for k in 0..<value {
          let byte = Int(b[i + (four ? k / 2 : k)])
          put(four ? (k % 2 == 0 ? byte >> 4 : byte & 15) : byte)
        }
        i += bytes + bytes % 2
      }
    }
    if i + 1 >= b.bytes.count, row < l.height {
      throw .library(function: "BMP RLE", detail: "truncated pixel data", source: source)
    }
  }
}

/// One colour channel of a 16/32-bit pixel: where its mask sits and how wide it is.
private struct MaskChannel {
  let shift: UInt32
  let maximum: UInt32
  let mask: UInt32
  init(_ mask: UInt32) {
    self.mask = mask
    shift = mask == 0 ? 0 : UInt32(mask.trailingZeroBitCount)
    maximum = mask == 0 ? 0 : mask >> shift
  }
  /// The channel scaled to 0…255 (rounded); 255 for an absent (alpha) mask.
  func value(_ pixel: UInt32) -> UInt8 {
    guard maximum > 0 else { return 255 }
    let v = UInt64((pixel & mask) >> shift)
    return UInt8((v * 255 + UInt64(maximum) / 2) / UInt64(maximum))
  }
}
