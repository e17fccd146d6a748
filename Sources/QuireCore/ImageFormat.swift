// Image formats, told apart by their first bytes.
//
// Books mislabel images often enough (a PNG named .jpg, a GIF served as image/jpeg) that the
// file's own signature is the only trustworthy answer; the manifest's media type is used
// only where no bytes exist yet (choosing a manifest fallback before reading the file).
// Sniffing reads at most the first 64 bytes, so it is constant time on any input.
//
// One enum for every stage: ingest uses it to decide whether a manifest item needs its
// fallback, the typesetter to read intrinsic sizes (`ImageHeader`), the rasterizer to pick a
// decoder. SVG is sniffed here too (`.svg`) so the SVG renderer plugs into the same dispatch.

import Foundation

/// An image file format, as its signature says.
public enum ImageFormat: String, Sendable, Hashable, CaseIterable {
  /// Portable Network Graphics (libpng).
  case png
  /// JPEG/JFIF/EXIF (TurboJPEG).
  case jpeg
  /// GIF 87a/89a, first frame (giflib).
  case gif
  /// WebP, lossy or lossless, still or animated (libwebp).
  case webp
  /// AVIF, AV1 in HEIF (libavif).
  case avif
  /// JPEG XL, bare codestream or ISO BMFF container (libjxl).
  case jxl
  /// Windows/OS2 bitmap (hand-written decoder).
  case bmp
  /// SVG: XML whose root is `<svg>` (decoded by the SVG renderer, not by the raster decoders).
  case svg

  /// The format the bytes start with; nil when none matches.
  public static func sniff(_ data: Data) -> ImageFormat? {
    let b = [UInt8](data.prefix(64))
    func starts(_ sig: [UInt8], at offset: Int = 0) -> Bool {
      b.count >= offset + sig.count && Array(b[offset..<offset + sig.count]) == sig
    }
    if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
    if starts([0xFF, 0xD8, 0xFF]) { return .jpeg }
    if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) { return .gif }
    if starts(Array("RIFF".utf8)), starts(Array("WEBP".utf8), at: 8) { return .webp }
    if starts([0xFF, 0x0A])
      || starts([0, 0, 0, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A])
    {
      return .jxl
    }
    if starts(Array("ftyp".utf8), at: 4), isAVIFBrand(b) { return .avif }
    if starts(Array("BM".utf8)), b.count >= 18 { return .bmp }
    if looksLikeSVG(data) { return .svg }
    return nil
  }

  /// The format a media type names (`image/png`, `image/svg+xml`…); nil for others.
  public init?(mediaType: String) {
    let base = mediaType.split(separator: ";").first.map {
      $0.trimmingCharacters(in: .whitespaces).lowercased()
    }
    switch base ?? "" {
    case "image/png", "image/apng": self = .png
    case "image/jpeg", "image/jpg", "image/pjpeg": self = .jpeg
    case "image/gif": self = .gif
    case "image/webp": self = .webp
    case "image/avif": self = .avif
    case "image/jxl": self = .jxl
    case "image/bmp", "image/x-bmp", "image/x-ms-bmp": self = .bmp
    case "image/svg+xml": self = .svg
    default: return nil
    }
  }

  /// `ftyp` major brand or one of the first compatible brands is avif/avis.
  private static func isAVIFBrand(_ b: [UInt8]) -> Bool {
    guard b.count >= 12 else { return false }
    let size = Int(b[0]) << 24 | Int(b[1]) << 16 | Int(b[2]) << 8 | Int(b[3])
    var brands: [String] = []
    var i = 8
    while i + 4 <= min(b.count, max(12, size)) {
      if i != 12 { brands.append(String(decoding: b[i..<i + 4], as: UTF8.self)) }
      i += 4
    }
    return brands.contains("avif") || brands.contains("avis")
  }

  /// An `<svg` root within the first 4 KB, after an optional XML declaration, comments or a
  /// doctype.
  private static func looksLikeSVG(_ data: Data) -> Bool {
    let head = String(decoding: data.prefix(4096), as: UTF8.self)
    guard let first = head.firstIndex(where: { !$0.isWhitespace && $0 != "\u{FEFF}" }),
      head[first] == "<"
    else { return false }
    return head.range(of: "<svg", options: [.caseInsensitive]) != nil
  }
}
