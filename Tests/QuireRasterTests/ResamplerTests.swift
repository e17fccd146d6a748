import Foundation
import QuireCore
import Testing

@testable import QuireRaster

/// The resampler against two oracles: the scalar loops it replaced (byte for byte: the
/// vector and banded version must not move a single page pixel) and an area average computed
/// directly in Double from its definition (within one level per channel).
@Suite struct ResamplerTests {
  /// A deterministic RGBA8 picture: noise, or noise with every alpha 255.
  static func picture(_ width: Int, _ height: Int, seed: UInt64, opaque: Bool) -> PixelBuffer {
    var state = seed
    var pixels = [UInt8](repeating: 0, count: width * height * 4)
    for i in pixels.indices {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      pixels[i] = opaque && i % 4 == 3 ? 255 : UInt8(truncatingIfNeeded: state >> 33)
    }
    return PixelBuffer(width: width, height: height, format: .rgba8, pixels: pixels)
  }

  /// Source and target sizes: the moby-dick cover on a page, halving, strong shrinking,
  /// enlarging, one axis each way, single rows and columns.
  static let sizes: [(Int, Int, Int, Int)] = [
    (646, 902, 573, 800), (64, 48, 32, 24), (400, 300, 37, 23), (30, 20, 90, 70),
    (50, 40, 20, 60), (7, 5, 3, 1), (1, 1, 5, 9), (9, 1, 4, 1), (5, 300, 5, 17),
  ]

  @Test(arguments: [false, true])
  func matchesTheScalarResamplerByteForByte(opaque: Bool) {
    for (k, (sw, sh, tw, th)) in Self.sizes.enumerated() {
      let src = Self.picture(sw, sh, seed: UInt64(k + 1), opaque: opaque)
      let expected = ScalarResampler.scale(src, width: tw, height: th)
      for bands in [1, 2, 3, 7] {
        let scaled = Resampler.scale(src, width: tw, height: th, bands: bands)
        #expect(scaled.width == tw && scaled.height == th)
        let differing = zip(scaled.premultiplied, expected).filter { $0 != $1 }.count
        #expect(differing == 0, "\(sw)x\(sh) → \(tw)x\(th) in \(bands) bands")
      }
    }
  }

  @Test func shrinkingIsTheAreaAverageWithinOneLevel() {
    for (k, (sw, sh, tw, th)) in Self.sizes.enumerated() where sw > tw && sh >= th {
      let src = Self.picture(sw, sh, seed: UInt64(40 + k), opaque: false)
      let scaled = Resampler.scale(src, width: tw, height: th)
      let reference = Self.areaAverage(src, width: tw, height: th)
      let worst = zip(scaled.premultiplied, reference).map { abs(Int($0) - Int($1)) }.max() ?? 0
      #expect(worst <= 1, "\(sw)x\(sh) → \(tw)x\(th): off by \(worst)")
    }
  }

  @Test func aFlatColourStaysFlatAndNoColourExceedsItsAlpha() {
    var src = PixelBuffer(
      width: 97, height: 61, format: .rgba8,
      pixels: [UInt8](repeating: 0, count: 97 * 61 * 4))
    for i in stride(from: 0, to: src.pixels.count, by: 4) {
      src.pixels.replaceSubrange(i..<i + 4, with: [200, 100, 50, 128])
    }
    let scaled = Resampler.scale(src, width: 41, height: 29)
    for i in stride(from: 0, to: scaled.premultiplied.count, by: 4) {
      // 200 * 128 / 255 = 100.4, 100 * 128 / 255 = 50.2, 50 * 128 / 255 = 25.1.
      #expect(Array(scaled.premultiplied[i..<i + 4]) == [100, 50, 25, 128])
    }
    let noisy = Resampler.scale(
      Self.picture(300, 200, seed: 9, opaque: false), width: 71, height: 43)
    for i in stride(from: 0, to: noisy.premultiplied.count, by: 4) {
      let a = noisy.premultiplied[i + 3]
      #expect(noisy.premultiplied[i] <= a && noisy.premultiplied[i + 1] <= a)
      #expect(noisy.premultiplied[i + 2] <= a)
    }
  }

  /// Premultiplied area average of `src` over each target pixel's source rectangle, in
  /// Double, rounded half up (what the resampler's `+ 0.5` and truncation do).
  static func areaAverage(_ src: PixelBuffer, width: Int, height: Int) -> [UInt8] {
    let (sx, sy) = (Double(src.width) / Double(width), Double(src.height) / Double(height))
    var out = [UInt8](repeating: 0, count: width * height * 4)
    for ty in 0..<height {
      for tx in 0..<width {
        let (x0, x1) = (Double(tx) * sx, Double(tx + 1) * sx)
        let (y0, y1) = (Double(ty) * sy, Double(ty + 1) * sy)
        var sum = [Double](repeating: 0, count: 4)
        for y in Int(y0)..<min(src.height, Int(y1.rounded(.up))) {
          let wy = min(y1, Double(y + 1)) - max(y0, Double(y))
          for x in Int(x0)..<min(src.width, Int(x1.rounded(.up))) {
            let w = wy * (min(x1, Double(x + 1)) - max(x0, Double(x)))
            let p = 4 * (y * src.width + x)
            let a = Double(src.pixels[p + 3]) / 255
            for c in 0..<3 { sum[c] += w * Double(src.pixels[p + c]) * a }
            sum[3] += w * Double(src.pixels[p + 3])
          }
        }
        for c in 0..<4 {
          out[4 * (ty * width + tx) + c] = UInt8(
            min(255, (sum[c] / (sx * sy) + 0.5).rounded(.down)))
        }
      }
    }
    return out
  }
}

/// The resampler as it was before it was vectorised and banded (scalar loops over the
/// channels, one thread): the oracle for byte-for-byte equality.
enum ScalarResampler {
  static func scale(_ src: PixelBuffer, width: Int, height: Int) -> [UInt8] {
    let tx = Resampler.taps(source: src.width, target: width)
    let ty = Resampler.taps(source: src.height, target: height)
    var across = [Float](repeating: 0, count: src.height * width * 4)
    for y in 0..<src.height {
      for x in 0..<width {
        var acc: (Float, Float, Float, Float) = (0, 0, 0, 0)
        for k in 0..<Int(tx.count[x]) {
          let p = 4 * (y * src.width + Int(tx.start[x]) + k)
          let a = Float(src.pixels[p + 3]) * tx.weights[x * tx.maxTaps + k]
          acc.0 += Float(src.pixels[p]) * a
          acc.1 += Float(src.pixels[p + 1]) * a
          acc.2 += Float(src.pixels[p + 2]) * a
          acc.3 += a
        }
        let q = 4 * (y * width + x)
        (across[q], across[q + 1], across[q + 2], across[q + 3]) =
          (acc.0 / 255, acc.1 / 255, acc.2 / 255, acc.3)
      }
    }
    var out = [UInt8](repeating: 0, count: width * height * 4)
    for y in 0..<height {
      for x in 0..<width {
        var acc: (Float, Float, Float, Float) = (0, 0, 0, 0)
        for k in 0..<Int(ty.count[y]) {
          let w = ty.weights[y * ty.maxTaps + k]
          let q = 4 * ((Int(ty.start[y]) + k) * width + x)
          acc.0 += across[q] * w
          acc.1 += across[q + 1] * w
          acc.2 += across[q + 2] * w
          acc.3 += across[q + 3] * w
        }
        let a = min(255, max(0, acc.3 + 0.5))
        let o = 4 * (y * width + x)
        out[o] = UInt8(min(a, max(0, acc.0 + 0.5)))
        out[o + 1] = UInt8(min(a, max(0, acc.1 + 0.5)))
        out[o + 2] = UInt8(min(a, max(0, acc.2 + 0.5)))
        out[o + 3] = UInt8(a)
      }
    }
    return out
  }
}
