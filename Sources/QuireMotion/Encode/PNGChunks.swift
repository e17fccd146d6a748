import CDeflate
import Foundation
import QuireRaster

// PNG and APNG chunks, written by hand on top of libdeflate: libpng's simplified API writes a
// still PNG only (no acTL/fcTL/fdAT), and the chunk format is a few lines. Still frames go
// through the raster stage's PNGCodec; APNG needs the frame's IDAT payload on its own, which
// `imageData` gives (compressed in parallel, one Deflater per frame).

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
