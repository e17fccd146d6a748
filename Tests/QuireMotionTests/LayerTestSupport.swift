import Foundation
import QuireRaster
import Testing

@testable import QuireMotion

// Test-only helpers: synthetic pages (no fonts), PNG goldens (QuireRaster's PNGCodec;
// compared pixel for pixel, so an encoder change does not invalidate them), image metrics.

extension RGBA {
  /// Test colours (the core's `RGBA` has no named primaries besides black, white, clear).
  static let red = RGBA(r: 255, g: 0, b: 0)
  static let green = RGBA(r: 0, g: 255, b: 0)
  static let blue = RGBA(r: 0, g: 0, b: 255)
}

enum Synthetic {
  /// A page with a coloured header block, a diagonal gradient and stripes, distinct per seed.
  static func page(width: Int, height: Int, seed: Int) -> PixelBuffer {
    var px = [UInt8](repeating: 255, count: width * height * 4)
    let hue: [(UInt8, UInt8, UInt8)] = [
      (200, 40, 40), (40, 120, 200), (40, 160, 80), (180, 120, 20),
    ]
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

/// Compares `image` with Goldens/<name>.png byte for byte; QUIRE_BLESS=1 rewrites it.
func expectGolden(
  _ name: String, _ image: PixelBuffer, sourceLocation: SourceLocation = #_sourceLocation
) {
  let dir = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Goldens")
  let url = dir.appendingPathComponent(name + ".png")
  let bytes = Data(PNGCodec.encode(image))
  if ProcessInfo.processInfo.environment["QUIRE_BLESS"] == "1" {
    try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    try? bytes.write(to: url)
    return
  }
  guard let data = try? Data(contentsOf: url) else {
    Issue.record(
      "missing golden \(url.path); run with QUIRE_BLESS=1", sourceLocation: sourceLocation)
    return
  }
  let golden: PixelBuffer
  do {
    golden = try PNGCodec.decode(data)
  } catch {
    Issue.record("golden \(url.path) unreadable: \(error)", sourceLocation: sourceLocation)
    return
  }
  if golden != image {
    let actual = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent(
      "actual-" + name + ".png")
    try? bytes.write(to: actual)
    Issue.record(
      "\(name) differs from its golden; actual written to \(actual.path)",
      sourceLocation: sourceLocation)
  }
}
