import CDeflate
import CPNG
import CZlib
import Foundation

/// PNG in and out. Encoding writes the chunks by hand and compresses with libdeflate (see the
/// essay in Raster.swift and Benchmarks/png-encoding.md); decoding uses libpng's simplified
/// `png_image_*` API, which needs no setjmp from Swift.
public enum PNGCodec {
  /// PNG row filters (the PNG spec's filter types 0–4, plus per-row adaptive choice).
  public enum Filter: String, Sendable, CaseIterable {
    case none, sub, up, average, paeth, adaptive
  }

  /// The defaults chosen from the measurements in Benchmarks/png-encoding.md.
  public static let defaultFilter: Filter = .none
  public static let defaultLevel: Int32 = 3

  /// Encodes 8-bit gray or RGBA, deterministic bytes: no time or text chunks.
  public static func encode(_ b: PixelBuffer) -> [UInt8] {
    encode(b, filter: defaultFilter, level: defaultLevel)
  }

  /// Encodes with an explicit row filter and libdeflate level (1…12), for measurement.
  public static func encode(_ b: PixelBuffer, filter: Filter, level: Int32) -> [UInt8] {
    let filtered = filterRows(b, filter: filter)
    let compressed = DeflaterPool.shared.compress(filtered, level: level)
    return assemble(b, idat: compressed)
  }

  /// Wraps already-compressed zlib data (an IDAT payload) into a PNG file.
  static func assemble(_ b: PixelBuffer, idat: [UInt8]) -> [UInt8] {
    var out: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    out.reserveCapacity(idat.count + 64)
    var ihdr: [UInt8] = []
    ihdr.appendBigEndian(UInt32(b.width))
    ihdr.appendBigEndian(UInt32(b.height))
    ihdr.append(8)  // bit depth
    ihdr.append(b.format == .gray8 ? 0 : 6)  // colour type: gray or RGBA
    ihdr.append(contentsOf: [0, 0, 0])  // compression, filter method, no interlace
    appendChunk(&out, "IHDR", ihdr)
    appendChunk(&out, "IDAT", idat)
    appendChunk(&out, "IEND", [])
    return out
  }

  private static func appendChunk(_ out: inout [UInt8], _ type: StaticString, _ body: [UInt8]) {
    out.appendBigEndian(UInt32(body.count))
    let typeBytes = type.withUTF8Buffer { Array($0) }
    out.append(contentsOf: typeBytes)
    out.append(contentsOf: body)
    var crc = typeBytes.withUnsafeBufferPointer { crc32(0, $0.baseAddress, 4) }
    crc = body.withUnsafeBufferPointer { crc32(crc, $0.baseAddress, uInt($0.count)) }
    out.appendBigEndian(UInt32(truncatingIfNeeded: crc))
  }

  /// One filter-type byte before each row, then the filtered row.
  static func filterRows(_ b: PixelBuffer, filter: Filter) -> [UInt8] {
    let bpp = b.format.channels
    let stride = b.bytesPerRow
    let total = b.height * (stride + 1)
    // PNG forbids empty images; an empty buffer still gets well-formed (if invalid) output.
    if stride == 0 || b.height == 0 { return [UInt8](repeating: 0, count: b.height) }
    // Every byte is written below (a filter byte and a full row per row), so skip zeroing.
    let out = [UInt8](unsafeUninitializedCapacity: total) { dst, initialized in
      b.pixels.withUnsafeBufferPointer { src in
        for y in 0..<b.height {
          let row = src.baseAddress! + y * stride
          let prior: UnsafePointer<UInt8>? = y > 0 ? row - stride : nil
          let o = dst.baseAddress! + y * (stride + 1)
          var kind = filter
          if filter == .adaptive {
            kind = bestFilter(row: row, prior: prior, count: stride, bpp: bpp, scratch: o + 1)
          }
          o[0] = kind.code
          apply(kind, row: row, prior: prior, count: stride, bpp: bpp, out: o + 1)
        }
      }
      initialized = total
    }
    return out
  }

  /// The libpng heuristic: the filter with the smallest sum of |signed residuals|.
  private static func bestFilter(
    row: UnsafePointer<UInt8>, prior: UnsafePointer<UInt8>?, count: Int, bpp: Int,
    scratch: UnsafeMutablePointer<UInt8>
  ) -> Filter {
    var best = Filter.none
    var bestSum = Int.max
    for kind in [Filter.none, .sub, .up, .average, .paeth] {
      apply(kind, row: row, prior: prior, count: count, bpp: bpp, out: scratch)
      var sum = 0
      for i in 0..<count {
        let v = Int(Int8(bitPattern: scratch[i]))
        sum &+= v < 0 ? -v : v
      }
      if sum < bestSum {
        bestSum = sum
        best = kind
      }
    }
    return best
  }

  private static func apply(
    _ kind: Filter, row: UnsafePointer<UInt8>, prior: UnsafePointer<UInt8>?, count: Int, bpp: Int,
    out: UnsafeMutablePointer<UInt8>
  ) {
    switch kind {
    case .none, .adaptive:
      out.update(from: row, count: count)
    case .sub:
      for i in 0..<count { out[i] = row[i] &- (i >= bpp ? row[i - bpp] : 0) }
    case .up:
      if let p = prior {
        for i in 0..<count { out[i] = row[i] &- p[i] }
      } else {
        out.update(from: row, count: count)
      }
    case .average:
      for i in 0..<count {
        let a = i >= bpp ? Int(row[i - bpp]) : 0
        let up = prior.map { Int($0[i]) } ?? 0
        out[i] = row[i] &- UInt8((a + up) >> 1)
      }
    case .paeth:
      for i in 0..<count {
        let a = i >= bpp ? Int(row[i - bpp]) : 0
        let up = prior.map { Int($0[i]) } ?? 0
        let c = i >= bpp ? (prior.map { Int($0[i - bpp]) } ?? 0) : 0
        let p = a + up - c
        let pa = abs(p - a)
        let pb = abs(p - up)
        let pc = abs(p - c)
        let pred = (pa <= pb && pa <= pc) ? a : (pb <= pc ? up : c)
        out[i] = row[i] &- UInt8(pred)
      }
    }
  }

  /// Decodes a PNG into gray8 (gray files without alpha) or rgba8 (everything else).
  public static func decode(_ data: Data) throws(RasterError) -> PixelBuffer {
    try decode(data, source: "PNG data")
  }

  static func decode(_ data: Data, source: String) throws(RasterError) -> PixelBuffer {
    var image = png_image()
    image.version = UInt32(PNG_IMAGE_VERSION)
    let began = data.withUnsafeBytes { raw in
      png_image_begin_read_from_memory(&image, raw.baseAddress, raw.count)
    }
    guard began != 0 else {
      let message = imageMessage(&image)
      png_image_free(&image)
      throw .library(
        function: "png_image_begin_read_from_memory", detail: message, source: source)
    }
    let width = Int(image.width)
    let height = Int(image.height)
    do {
      try ImageLimits.check(width: width, height: height, source: source)
    } catch {
      png_image_free(&image)
      throw error
    }
    let flagAlpha: UInt32 = 1
    let flagColor: UInt32 = 2
    let flagLinear: UInt32 = 4
    let format: PixelBuffer.Format =
      (image.format & (flagAlpha | flagColor)) == 0 ? .gray8 : .rgba8
    let channels = format.channels
    let count = width * height * channels
    var pixels: [UInt8]
    let finished: Int32
    if image.format & flagLinear == 0 {
      image.format = format == .gray8 ? 0 : (flagAlpha | flagColor)
      pixels = [UInt8](repeating: 0, count: count)
      finished = pixels.withUnsafeMutableBytes { out in
        png_image_finish_read(&image, nil, out.baseAddress, 0, nil)
      }
    } else {
      // A 16-bit file. Asked for 8-bit output, libpng's simplified API treats 16-bit samples
      // as linear light and gamma-encodes them, lightening every midtone; browsers (and
      // we) read them as sRGB values like 8-bit ones. So take them as 16-bit "linear" (no
      // conversion, alpha premultiplied) and narrow by hand.
      image.format = flagLinear | (format == .gray8 ? 0 : (flagAlpha | flagColor))
      var wide = [UInt16](repeating: 0, count: count)
      finished = wide.withUnsafeMutableBytes { out in
        png_image_finish_read(&image, nil, out.baseAddress, 0, nil)
      }
      pixels = [UInt8](repeating: 0, count: count)
      for i in stride(from: 0, to: count, by: channels) {
        if channels == 4 {
          let a = UInt32(wide[i + 3])
          for k in 0..<3 {
            let c = a == 0 ? 0 : Swift.min(65535, (UInt32(wide[i + k]) * 65535 + a / 2) / a)
            pixels[i + k] = UInt8((c * 255 + 32767) / 65535)
          }
          pixels[i + 3] = UInt8((a * 255 + 32767) / 65535)
        } else {
          pixels[i] = UInt8((UInt32(wide[i]) * 255 + 32767) / 65535)
        }
      }
    }
    guard finished != 0 else {
      let message = imageMessage(&image)
      png_image_free(&image)
      throw .library(function: "png_image_finish_read", detail: message, source: source)
    }
    png_image_free(&image)
    return PixelBuffer(width: width, height: height, format: format, pixels: pixels)
  }

  private static func imageMessage(_ image: inout png_image) -> String {
    withUnsafeBytes(of: &image.message) { raw in
      let bytes = raw.prefix { $0 != 0 }
      return String(decoding: bytes, as: UTF8.self)
    }
  }
}

extension PNGCodec.Filter {
  fileprivate var code: UInt8 {
    switch self {
    case .none, .adaptive: return 0
    case .sub: return 1
    case .up: return 2
    case .average: return 3
    case .paeth: return 4
    }
  }
}

extension Array where Element == UInt8 {
  fileprivate mutating func appendBigEndian(_ v: UInt32) {
    append(UInt8(v >> 24))
    append(UInt8((v >> 16) & 0xFF))
    append(UInt8((v >> 8) & 0xFF))
    append(UInt8(v & 0xFF))
  }
}

/// libdeflate compressors, reused across pages: allocating one costs a few hundred kilobytes
/// of tables per call. A compressor is used by one thread at a time; the pool hands them out.
final class DeflaterPool: @unchecked Sendable {
  static let shared = DeflaterPool()

  /// One libdeflate compressor; this class is its only owner.
  private final class Deflater {
    let level: Int32
    let handle: OpaquePointer
    init?(level: Int32) {
      guard let h = libdeflate_alloc_compressor(level) else { return nil }
      self.level = level
      self.handle = h
    }
    deinit { libdeflate_free_compressor(handle) }
  }

  // Guarded by `lock`: idle compressors, at most a handful.
  private var idle: [Deflater] = []
  private let lock = NSLock()

  func compress(_ input: [UInt8], level: Int32) -> [UInt8] {
    let level = Swift.max(0, Swift.min(12, level))
    let deflater: Deflater = {
      lock.lock()
      defer { lock.unlock() }
      if let i = idle.lastIndex(where: { $0.level == level }) { return idle.remove(at: i) }
      return Deflater(level: level)!
    }()
    defer {
      lock.lock()
      if idle.count < 8 { idle.append(deflater) }
      lock.unlock()
    }
    let bound = libdeflate_zlib_compress_bound(deflater.handle, input.count)
    let out = [UInt8](unsafeUninitializedCapacity: bound) { dst, initialized in
      initialized = input.withUnsafeBytes { src in
        libdeflate_zlib_compress(
          deflater.handle, src.baseAddress, src.count, dst.baseAddress, dst.count)
      }
    }
    // The bound guarantees success; 0 would mean libdeflate broke its contract.
    precondition(!out.isEmpty, "libdeflate_zlib_compress returned 0 within its own bound")
    return out
  }
}
