// ScaledImageFile: a large picture as a page draws it, kept beside a layout cache entry so
// that a later `render --pages N` of a page showing it skips its decoding and resampling.
//
// Why: a cover page was the dearest cached render (moby-dick's page 1: ~300 M instructions,
// of which ~73 M decoding its 646x902 JPEG at the DCT scale 7/8 and ~71 M resampling it to
// the 500x698 it is drawn at). Decoding at a cheaper DCT scale (`ImageDecoder.decodeJPEG`:
// 1/1 or 1/2 and below, where libjpeg-turbo's inverse DCT is SIMD) brings the decode to
// ~41 M, but decoding and resampling still cost more than the rest of the page. The first
// cached render that draws a large picture (`ImageStore.archivedPixels` source pixels or
// more, raster formats only) writes the scaled, premultiplied RGBA8 pixels here; later
// ones read them back (~1.4 MB for that cover: a read, a CRC-32 and a copy).
//
// Keyed like the display lists: one file per layout key, image href and drawn size,
// `<key>-i<hash>.qsi` with `<hash>` the first 16 hex digits of the SHA-1 of href, NUL and
// "WxH". The key holds the book's content hash, so the href names the same bytes. The file
// repeats the key, href and size, which must match (a hash collision is then a miss).
//
// File: a sealed file's header (SealedFile.swift: magic "QUIRESI\n", version, CRC-32,
// payload length), then the key and href (length-prefixed UTF-8), width and height (8 bytes each,
// little-endian) and exactly width x height x 4 bytes of pixels. Anything else is a miss and
// the picture is decoded (and the file written) again; files count against the cache's size
// bound and leave least recently used first, as entries do. Rejected: keeping the decoded
// picture at full size (it would save the decoding only, and take more room) and keeping
// every image (small ones decode faster than a file opens).

import Foundation
import QuireCore
import QuireIngest
import QuireRaster

/// The scaled pictures of one layout cache entry (see the essay above).
struct ScaledImageFiles: ScaledImageArchive {
  let cache: LayoutCache
  /// The entry's key digest.
  let key: String

  func pixels(href: String, width: Int, height: Int) -> [UInt8]? {
    cache.scaledImage(key, href: href, width: width, height: height)
  }

  func keep(_ pixels: [UInt8], href: String, width: Int, height: Int) {
    cache.store(
      ScaledImageFile.Picture(key: key, href: href, width: width, height: height, pixels: pixels))
  }
}

/// The scaled-picture file's format.
enum ScaledImageFile {
  /// The header's kind (SealedFile.swift).
  static let sealed = SealedFile(magic: Array("QUIRESI\n".utf8), version: 1)
  static let headerSize = SealedFile.headerSize
  /// The file name extension.
  static let suffix = ".qsi"
  /// The largest picture kept (a 4096x4096 placement).
  static let maxPixelBytes = 64 << 20

  /// One scaled picture of an entry.
  struct Picture: Equatable {
    var key: String
    var href: String
    var width: Int
    var height: Int
    /// Premultiplied RGBA8, `width * height * 4` bytes.
    var pixels: [UInt8]
  }

  /// The file name (in the cache folder) of `href` drawn at `width`x`height` under `key`.
  static func name(_ key: String, href: String, width: Int, height: Int) -> String {
    let digest = SHA1.hex(SHA1.digest(Array((href + "\u{0}\(width)x\(height)").utf8)))
    return "\(key)-i\(digest.prefix(16))" + suffix
  }

  /// The file's bytes, nil when the picture is not one (wrong pixel count, too large).
  static func encode(_ p: Picture) -> [UInt8]? {
    guard p.width > 0, p.height > 0, p.pixels.count <= maxPixelBytes,
      p.pixels.count == p.width * p.height * 4
    else { return nil }
    var w = DisplayListFile.Writer()
    w.string(p.key)
    w.string(p.href)
    w.int(p.width)
    w.int(p.height)
    w.bytes += p.pixels
    return sealed.seal(w.bytes)
  }

  /// The picture in `bytes`, nil unless the header, checksum and every field check out.
  static func decode(_ bytes: Data) -> Picture? {
    guard sealed.isSealed(bytes) else { return nil }
    return bytes.withUnsafeBytes { raw -> Picture? in
      var r = DisplayListFile.Reader(raw: raw, at: headerSize)
      guard let key = r.string(), let href = r.string(), let width = r.int(),
        let height = r.int(), width > 0, height > 0, width <= maxPixelBytes / 4,
        height <= maxPixelBytes / 4 / width, r.left == width * height * 4
      else { return nil }
      let pixels = [UInt8](UnsafeRawBufferPointer(rebasing: raw[r.at...]))
      return Picture(key: key, href: href, width: width, height: height, pixels: pixels)
    }
  }
}

extension LayoutCache {
  /// The path of a scaled picture's file.
  func scaledImagePath(_ key: String, href: String, width: Int, height: Int) -> String {
    directory.appendingPathComponent(
      ScaledImageFile.name(key, href: href, width: width, height: height)
    ).path
  }

  /// The pixels of `href` drawn at `width`x`height` under the entry `key`, nil when they are
  /// not kept or do not check out. A hit becomes the most recently used file.
  func scaledImage(_ key: String, href: String, width: Int, height: Int) -> [UInt8]? {
    let path = scaledImagePath(key, href: href, width: width, height: height)
    guard
      let data = readSealed(
        path, maxBytes: ScaledImageFile.headerSize + 4096 + ScaledImageFile.maxPixelBytes),
      let picture = ScaledImageFile.decode(data), picture.key == key, picture.href == href,
      picture.width == width, picture.height == height
    else { return nil }
    touch(path)
    return picture.pixels
  }

  /// Stores a scaled picture and evicts what no longer fits. Returns whether it was written.
  @discardableResult
  func store(_ picture: ScaledImageFile.Picture) -> Bool {
    guard let bytes = ScaledImageFile.encode(picture), bytes.count <= maxBytes else {
      return false
    }
    return writeSealed(
      bytes,
      to: scaledImagePath(
        picture.key, href: picture.href, width: picture.width, height: picture.height))
  }
}
