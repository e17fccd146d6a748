// Resampler: a decoded picture scaled to the size it is drawn at, premultiplied.
//
// Units: source and target are whole pixels; a target pixel i along an axis covers the source
// interval [i·s, (i+1)·s) with s = source / target. Shrinking averages every source pixel by
// its overlap with that interval (a box filter: area average, what PIL's `Image.reduce` and
// `Image.BOX` compute); enlarging interpolates bilinearly between the two nearest centres.
// The filter is separable: each source row is resampled across into premultiplied floats,
// then each target row is the weighted sum of the few resampled rows it covers. Alpha
// weights colour across (premultiplying before averaging), so a transparent pixel's colour
// never bleeds into its neighbours.
//
// Cost: a cover drawn on a page is ~0.5 M target pixels, resampled at every first render of
// its page. The taps (first source index, count, weights per target pixel) are computed once
// per axis. The pass down is flat: a target row is `sum[i] += row[i] * weight` over the row's
// floats, one resampled source row at a time, which the compiler vectorises; the rounding to
// bytes adds and subtracts 2^23 instead of converting with `UInt8(_:)`, whose range checks
// cost more than the arithmetic. Target rows are cut into bands resampled on all cores (each
// band keeps its own ring of resampled source rows, so a source row at a band's edge is
// resampled twice — a few rows against the whole picture). Moby-dick's 646x902 cover to
// 573x800: 77.6 M instructions before, 49.9 M now, in two bands.
//
// Determinism: every float gets the same IEEE operations in the same order as the scalar
// loops this replaced (no fused multiply-add, no reassociation), and a band's rows are
// independent of the others, so the bytes are the same on one core or many, and the same as
// before (ResamplerTests keeps the scalar loops as the oracle).
//
// Rejected: `SIMD4<Float>` per pixel (the clamps and conversions came out as scalar code with
// NaN checks: more instructions than the scalar loops); integer fixed point (fewer
// instructions, but a change of scaled pixels by a level and the goldens with them);
// libswscale and pixman (a dependency each, with their own rounding, and neither
// premultiplies the way the compositor expects).

import Dispatch
import Foundation
import QuireCore

/// An image scaled to its placement, premultiplied RGBA8, ready to composite.
struct ScaledImage: Sendable {
  var width: Int
  var height: Int
  var premultiplied: [UInt8]
}

enum Resampler {
  /// Source taps and weights for each output sample along one axis: area average when
  /// shrinking (every source pixel contributes by its overlap), bilinear when enlarging.
  struct Taps: Sendable {
    var start: [Int32] = []
    var count: [Int32] = []
    var weights: [Float] = []  // `maxTaps` per output sample
    var maxTaps = 0
  }

  /// The fewest target pixels resampled in bands on more than one core (smaller pictures
  /// cost less than handing the work to another thread).
  static let bandedPixels = 1 << 16

  static func taps(source: Int, target: Int) -> Taps {
    let scale = Double(source) / Double(target)
    return scale > 1
      ? areaTaps(source: source, target: target, scale: scale)
      : bilinearTaps(source: source, target: target, scale: scale)
  }

  /// Box-filter taps: each source pixel weighted by its overlap with the target pixel.
  private static func areaTaps(source: Int, target: Int, scale: Double) -> Taps {
    var t = Taps()
    t.maxTaps = Int(scale.rounded(.up)) + 1
    t.weights = [Float](repeating: 0, count: t.maxTaps * target)
    for i in 0..<target {
      let a = Double(i) * scale
      let b = Swift.min(Double(source), Double(i + 1) * scale)
      let j0 = Int(a.rounded(.down))
      let j1 = Swift.min(source - 1, Int(b.rounded(.up)) - 1)
      t.start.append(Int32(j0))
      var n = 0
      for j in j0...Swift.max(j0, j1) where n < t.maxTaps {
        let overlap = Swift.min(b, Double(j + 1)) - Swift.max(a, Double(j))
        t.weights[i * t.maxTaps + n] = Float(Swift.max(0, overlap) / scale)
        n += 1
      }
      t.count.append(Int32(n))
    }
    return t
  }

  /// Bilinear taps: the two source centres around the target pixel's centre.
  private static func bilinearTaps(source: Int, target: Int, scale: Double) -> Taps {
    var t = Taps()
    t.maxTaps = 2
    t.weights = [Float](repeating: 0, count: 2 * target)
    for i in 0..<target {
      let c = (Double(i) + 0.5) * scale - 0.5
      let j0 = Int(c.rounded(.down))
      let f = Float(c - Double(j0))
      let a = Swift.min(Swift.max(j0, 0), source - 1)
      let b = Swift.min(Swift.max(j0 + 1, 0), source - 1)
      t.start.append(Int32(a))
      if b == a {
        t.count.append(1)
        t.weights[2 * i] = 1
      } else {
        t.count.append(2)
        t.weights[2 * i] = 1 - f
        t.weights[2 * i + 1] = f
      }
    }
    return t
  }

  /// Straight RGBA8 → premultiplied RGBA8 of the given size, separable filter. Rows are
  /// resampled horizontally on demand and kept only while an output row still needs them,
  /// so the working memory is a few rows per band, not a float copy of the whole source.
  /// `bands` (tests) fixes how many bands the target rows are cut into; by default one per
  /// core for pictures of at least `bandedPixels`, else one.
  static func scale(_ src: PixelBuffer, width: Int, height: Int, bands: Int? = nil)
    -> ScaledImage
  {
    let s = src.converted(to: .rgba8)
    let plan = Plan(
      sourceWidth: s.width, width: width,
      across: taps(source: s.width, target: width), down: taps(source: s.height, target: height))
    var out = [UInt8](repeating: 0, count: width * height * 4)
    let cores = ProcessInfo.processInfo.activeProcessorCount
    let automatic = width * height >= bandedPixels ? cores : 1
    let count = Swift.max(1, Swift.min(bands ?? automatic, height))
    s.pixels.withUnsafeBufferPointer { px in
      out.withUnsafeMutableBufferPointer { o in
        guard let source = px.baseAddress, let target = o.baseAddress else { return }
        let rows = Rows(source: source, target: target)
        if count == 1 {
          plan.scale(0..<height, rows)
        } else {
          DispatchQueue.concurrentPerform(iterations: count) { band in
            plan.scale(height * band / count..<height * (band + 1) / count, rows)
          }
        }
      }
    }
    return ScaledImage(width: width, height: height, premultiplied: out)
  }

  /// The source pixels and the target rows being written. @unchecked Sendable: bands write
  /// disjoint target rows of one buffer that outlives them (`concurrentPerform` returns only
  /// when every band is done) and only read the source.
  struct Rows: @unchecked Sendable {
    let source: UnsafePointer<UInt8>
    let target: UnsafeMutablePointer<UInt8>
  }

  /// The taps of both axes and the sizes they join.
  struct Plan: Sendable {
    let sourceWidth: Int
    let width: Int
    let across: Taps
    let down: Taps

    /// Target rows `ys`, each from the source rows its taps name, resampled across into a
    /// ring of this band's own (source row j lives in slot j % ring while it is needed).
    func scale(_ ys: Range<Int>, _ rows: Rows) {
      let ring = down.maxTaps + 1
      let span = 4 * width
      var resampled = [Float](repeating: 0, count: ring * span)
      var sums = [Float](repeating: 0, count: span)
      var slotRow = [Int](repeating: -1, count: ring)
      resampled.withUnsafeMutableBufferPointer { resampled in
        sums.withUnsafeMutableBufferPointer { sums in
          let (ringBase, sum) = (resampled.baseAddress!, sums.baseAddress!)
          for y in ys {
            let first = Int(down.start[y])
            for k in 0..<Int(down.count[y]) {
              let (j, slot) = (first + k, (first + k) % ring)
              if slotRow[slot] != j {
                resampleRow(rows.source + 4 * j * sourceWidth, into: ringBase + slot * span)
                slotRow[slot] = j
              }
              let weight = down.weights[y * down.maxTaps + k]
              Self.accumulate(ringBase + slot * span, weight, into: sum, span, first: k == 0)
            }
            Self.store(sum, width, into: rows.target + y * span)
          }
        }
      }
    }

    /// `sum[i] += row[i] * weight` over one row of floats (`=` for the first tap: the terms
    /// are never negative, so starting from the product is starting from zero), in a flat
    /// loop the compiler vectorises; every float gets its taps in the same order.
    private static func accumulate(
      _ row: UnsafePointer<Float>, _ weight: Float, into sum: UnsafeMutablePointer<Float>,
      _ count: Int, first: Bool
    ) {
      if first {
        for i in 0..<count { sum[i] = row[i] * weight }
      } else {
        for i in 0..<count { sum[i] += row[i] * weight }
      }
    }

    /// One target row of premultiplied RGBA8 from its sums: `UInt8(min(a, max(0, c + 0.5)))`
    /// per colour with `a = min(255, max(0, alpha + 0.5))`, so no colour exceeds its alpha.
    private static func store(
      _ sum: UnsafePointer<Float>, _ width: Int, into out: UnsafeMutablePointer<UInt8>
    ) {
      for x in 0..<width {
        let s = sum + 4 * x
        let a = Swift.min(255, Swift.max(0, s[3] + 0.5))
        out[4 * x] = wholeByte(Swift.min(a, Swift.max(0, s[0] + 0.5)))
        out[4 * x + 1] = wholeByte(Swift.min(a, Swift.max(0, s[1] + 0.5)))
        out[4 * x + 2] = wholeByte(Swift.min(a, Swift.max(0, s[2] + 0.5)))
        out[4 * x + 3] = wholeByte(a)
      }
    }

    /// `UInt8(v)` (truncation) for v in 0...255 without the conversion's range checks:
    /// adding 2^23 rounds v to the nearest whole number in the float's low bits, less one
    /// where that rounded up.
    @inline(__always)
    private static func wholeByte(_ v: Float) -> UInt8 {
      let t = v + 8_388_608
      let roundedUp: UInt32 = t - 8_388_608 > v ? 1 : 0
      return UInt8(truncatingIfNeeded: t.bitPattern &- roundedUp)
    }

    /// One source row resampled across to premultiplied floats (four per pixel) at `target`.
    private func resampleRow(
      _ source: UnsafePointer<UInt8>, into target: UnsafeMutablePointer<Float>
    ) {
      across.start.withUnsafeBufferPointer { start in
        across.count.withUnsafeBufferPointer { count in
          across.weights.withUnsafeBufferPointer { weights in
            for x in 0..<width {
              var p = source + 4 &* Int(start[x])
              var w = weights.baseAddress! + x &* across.maxTaps
              let end = w + Int(count[x])
              var acc: (Float, Float, Float, Float) = (0, 0, 0, 0)
              while w < end {
                let a = Float(p[3]) * w.pointee
                acc.0 += Float(p[0]) * a
                acc.1 += Float(p[1]) * a
                acc.2 += Float(p[2]) * a
                acc.3 += a
                p += 4
                w += 1
              }
              let t = target + 4 &* x
              t[0] = acc.0 / 255
              t[1] = acc.1 / 255
              t[2] = acc.2 / 255
              t[3] = acc.3
            }
          }
        }
      }
    }
  }
}
