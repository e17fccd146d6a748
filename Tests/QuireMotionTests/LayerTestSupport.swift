import CZlib
import Foundation
import QuireRaster
import Testing

@testable import QuireMotion

// Test-only helpers: synthetic pages (no fonts), a minimal PNG writer for goldens (until
// QuireRaster's PNGCodec lands on main), and image metrics.

enum Synthetic {
  /// A page with a coloured header block, a diagonal gradient and stripes, distinct per seed.
  static func page(width: Int, height: Int, seed: Int) -> PixelBuffer {
    var px = [UInt8](repeating: 255, count: width * height * 4)
    let hue: [(UInt8, UInt8, UInt8)] = [(200, 40, 40), (40, 120, 200), (40, 160, 80), (180, 120, 20)]
    let c = hue[seed % hue.count]
    for y in 0..<height {
      for x in 0..<width {
        let i = (y * width + x) * 4
        // Paper tinted per seed, so that pages differ over most of their area.
        let paper: [(UInt8, UInt8, UInt8)] = [
          (250, 246, 236), (150, 190, 250), (236, 250, 220), (250, 226, 236),
        ]
        var (r, g, b) = paper[seed % paper.count]
        if y < height / 6 {
          (r, g, b) = c
        } else if (y / 6) % 3 == 0 && x > width / 10 && x < width * 9 / 10 && y < height * 5 / 6 {
          // "Text lines": dark stripes with a per-seed phase.
          let v = UInt8(40 + ((x + seed * 17) % 50))
          (r, g, b) = (v, v, v)
        } else if y >= height * 5 / 6 {
          let t = Double(x + y) / Double(width + height)
          r = UInt8(Double(c.0) * t + 255 * (1 - t))
          g = UInt8(Double(c.1) * t + 255 * (1 - t))
          b = UInt8(Double(c.2) * t + 255 * (1 - t))
        }
        px[i] = r
        px[i + 1] = g
        px[i + 2] = b
        px[i + 3] = 255
      }
    }
    return PixelBuffer(width: width, height: height, format: .rgba8, pixels: px)
  }

  static func solid(width: Int, height: Int, _ c: (UInt8, UInt8, UInt8, UInt8)) -> PixelBuffer {
    var px = [UInt8](repeating: 0, count: width * height * 4)
    for i in 0..<(width * height) {
      px[i * 4] = c.0
      px[i * 4 + 1] = c.1
      px[i * 4 + 2] = c.2
      px[i * 4 + 3] = c.3
    }
    return PixelBuffer(width: width, height: height, format: .rgba8, pixels: px)
  }
}

/// Mean absolute difference per channel byte.
func meanAbsoluteDifference(_ a: PixelBuffer, _ b: PixelBuffer) -> Double {
  precondition(a.pixels.count == b.pixels.count)
  var sum = 0
  for i in 0..<a.pixels.count { sum += abs(Int(a.pixels[i]) - Int(b.pixels[i])) }
  return Double(sum) / Double(a.pixels.count)
}

func pixel(_ p: PixelBuffer, _ x: Int, _ y: Int) -> [UInt8] {
  let i = (y * p.width + x) * 4
  return Array(p.pixels[i..<(i + 4)])
}

enum TestPNG {
  static let crcTable: [UInt32] = (0..<256).map { n -> UInt32 in
    var c = UInt32(n)
    for _ in 0..<8 { c = (c & 1) != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
    return c
  }

  static func crc(_ bytes: [UInt8]) -> UInt32 {
    var c: UInt32 = 0xFFFF_FFFF
    for b in bytes { c = crcTable[Int((c ^ UInt32(b)) & 0xFF)] ^ (c >> 8) }
    return c ^ 0xFFFF_FFFF
  }

  static func be32(_ v: UInt32) -> [UInt8] {
    [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)]
  }

  static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
    let t = Array(type.utf8)
    return be32(UInt32(data.count)) + t + data + be32(crc(t + data))
  }

  /// RGBA8 → PNG bytes (filter 0, zlib level 9). Deterministic.
  static func encode(_ p: PixelBuffer) -> [UInt8] {
    precondition(p.format == .rgba8)
    var raw = [UInt8]()
    raw.reserveCapacity((p.width * 4 + 1) * p.height)
    for y in 0..<p.height {
      raw.append(0)
      raw.append(contentsOf: p.pixels[(y * p.width * 4)..<((y + 1) * p.width * 4)])
    }
    // zlib (the system library QuireRaster already links) at level 9: deterministic.
    var destLen = compressBound(uLong(raw.count))
    var z = [UInt8](repeating: 0, count: Int(destLen))
    let rc = compress2(&z, &destLen, raw, uLong(raw.count), 9)
    precondition(rc == Z_OK, "compress2 failed: \(rc)")
    z.removeLast(z.count - Int(destLen))
    var ihdr = be32(UInt32(p.width)) + be32(UInt32(p.height))
    ihdr += [8, 6, 0, 0, 0]
    return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", ihdr)
      + chunk("IDAT", z) + chunk("IEND", [])
  }
}

/// Compares `image` with Goldens/<name>.png byte for byte; QUIRE_BLESS=1 rewrites it.
func expectGolden(_ name: String, _ image: PixelBuffer, sourceLocation: SourceLocation = #_sourceLocation)
{
  let dir = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Goldens")
  let url = dir.appendingPathComponent(name + ".png")
  let bytes = Data(TestPNG.encode(image))
  if ProcessInfo.processInfo.environment["QUIRE_BLESS"] == "1" {
    try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    try? bytes.write(to: url)
    return
  }
  guard let golden = try? Data(contentsOf: url) else {
    Issue.record("missing golden \(url.path); run with QUIRE_BLESS=1", sourceLocation: sourceLocation)
    return
  }
  if golden != bytes {
    let actual = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent(
      "actual-" + name + ".png")
    try? bytes.write(to: actual)
    Issue.record("\(name) differs from its golden; actual written to \(actual.path)",
      sourceLocation: sourceLocation)
  }
}
