import Foundation
import QuireRaster
import Testing

@testable import QuireMotion

/// Synthetic pages drawn in code (no fonts): paper, text-like bars, stripes, gradients.
enum TurnFixtures {
  static let width = 96
  static let height = 128

  static func page(
    width: Int = width, height: Int = height, paper: (UInt8, UInt8, UInt8),
    ink: (UInt8, UInt8, UInt8),
    seed: Int, stripes: Bool = false, gradient: Bool = false
  ) -> PixelBuffer {
    var px = [UInt8](repeating: 255, count: width * height * 4)
    for y in 0..<height {
      for x in 0..<width {
        var c = paper
        if gradient {
          let g = UInt8(
            truncatingIfNeeded: 120 + (x * 100) / max(1, width) + (y * 30) / max(1, height))
          c = (g, UInt8(truncatingIfNeeded: Int(paper.1) - (y * 60) / max(1, height)), paper.2)
        }
        if stripes && (x / 6) % 2 == 0 { c = (c.0 &- 30, c.1 &- 30, c.2 &- 10) }
        // Text-like bars: lines 6 px tall every 11 px within margins, word gaps from the seed.
        let line = (y - 10) / 11
        let inLine = (y - 10) % 11 < 6 && y >= 10 && y < height - 12
        if inLine && x >= 8 && x < width - 8 {
          let word = (x + line * 7 + seed * 13) % 23
          if word > 3 { c = ink }
        }
        let o = (y * width + x) * 4
        px[o] = c.0
        px[o + 1] = c.1
        px[o + 2] = c.2
      }
    }
    return PixelBuffer(width: width, height: height, format: .rgba8, pixels: px)
  }

  static var current: PixelBuffer {
    page(paper: (250, 246, 236), ink: (30, 30, 40), seed: 1, stripes: true)
  }
  static var next: PixelBuffer {
    page(paper: (200, 225, 250), ink: (20, 40, 120), seed: 2, gradient: true)
  }
  static var pages: TurnPages { TurnPages(current: current, next: next) }

  static var spread: SpreadPages {
    SpreadPages(
      leftCurrent: page(paper: (240, 240, 240), ink: (90, 0, 0), seed: 3),
      rightCurrent: current,
      leftNext: page(paper: (230, 250, 230), ink: (0, 80, 0), seed: 4, stripes: true),
      rightNext: next)
  }

  static let styles = ["curl", "leaves", "fold"]

  /// Mean absolute difference per channel byte (0…255).
  static func meanAbsDiff(_ a: PixelBuffer, _ b: PixelBuffer) -> Double {
    precondition(a.pixels.count == b.pixels.count)
    var sum = 0
    for i in 0..<a.pixels.count { sum += abs(Int(a.pixels[i]) - Int(b.pixels[i])) }
    return Double(sum) / Double(a.pixels.count)
  }

  static func scratchDirectory(_ name: String) throws -> String {
    let dir = NSTemporaryDirectory() + "quire-motion-tests-\(getpid())/\(name)"
    try? FileManager.default.removeItem(atPath: dir)
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    return dir
  }
}

/// Exact-PNG goldens in Goldens/ (QUIRE_BLESS=1 rewrites them in the source tree).
enum Golden {
  static var sourceDirectory: String {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Goldens")
      .path
  }

  static func check(_ image: PixelBuffer, name: String) throws {
    let path = sourceDirectory + "/" + name
    if ProcessInfo.processInfo.environment["QUIRE_BLESS"] == "1" {
      try Data(PNGEncoder.encode(image, level: 9)).write(to: URL(fileURLWithPath: path))
      return
    }
    let bundled =
      Bundle.module.url(forResource: "Goldens/" + name, withExtension: nil)
      ?? URL(fileURLWithPath: path)
    guard let data = try? Data(contentsOf: bundled) else {
      Issue.record("missing golden \(name): run with QUIRE_BLESS=1")
      return
    }
    guard let expected = try? PNGCodec.decode(data) else {
      Issue.record("golden \(name) is not an RGBA PNG")
      return
    }
    if expected != image {
      let actual = NSTemporaryDirectory() + "actual-" + name
      try? Data(PNGEncoder.encode(image, level: 2)).write(to: URL(fileURLWithPath: actual))
      Issue.record("\(name) differs from the golden (actual written to \(actual))")
    }
  }
}
