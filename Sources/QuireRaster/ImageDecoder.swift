import CJPEG
import CPNG
import Foundation
import QuireCore
import QuireIngest
import QuireTypeset

/// Decodes an image (PNG, JPEG, GIF, WebP, AVIF, JPEG XL, BMP, SVG) into straight-alpha
/// RGBA8; nil for other formats or broken data.
/// The motion engine reuses this for cover images.
package func decodeImage(_ data: Data, href: String) -> PixelBuffer? {
  try? ImageDecoder.decode(data, href: href)
}

/// Decodes an image no smaller than `atLeast` where its format can decode a smaller picture
/// for less work (a JPEG scaled by ½, ¼ or ⅛ inside the DCT; an SVG drawn at that size);
/// other formats come back at full size. Nil for other formats or broken data.
package func decodeImage(_ data: Data, href: String, atLeast: (width: Int, height: Int)?)
  -> PixelBuffer?
{
  try? ImageDecoder.decode(data, href: href, atLeast: atLeast)
}

enum ImageDecoder {
  static func isPNG(_ d: Data) -> Bool {
    d.count >= 8 && d.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
  }
  static func isJPEG(_ d: Data) -> Bool { d.count >= 3 && d.starts(with: [0xFF, 0xD8, 0xFF]) }

  /// Any raster format → straight-alpha RGBA8, upright (EXIF/JPEG XL/AVIF orientation
  /// applied), dimensions checked against `ImageLimits` before any pixel buffer is allocated.
  /// With `atLeast`, a JPEG may come back smaller than its full size (but never smaller than
  /// that target): TurboJPEG scales inside the DCT, which needs a quarter of the memory or
  /// less. Only scales of 1/2 or less are used: the others (7/8, 3/4, 5/8) run plain C
  /// inverse DCTs where the full size runs SIMD ones, so they cost more than decoding it all
  /// (moby-dick's 646x902 cover, libjpeg-turbo 2.1.5, instructions: 1/1 41 M, 7/8 71 M,
  /// 3/4 57 M, 5/8 49 M, 1/2 37 M, 3/8 39 M, 1/4 35 M, 1/8 23 M).
  static func decode(
    _ data: Data, href: String, atLeast: (width: Int, height: Int)? = nil,
    resources: ((String) -> Data?)? = nil, svgFonts: SVGFonts? = nil
  ) throws(RasterError) -> PixelBuffer {
    // One decoder per format, chosen by the file's signature (never by name or media type).
    switch ImageFormat.sniff(data) {
    case .png: return try PNGCodec.decode(data, source: href).converted(to: .rgba8)
    case .jpeg: return try decodeJPEG(data, href: href, atLeast: atLeast)
    case .gif: return try GIFDecoder.decode(data, source: href)
    case .webp: return try WebPDecoder.decode(data, source: href)
    case .avif: return try AVIFDecoder.decode(data, source: href)
    case .jxl: return try JXLDecoder.decode(data, source: href)
    case .bmp: return try BMPDecoder.decode(data, source: href)
    case .svg:
      return try SVGRasterizer.rasterize(
        data, href: href, size: atLeast, resources: resources, fonts: svgFonts)
    case nil: throw .unsupportedFormat(source: href)
    }
  }

  static func decodeJPEG(_ data: Data, href: String, atLeast: (width: Int, height: Int)? = nil)
    throws(RasterError) -> PixelBuffer
  {
    guard let tj = tjInitDecompress() else {
      throw .library(function: "tjInitDecompress", detail: "no handle", source: href)
    }
    defer { tjDestroy(tj) }
    func failure(_ function: String) -> RasterError {
      let message = tjGetErrorStr2(tj).map { String(cString: $0) } ?? "unknown error"
      return .library(function: function, detail: message, source: href)
    }
    var width: Int32 = 0
    var height: Int32 = 0
    var subsamp: Int32 = 0
    var colorspace: Int32 = 0
    let header = data.withUnsafeBytes { raw in
      tjDecompressHeader3(
        tj, raw.bindMemory(to: UInt8.self).baseAddress, UInt(raw.count), &width, &height,
        &subsamp, &colorspace)
    }
    guard header == 0 else { throw failure("tjDecompressHeader3") }
    try ImageLimits.check(width: Int(width), height: Int(height), source: href)
    let orientation = ExifOrientation.of(jpeg: [UInt8](data.prefix(1 << 20)))
    let ink = colorspace == TJCS_CMYK.rawValue || colorspace == TJCS_YCCK.rawValue
    if var target = atLeast {
      if orientation.swapsAxes { target = (target.height, target.width) }
      var count: Int32 = 0
      if let factors = tjGetScalingFactors(&count) {
        var best = (width, height)
        for i in 0..<Int(count) {
          let f = factors[i]
          guard f.num > 0, f.denom > 0, f.num == f.denom || 2 * f.num <= f.denom else { continue }
          let w = (Int(width) * Int(f.num) + Int(f.denom) - 1) / Int(f.denom)
          let h = (Int(height) * Int(f.num) + Int(f.denom) - 1) / Int(f.denom)
          if w >= target.width && h >= target.height && w * h < Int(best.0) * Int(best.1) {
            best = (Int32(w), Int32(h))
          }
        }
        (width, height) = best
      }
    }
    var pixels = [UInt8](repeating: 255, count: Int(width) * Int(height) * 4)
    // CMYK and YCCK come out as CMYK (TurboJPEG converts neither to RGB) and are converted here.
    let pixelFormat = ink ? TJPF_CMYK.rawValue : TJPF_RGBA.rawValue
    let rc = data.withUnsafeBytes { raw in
      pixels.withUnsafeMutableBufferPointer { out in
        tjDecompress2(
          tj, raw.bindMemory(to: UInt8.self).baseAddress, UInt(raw.count), out.baseAddress,
          width, 0, height, pixelFormat, TJFLAG_STOPONWARNING)
      }
    }
    // A warning (e.g. "premature end of data") is a failure too: a half-grey picture is worse
    // than a placeholder that says something is wrong.
    guard rc == 0 else { throw failure("tjDecompress2") }
    if ink { InkColor.convertInvertedCMYK(&pixels) }
    return PixelBuffer(width: Int(width), height: Int(height), format: .rgba8, pixels: pixels)
      .oriented(orientation)
  }
}

/// Scaled images kept between processes (a persisted layout cache's folder): a later render
/// of the same book reads a large picture's scaled pixels back instead of decoding and
/// resampling it again (a 646x902 JPEG cover drawn on a 600x800 page: ~145 M instructions
/// of decode and resampling against a file read). The keeper names the book and layout;
/// the store names the image and its size.
package protocol ScaledImageArchive: Sendable {
  /// The premultiplied RGBA8 pixels of `href` scaled to `width`x`height`, nil when not kept
  /// (or not exactly `width * height * 4` bytes).
  func pixels(href: String, width: Int, height: Int) -> [UInt8]?
  /// Keeps them (a failure is only slower).
  func keep(_ pixels: [UInt8], href: String, width: Int, height: Int)
}

/// Decoded and scaled images by (href, size), shared by all threads, bounded in bytes
/// (oldest entry out first). Failures are cached too, so a broken image is decoded once.
/// With an archive, scaled pictures of at least `archivedPixels` source pixels
/// (raster formats only: an SVG's drawing depends on fonts and librsvg) are kept there and
/// read back first; what is read back is the bytes the resampler wrote, so pages draw the
/// same.
final class ImageStore: Sendable {
  enum Entry {
    case image(ScaledImage)
    case failed(RasterError)
  }
  struct Key: Hashable {
    var href: String
    var width: Int
    var height: Int
  }

  /// Decoded images, oldest first in `order`, `bytes` in all.
  private struct Cache {
    var entries: [Key: Entry] = [:]
    var order: [Key] = []
    var bytes = 0
  }

  private let images: @Sendable (String) -> Data?
  private let budget: Int
  private let archive: (any ScaledImageArchive)?
  /// The fewest source pixels (the image's own size) whose scaled picture is archived
  /// (512x512; a JPEG decoded at a DCT scale still reads every coefficient).
  static let archivedPixels = 1 << 18
  private let cache = Mutex(Cache())
  /// The book's fonts for SVG text, handed to fontconfig on the first SVG (nil inside until
  /// then; `.some(nil)` when there are none or they are unusable).
  private let embeddedFonts: [EmbeddedFont]
  private let svgFontSet = Mutex<SVGFonts??>(nil)

  init(
    images: @escaping @Sendable (String) -> Data?, budget: Int, svgFonts: [EmbeddedFont] = [],
    archive: (any ScaledImageArchive)? = nil
  ) {
    self.images = images
    self.budget = budget
    self.archive = archive
    self.embeddedFonts = svgFonts
  }

  /// The SVG font set, made once on first use (only books with SVG images pay for it).
  private func svgFonts(for data: Data) -> SVGFonts? {
    guard !embeddedFonts.isEmpty, ImageFormat.sniff(data) == .svg else { return nil }
    return svgFontSet.withLock { made in
      if let made { return made }
      var seen = Set<String>()
      let unique = embeddedFonts.filter { seen.insert($0.family + "\u{0}" + $0.href).inserted }
      let fonts = SVGFonts(fonts: unique.map { (family: $0.family, data: $0.data) })
      made = .some(fonts)
      return fonts
    }
  }

  /// The image's intrinsic size from its header (no decoding), nil when unknown.
  func intrinsicSize(href: String) -> (width: Double, height: Double)? {
    images(href).flatMap { ImageSize.of($0) }
  }

  func image(href: String, width: Int, height: Int) -> Entry {
    let key = Key(href: href, width: width, height: height)
    if let e = cache.withLock({ $0.entries[key] }) { return e }
    // Decode outside the lock: another thread may do the same work once, which is cheaper
    // than making every page wait behind a large JPEG.
    let entry: Entry
    if let pixels = archive?.pixels(href: href, width: width, height: height),
      pixels.count == width * height * 4
    {
      entry = .image(ScaledImage(width: width, height: height, premultiplied: pixels))
    } else if let data = images(href) {
      entry = decodeAndScale(data, href: href, width: width, height: height)
    } else {
      let detail =
        href.lowercased().hasPrefix("data:") ? "malformed or too long data: URL" : "not found"
      entry = .failed(.library(function: "resource lookup", detail: detail, source: href))
    }
    remember(entry, key)
    return entry
  }

  /// `data` decoded and scaled to `width`x`height`; archived when the image is large.
  private func decodeAndScale(_ data: Data, href: String, width: Int, height: Int) -> Entry {
    do {
      let decoded = try ImageDecoder.decode(
        data, href: href, atLeast: (width, height), resources: images,
        svgFonts: svgFonts(for: data))
      let scaled = Resampler.scale(decoded, width: width, height: height)
      if let archive, ImageFormat.sniff(data) != .svg, let size = ImageSize.of(data),
        size.width * size.height >= Double(Self.archivedPixels)
      {
        archive.keep(scaled.premultiplied, href: href, width: width, height: height)
      }
      return .image(scaled)
    } catch {
      return .failed(error)
    }
  }

  /// Keeps `entry` in memory under `key` within the byte budget, oldest out first.
  private func remember(_ entry: Entry, _ key: Key) {
    let size: Int
    if case .image(let s) = entry { size = s.premultiplied.count } else { size = 64 }
    let budget = self.budget
    cache.withLock { cache in
      guard cache.entries[key] == nil, size <= budget else { return }
      cache.entries[key] = entry
      cache.order.append(key)
      cache.bytes += size
      while cache.bytes > budget, !cache.order.isEmpty {
        let old = cache.order.removeFirst()
        if case .image(let s) = cache.entries.removeValue(forKey: old) {
          cache.bytes -= s.premultiplied.count
        } else {
          cache.bytes -= 64
        }
      }
    }
  }
}
