// Intrinsic image sizes from headers, without decoding: the typesetter needs two numbers per
// image long before (and far more often than) the rasterizer needs pixels, and linking the
// codecs into the typesetter would drag pixels into a stage that must not touch them.
//
// The size is the *displayed* size: a JPEG whose EXIF orientation turns it (5–8), a JPEG XL
// whose header orientation turns it, an AVIF with a 90°/270° `irot`, report width and height
// swapped (an AVIF's after its `clap` crop), as browsers do (`image-orientation: from-image`, the CSS default) and as the
// decoders here return pixels.
//
// Every read is bounded by the data's length; box and marker walks stop after a fixed
// number of steps, so a hostile file costs at most a linear scan of its first megabyte.

import Foundation

/// Intrinsic (displayed) sizes of every format `ImageFormat` sniffs except SVG.
public enum ImageHeader {
  /// Width and height in image pixels as displayed; nil when the header is unreadable.
  public static func size(of data: Data) -> (width: Int, height: Int)? {
    guard let format = ImageFormat.sniff(data) else { return nil }
    let b = ByteReader([UInt8](data.prefix(1 << 20)))
    let size: (width: Int, height: Int)?
    switch format {
    case .png: size = (b.be32(16), b.be32(20))
    case .gif: size = (b.le16(6), b.le16(8))
    case .jpeg: size = jpegSize(b)
    case .webp: size = webpSize(b)
    case .bmp: size = bmpSize(b)
    case .avif: size = avifSize(b)
    case .jxl: size = jxlSize(b)
    case .svg: size = nil
    }
    guard let s = size, s.width > 0, s.height > 0 else { return nil }
    return s
  }

  static func jpegSize(_ b: ByteReader) -> (width: Int, height: Int)? {
    var i = 2
    var steps = 0
    while i + 9 < b.count, steps < 10_000 {
      steps += 1
      guard b[i] == 0xFF else {
        i += 1
        continue
      }
      let marker = b[i + 1]
      if marker == 0xFF {
        i += 1
        continue
      }
      if marker == 0xD8 || marker == 0x01 || (0xD0...0xD7).contains(marker) {
        i += 2
        continue
      }
      let len = b.be16(i + 2)
      if (0xC0...0xCF).contains(marker), marker != 0xC4, marker != 0xC8, marker != 0xCC {
        let h = b.be16(i + 5)
        let w = b.be16(i + 7)
        let turned = ExifOrientation.of(jpeg: b.bytes).swapsAxes
        return turned ? (h, w) : (w, h)
      }
      if len < 2 { return nil }
      i += 2 + len
    }
    return nil
  }

  static func webpSize(_ b: ByteReader) -> (width: Int, height: Int)? {
    switch String(decoding: b.slice(12, 4), as: UTF8.self) {
    case "VP8 ":
      guard b[23] == 0x9D, b[24] == 0x01, b[25] == 0x2A else { return nil }
      return (b.le16(26) & 0x3FFF, b.le16(28) & 0x3FFF)
    case "VP8L":
      guard b[20] == 0x2F else { return nil }
      let bits = b.le32(21)
      return ((bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1)
    case "VP8X":
      return (b.le24(24) + 1, b.le24(27) + 1)
    default: return nil
    }
  }

  static func bmpSize(_ b: ByteReader) -> (width: Int, height: Int)? {
    let dib = b.le32(14)
    if dib == 12 { return (b.le16(18), b.le16(20)) }
    guard dib >= 40 else { return nil }
    let w = Int(Int32(truncatingIfNeeded: b.le32(18)))
    let h = Int(Int32(truncatingIfNeeded: b.le32(22)))
    guard w > 0, h != Int(Int32.min) else { return nil }
    return (w, abs(h))
  }

  /// The largest `ispe` (the primary image; grid tiles and alpha planes are never larger),
  /// cropped to a `clap` (clean aperture) of whole pixels within it, turned by `irot` 1 or 3.
  static func avifSize(_ b: ByteReader) -> (width: Int, height: Int)? {
    var best: (width: Int, height: Int)?
    var aperture: (width: Int, height: Int)?
    var turned = false
    var steps = 0
    // Boxes whose payload is more boxes (meta is a full box: 4 bytes of version and flags).
    let containers: [String: Int] = ["meta": 4, "iprp": 0, "ipco": 0]
    var stack: [(start: Int, end: Int)] = [(0, b.count)]
    while let range = stack.popLast() {
      var i = range.start
      while i + 8 <= range.end, steps < 10_000 {
        steps += 1
        var size = b.be32(i)
        var header = 8
        if size == 1 {
          size = b.be32(i + 8) << 32 | b.be32(i + 12)
          header = 16
        } else if size == 0 {
          size = range.end - i
        }
        guard size >= header, i + size <= range.end else { break }
        let type = String(decoding: b.slice(i + 4, 4), as: UTF8.self)
        if let skip = containers[type] {
          stack.append((i + header + skip, i + size))
        } else if type == "ispe", size >= header + 12 {
          let w = b.be32(i + header + 4)
          let h = b.be32(i + header + 8)
          if w * h > (best.map { $0.width * $0.height } ?? 0) { best = (w, h) }
        } else if type == "irot", size >= header + 1 {
          turned = b[i + header] & 1 == 1
        } else if type == "clap", size >= header + 16 {
          aperture = cleanAperture(b, i + header)
        }
        i += size
      }
    }
    guard var best else { return nil }
    if let aperture, aperture.width <= best.width, aperture.height <= best.height {
      best = aperture
    }
    return turned ? (best.height, best.width) : best
  }

  /// A `clap` box's width and height (ISO/IEC 14496-12 §12.1.4: numerator/denominator
  /// pairs) when both are whole positive numbers, as libavif requires to crop.
  static func cleanAperture(_ b: ByteReader, _ at: Int) -> (width: Int, height: Int)? {
    let (wn, wd, hn, hd) = (b.be32(at), b.be32(at + 4), b.be32(at + 8), b.be32(at + 12))
    guard wn > 0, wd > 0, hn > 0, hd > 0, wn % wd == 0, hn % hd == 0 else { return nil }
    return (wn / wd, hn / hd)
  }

  /// The codestream's SizeHeader (ISO/IEC 18181-1 §D.2) and the orientation of its
  /// ImageMetadata, from a bare codestream or the first `jxlc`/`jxlp` box of a container.
  static func jxlSize(_ b: ByteReader) -> (width: Int, height: Int)? {
    var start = 0
    if b[0] == 0xFF, b[1] == 0x0A {
      start = 2
    } else {
      var i = 0
      var steps = 0
      while i + 8 <= b.count, steps < 1_000 {
        steps += 1
        let size = b.be32(i)
        let type = String(decoding: b.slice(i + 4, 4), as: UTF8.self)
        if type == "jxlc" { start = i + 8 + 2 }
        if type == "jxlp" { start = i + 12 + 2 }
        if start > 0 || size < 8 { break }
        i += size
      }
      guard start > 0, b[start - 2] == 0xFF, b[start - 1] == 0x0A else { return nil }
    }
    var bits = BitReader(b, byteOffset: start)
    func u32(_ widths: [Int]) -> Int { 1 + bits.read(widths[bits.read(2)]) }
    let small = bits.read(1) == 1
    let height = small ? (bits.read(5) + 1) * 8 : u32([9, 13, 18, 30])
    let ratio = bits.read(3)
    let ratios = [(1, 1), (1, 1), (12, 10), (4, 3), (3, 2), (16, 9), (5, 4), (2, 1)]
    let width: Int
    if ratio == 0 {
      width = small ? (bits.read(5) + 1) * 8 : u32([9, 13, 18, 30])
    } else {
      width = height * ratios[ratio].0 / ratios[ratio].1
    }
    // ImageMetadata: all_default, extra_fields, orientation − 1 in 3 bits.
    var orientation = 1
    if bits.read(1) == 0, bits.read(1) == 1 { orientation = 1 + bits.read(3) }
    guard !bits.overran else { return nil }
    return orientation >= 5 ? (height, width) : (width, height)
  }
}

/// Bounds-checked reads from the first bytes of a file: out of range reads give 0.
struct ByteReader {
  let bytes: [UInt8]
  init(_ bytes: [UInt8]) { self.bytes = bytes }
  var count: Int { bytes.count }
  subscript(_ i: Int) -> UInt8 { i >= 0 && i < bytes.count ? bytes[i] : 0 }
  func be16(_ i: Int) -> Int { Int(self[i]) << 8 | Int(self[i + 1]) }
  func be32(_ i: Int) -> Int { be16(i) << 16 | be16(i + 2) }
  func le16(_ i: Int) -> Int { Int(self[i]) | Int(self[i + 1]) << 8 }
  func le24(_ i: Int) -> Int { le16(i) | Int(self[i + 2]) << 16 }
  func le32(_ i: Int) -> Int { le16(i) | le16(i + 2) << 16 }
  func slice(_ i: Int, _ n: Int) -> [UInt8] { (0..<n).map { self[i + $0] } }
}

/// Least-significant-bit-first bit reads (JPEG XL's order); reads past the end give zeros
/// and set `overran`.
struct BitReader {
  let bytes: ByteReader
  var position: Int
  var overran = false
  init(_ bytes: ByteReader, byteOffset: Int) {
    self.bytes = bytes
    self.position = byteOffset * 8
  }
  mutating func read(_ n: Int) -> Int {
    var v = 0
    for k in 0..<n {
      if position / 8 >= bytes.count { overran = true }
      let bit = Int(bytes[position / 8] >> UInt8(position % 8)) & 1
      v |= bit << k
      position += 1
    }
    return v
  }
}
