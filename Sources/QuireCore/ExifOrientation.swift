// EXIF orientation (tag 0x0112): how a camera's stored pixels must be turned or mirrored to
// stand upright. CSS's default `image-orientation: from-image` applies it, so every browser
// does; so do we, to the decoded pixels and to the intrinsic size (5–8 swap the axes).
//
// Only the one tag is read, from the first APP1 "Exif" segment before the scan: a bounded
// walk of the JPEG markers and of IFD0's entries (at most 1,000), every offset checked
// against the segment. Anything malformed means "upright" (1), never an error: the picture
// is still worth showing.

import Foundation

/// EXIF orientation 1–8 (1 = upright, 6 = turn 90° clockwise to display, …).
public struct ExifOrientation: Sendable, Hashable {
  /// The tag's value, 1…8.
  public let value: Int

  /// Upright: no change.
  public static let upright = ExifOrientation(value: 1)

  /// An orientation from a tag value; out-of-range values are upright.
  public init(value: Int) { self.value = (1...8).contains(value) ? value : 1 }

  /// Orientations 5–8 exchange width and height.
  public var swapsAxes: Bool { value >= 5 }

  /// The orientation a JPEG's EXIF block gives, upright when there is none.
  public static func of(jpeg bytes: [UInt8]) -> ExifOrientation {
    let b = ByteReader(bytes)
    var i = 2
    var steps = 0
    while i + 4 <= b.count, steps < 1_000 {
      steps += 1
      guard b[i] == 0xFF else { return .upright }
      let marker = b[i + 1]
      if marker == 0xFF {
        i += 1
        continue
      }
      if marker == 0xDA || marker == 0xD9 { return .upright }  // scan or end: no EXIF before
      let length = b.be16(i + 2)
      guard length >= 2 else { return .upright }
      if marker == 0xE1, b.slice(i + 4, 6) == Array("Exif\0\0".utf8) {
        let tiff = Array(bytes[min(bytes.count, i + 10)..<min(bytes.count, i + 2 + length)])
        return ExifOrientation(value: orientationTag(tiff))
      }
      i += 2 + length
    }
    return .upright
  }

  /// Tag 0x0112 of IFD0 in a TIFF block ("II*\0" or "MM\0*"), 1 when absent.
  static func orientationTag(_ tiff: [UInt8]) -> Int {
    let b = ByteReader(tiff)
    let little: Bool
    switch (b[0], b[1]) {
    case (0x49, 0x49): little = true
    case (0x4D, 0x4D): little = false
    default: return 1
    }
    func u16(_ i: Int) -> Int { little ? b.le16(i) : b.be16(i) }
    func u32(_ i: Int) -> Int { little ? b.le32(i) : b.be32(i) }
    guard u16(2) == 42 else { return 1 }
    let ifd = u32(4)
    guard ifd >= 8, ifd + 2 <= b.count else { return 1 }
    let count = min(u16(ifd), 1_000)
    for k in 0..<count {
      let entry = ifd + 2 + 12 * k
      guard entry + 12 <= b.count else { return 1 }
      if u16(entry) == 0x0112, u16(entry + 2) == 3 { return u16(entry + 8) }
    }
    return 1
  }

  /// Where the displayed pixel (x, y) comes from in a stored image `width` × `height`.
  func source(x: Int, y: Int, width: Int, height: Int) -> (x: Int, y: Int) {
    switch value {
    case 2: return (width - 1 - x, y)
    case 3: return (width - 1 - x, height - 1 - y)
    case 4: return (x, height - 1 - y)
    case 5: return (y, x)
    case 6: return (y, height - 1 - x)
    case 7: return (width - 1 - y, height - 1 - x)
    case 8: return (width - 1 - y, x)
    default: return (x, y)
    }
  }
}

extension PixelBuffer {
  /// The image turned and mirrored upright for `orientation` (a copy; self when upright).
  public func oriented(_ orientation: ExifOrientation) -> PixelBuffer {
    if orientation.value == 1 { return self }
    let c = format.channels
    let (w, h) = orientation.swapsAxes ? (height, width) : (width, height)
    var out = [UInt8](repeating: 0, count: pixels.count)
    pixels.withUnsafeBufferPointer { src in
      out.withUnsafeMutableBufferPointer { dst in
        for y in 0..<h {
          for x in 0..<w {
            let s = orientation.source(x: x, y: y, width: width, height: height)
            let from = (s.y * width + s.x) * c
            let to = (y * w + x) * c
            for k in 0..<c { dst[to + k] = src[from + k] }
          }
        }
      }
    }
    return PixelBuffer(width: w, height: h, format: format, pixels: out)
  }
}
