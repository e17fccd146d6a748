import CDeflate
import Foundation
import QuireRaster

// PNG and APNG chunks, written by hand on top of libdeflate: libpng's simplified API writes a
// still PNG only (no acTL/fcTL/fdAT), and the chunk format is a few lines. The raster stage's
// PNGCodec can replace `PNGFrame.encode` for still frames once it is on main.

/// A libdeflate compressor (one owner, freed in deinit; one thread at a time).
final class Deflater {
  private let compressor: OpaquePointer
  let level: Int32

  init(level: Int32) throws {
    guard let c = libdeflate_alloc_compressor(level) else {
      throw FrameSinkError.library(
        path: "", function: "libdeflate_alloc_compressor", detail: "level \(level)")
    }
    compressor = c
    self.level = level
  }

  deinit { libdeflate_free_compressor(compressor) }

  /// zlib-wrapped deflate stream of `input` (what IDAT/fdAT carry).
  func zlib(_ input: UnsafeRawBufferPointer) throws -> Data {
    let bound = libdeflate_zlib_compress_bound(compressor, input.count)
    var out = Data(count: bound)
    let n = out.withUnsafeMutableBytes { o in
      libdeflate_zlib_compress(compressor, input.baseAddress, input.count, o.baseAddress, bound)
    }
    guard n > 0 else {
      throw FrameSinkError.library(
        path: "", function: "libdeflate_zlib_compress", detail: "\(input.count) bytes")
    }
    out.count = n
    return out
  }
}

enum PNGChunk {
  static let signature = Data([137, 80, 78, 71, 13, 10, 26, 10])

  static func chunk(_ type: String, _ body: Data) -> Data {
    var out = Data(capacity: body.count + 12)
    out.appendBigEndian(UInt32(body.count))
    let typeBytes = Data(type.utf8)
    out.append(typeBytes)
    out.append(body)
    var crc = typeBytes.withUnsafeBytes { libdeflate_crc32(0, $0.baseAddress, $0.count) }
    crc = body.withUnsafeBytes { libdeflate_crc32(crc, $0.baseAddress, $0.count) }
    out.appendBigEndian(crc)
    return out
  }

  static func header(width: Int, height: Int) -> Data {
    var b = Data()
    b.appendBigEndian(UInt32(width))
    b.appendBigEndian(UInt32(height))
    b.append(contentsOf: [8, 6, 0, 0, 0])  // 8-bit RGBA, deflate, adaptive filters, no interlace
    return chunk("IHDR", b)
  }

  /// Filter byte 0 (None) per row + RGBA rows, deflated: the image data of one frame.
  /// None keeps compression fast; page images are mostly flat paper, where it costs little.
  static func imageData(_ frame: PixelBuffer, deflater: Deflater) throws -> Data {
    let rgba = frame.format == .rgba8 ? frame : frame.asRGBA()
    let row = rgba.width * 4
    var raw = [UInt8](repeating: 0, count: (row + 1) * rgba.height)
    rgba.pixels.withUnsafeBufferPointer { src in
      raw.withUnsafeMutableBufferPointer { dst in
        for y in 0..<rgba.height {
          let d = dst.baseAddress! + y * (row + 1) + 1
          d.update(from: src.baseAddress! + y * row, count: row)
        }
      }
    }
    return try raw.withUnsafeBytes { try deflater.zlib($0) }
  }

  /// A complete still PNG.
  static func encode(_ frame: PixelBuffer, level: Int32 = 2) throws -> Data {
    let deflater = try Deflater(level: level)
    var out = signature
    out.append(header(width: frame.width, height: frame.height))
    out.append(chunk("IDAT", try imageData(frame, deflater: deflater)))
    out.append(chunk("IEND", Data()))
    return out
  }
}

extension Data {
  mutating func appendBigEndian(_ v: UInt32) {
    append(contentsOf: [
      UInt8(v >> 24), UInt8((v >> 16) & 255), UInt8((v >> 8) & 255), UInt8(v & 255),
    ])
  }
  mutating func appendBigEndian(_ v: UInt16) {
    append(contentsOf: [UInt8(v >> 8), UInt8(v & 255)])
  }
}

extension PNGChunk {
  /// Decodes a non-interlaced 8-bit RGBA PNG (the kind this file writes; all five filters),
  /// the first frame of an APNG included. Nil for anything else. Used to check
  /// decode(encode(frame)) == frame and to read exact-PNG goldens.
  static func decodeRGBA(_ data: Data) -> PixelBuffer? {
    let bytes = [UInt8](data)
    guard bytes.count > 8, Data(bytes[0..<8]) == signature else { return nil }
    var pos = 8
    var width = 0
    var height = 0
    var idat = [UInt8]()
    func be32(_ i: Int) -> Int {
      Int(bytes[i]) << 24 | Int(bytes[i + 1]) << 16 | Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
    }
    while pos + 12 <= bytes.count {
      let length = be32(pos)
      let type = String(decoding: bytes[(pos + 4)..<(pos + 8)], as: UTF8.self)
      let body = pos + 8
      guard length >= 0, body + length + 4 <= bytes.count else { return nil }
      if type == "IHDR" {
        guard length == 13, bytes[body + 8] == 8, bytes[body + 9] == 6, bytes[body + 12] == 0
        else { return nil }
        width = be32(body)
        height = be32(body + 4)
        guard width > 0, height > 0, width <= 1 << 15, height <= 1 << 15 else { return nil }
      } else if type == "IDAT" {
        idat.append(contentsOf: bytes[body..<(body + length)])
      } else if type == "IEND" {
        break
      }
      pos = body + length + 4
    }
    let row = width * 4
    let rawCount = (row + 1) * height
    guard width > 0, let decompressor = libdeflate_alloc_decompressor() else { return nil }
    defer { libdeflate_free_decompressor(decompressor) }
    var raw = [UInt8](repeating: 0, count: rawCount)
    var actual = 0
    let result = idat.withUnsafeBytes { src in
      raw.withUnsafeMutableBytes { dst in
        libdeflate_zlib_decompress(
          decompressor, src.baseAddress, src.count, dst.baseAddress, rawCount, &actual)
      }
    }
    guard result == LIBDEFLATE_SUCCESS, actual == rawCount else { return nil }
    var out = [UInt8](repeating: 0, count: row * height)
    for y in 0..<height {
      let filter = raw[y * (row + 1)]
      for i in 0..<row {
        let x = raw[y * (row + 1) + 1 + i]
        let a = i >= 4 ? Int(out[y * row + i - 4]) : 0
        let b = y > 0 ? Int(out[(y - 1) * row + i]) : 0
        let c = (i >= 4 && y > 0) ? Int(out[(y - 1) * row + i - 4]) : 0
        let predictor: Int
        switch filter {
        case 0: predictor = 0
        case 1: predictor = a
        case 2: predictor = b
        case 3: predictor = (a + b) / 2
        case 4:
          let p = a + b - c
          let pa = abs(p - a)
          let pb = abs(p - b)
          let pc = abs(p - c)
          predictor = (pa <= pb && pa <= pc) ? a : (pb <= pc ? b : c)
        default: return nil
        }
        out[y * row + i] = UInt8(truncatingIfNeeded: Int(x) + predictor)
      }
    }
    return PixelBuffer(width: width, height: height, format: .rgba8, pixels: out)
  }
}
