import Foundation

/// A premultiplied RGBA working surface: Float channels on the 0…255 scale, so that an
/// opaque 8-bit pixel copied in and rounded out is bit-identical.
struct Canvas {
  let width: Int
  let height: Int
  var px: [Float]
  /// The union of the areas drawn into (x0, y0, x1, y1), exclusive upper bounds.
  var dirty = (x0: Int.max, y0: Int.max, x1: Int.min, y1: Int.min)

  init(width: Int, height: Int, fill: RGBA = .clear) {
    self.width = width
    self.height = height
    let a = Float(fill.alpha * 255)
    let pm: [Float] = [Float(fill.red) * a, Float(fill.green) * a, Float(fill.blue) * a, a]
    if a == 0 {
      px = [Float](repeating: 0, count: width * height * 4)
    } else {
      let pixel = SIMD4<Float>(pm[0], pm[1], pm[2], pm[3])
      px = [Float](unsafeUninitializedCapacity: width * height * 4) { buf, n in
        let p = UnsafeMutableRawPointer(buf.baseAddress!)
        for i in 0..<(width * height) {
          p.storeBytes(of: pixel, toByteOffset: i * 16, as: SIMD4<Float>.self)
        }
        n = width * height * 4
      }
    }
  }

  /// The canvas holding an opaque RGBA8 or gray picture of its size, pixel for pixel.
  init(opaque image: PixelBuffer) {
    width = image.width
    height = image.height
    let n = width * height
    let gray = image.format.channels == 1
    px = [Float](unsafeUninitializedCapacity: n * 4) { buf, count in
      let d = UnsafeMutableRawPointer(buf.baseAddress!)
      image.pixels.withUnsafeBytes { s in
        if gray {
          for i in 0..<n {
            let g = Float(s[i])
            d.storeBytes(of: SIMD4(g, g, g, 255), toByteOffset: i &* 16, as: SIMD4<Float>.self)
          }
          return
        }
        // Every alpha byte is 255 (the caller's promise), so the texel widens as it is; no
        // lane is overwritten (that would make the compiler widen the bytes one by one).
        for i in 0..<n {
          let p = SIMD4<Float>(s.loadUnaligned(fromByteOffset: i &* 4, as: SIMD4<UInt8>.self))
          d.storeBytes(of: p, toByteOffset: i &* 16, as: SIMD4<Float>.self)
        }
      }
      count = n * 4
    }
    dirty = (0, 0, width, height)
  }

  mutating func markDirty(_ x0: Int, _ y0: Int, _ x1: Int, _ y1: Int) {
    dirty = (min(dirty.x0, x0), min(dirty.y0, y0), max(dirty.x1, x1), max(dirty.y1, y1))
  }

  /// Straight-alpha RGBA8 with rounding to nearest (floor(v + ½), clamped to 0…255).
  func pixelBuffer() -> PixelBuffer {
    let n = width * height
    var out = [UInt8](repeating: 0, count: n * 4)
    let w = width
    px.withUnsafeBufferPointer { s in
      out.withUnsafeMutableBufferPointer { d in
        let src = RowSource(base: s.baseAddress!)
        let dst = RowBytes(base: d.baseAddress!)
        forEachRow(0, height, pixels: n) { y in
          let from = UnsafeRawPointer(src.base)
          let to = UnsafeMutableRawPointer(dst.base)
          var i = y * w
          let end = i + w
          // Four pixels at a time where all four are opaque (the common case), else one by one.
          // The test reads the four alphas as Int32 bit patterns: non-negative floats order as
          // their bits, negative ones (and −0) are negative (a vector `all` over sixteen lanes
          // cost ~35 instructions a quad in its reduction).
          while i + 4 <= end {
            let o = i &* 16 &+ 12
            let a0 = from.load(fromByteOffset: o, as: Int32.self)
            let a1 = from.load(fromByteOffset: o &+ 16, as: Int32.self)
            let a2 = from.load(fromByteOffset: o &+ 32, as: Int32.self)
            let a3 = from.load(fromByteOffset: o &+ 48, as: Int32.self)
            if min(min(a0, a1), min(a2, a3)) >= opaqueAlphaBits {
              let p = from.load(fromByteOffset: i &* 16, as: SIMD16<Float>.self)
              to.storeBytes(of: packedOpaqueQuad(p), toByteOffset: i &* 4, as: SIMD16<UInt8>.self)
            } else {
              for k in i..<(i + 4) { packPixel(from, to, k) }
            }
            i += 4
          }
          for k in i..<end { packPixel(from, to, k) }
        }
      }
    }
    return PixelBuffer(width: width, height: height, format: .rgba8, pixels: out)
  }

  /// Source-over of `other` (same size) scaled by `opacity`, within other's dirty area.
  mutating func composite(_ other: Canvas, opacity: Float) {
    let x0 = max(other.dirty.x0, 0)
    let y0 = max(other.dirty.y0, 0)
    let x1 = min(other.dirty.x1, width)
    let y1 = min(other.dirty.y1, height)
    guard x0 < x1, y0 < y1 else { return }
    markDirty(x0, y0, x1, y1)
    let w = width
    other.px.withUnsafeBufferPointer { s in
      px.withUnsafeMutableBufferPointer { d in
        for y in y0..<y1 {
          for x in x0..<x1 {
            let i = (y * w + x) * 4
            let sa = s[i + 3] * opacity
            if sa <= 0 { continue }
            let k = 1 - sa / 255
            d[i] = s[i] * opacity + d[i] * k
            d[i + 1] = s[i + 1] * opacity + d[i + 1] * k
            d[i + 2] = s[i + 2] * opacity + d[i + 2] * k
            d[i + 3] = sa + d[i + 3] * k
          }
        }
      }
    }
  }
}

/// The four lanes clamped to 0…255 and truncated (floor), packed as bytes x, y, z, w in
/// memory order. Exact without a per-lane float-to-integer conversion: adding 2²³ leaves
/// the lane rounded to the nearest integer in the low mantissa bits, and one step back is
/// taken where that rounding went up. (A generic SIMD conversion is not specialised by this
/// toolchain and costs a call per lane.)
@inline(__always) func packedBytes(_ v: SIMD4<Float>) -> UInt32 {
  let c = v.replacing(with: 0, where: v .< 0).replacing(with: 255, where: v .> 255)
  let magic = SIMD4<Float>(repeating: 8_388_608)
  let t = c + magic
  var bits = unsafeBitCast(t, to: SIMD4<UInt32>.self) & 0xFF
  bits &-= SIMD4<UInt32>(repeating: 0).replacing(with: 1, where: t - magic .> c)
  // Narrowing lane by lane (pack instructions), read back in memory order.
  return unsafeBitCast(SIMD4<UInt8>(truncatingIfNeeded: bits), to: UInt32.self)
}

/// Canvas pixel `i` (premultiplied floats at `from`) as straight-alpha RGBA8 at `to`
/// (`Canvas.pixelBuffer`); a pixel of alpha ≤ ½ is left as it is (zero).
@inline(__always) func packPixel(_ from: UnsafeRawPointer, _ to: UnsafeMutableRawPointer, _ i: Int)
{
  let p = from.load(fromByteOffset: i &* 16, as: SIMD4<Float>.self)
  let a = p.w
  if a <= 0.5 { return }
  var q: SIMD4<Float>
  if a >= 254.5 {
    q = p + 0.5
    q.w = 255
  } else {
    q = p * (255 / a) + 0.5
    q.w = a + 0.5
  }
  to.storeBytes(of: packedBytes(q), toByteOffset: i &* 4, as: UInt32.self)
}

/// `(254.5 as Float).bitPattern`, the least alpha `packPixel` rounds to 255, as an Int32 (the
/// patterns of non-negative floats order as the floats). A literal, so no lazy global.
let opaqueAlphaBits: Int32 = 0x437E_8000

/// Four opaque pixels (every alpha ≥ 254.5) as RGBA8: `packPixel`'s arithmetic — v + ½
/// clamped and floored as `packedBytes` does — sixteen lanes at once. The alphas need no
/// lane of their own: a + ½ ≥ 255 clamps to 255.
@inline(__always) func packedOpaqueQuad(_ p: SIMD16<Float>) -> SIMD16<UInt8> {
  let v = p + 0.5
  let c = v.replacing(with: 0, where: v .< 0).replacing(with: 255, where: v .> 255)
  let magic = SIMD16<Float>(repeating: 8_388_608)
  let t = c + magic
  var bits = unsafeBitCast(t, to: SIMD16<UInt32>.self) & 0xFF
  bits &-= SIMD16<UInt32>(repeating: 0).replacing(with: 1, where: t - magic .> c)
  return SIMD16<UInt8>(truncatingIfNeeded: bits)
}

/// Read-only rows shared with row workers (see `RowTarget`).
struct RowSource: @unchecked Sendable {
  let base: UnsafePointer<Float>
}

/// Output bytes written by row workers, one disjoint row each (see `RowTarget`).
struct RowBytes: @unchecked Sendable {
  let base: UnsafeMutablePointer<UInt8>
}

/// Box-blurs one channel-plane region three times per axis, approximating a Gaussian of
/// standard deviation `sigma` (the "boxes for Gauss" widths). Values outside are zero.
/// Deterministic: sequential running sums.
func gaussianApproximation(_ plane: inout [Float], width: Int, height: Int, sigma: Double) {
  guard sigma > 0.2, width > 0, height > 0 else { return }
  let n = 3.0
  let wIdeal = (12 * sigma * sigma / n + 1).squareRoot()
  var wl = Int(wIdeal.rounded(.down))
  if wl % 2 == 0 { wl -= 1 }
  wl = max(wl, 1)
  let wu = wl + 2
  let mIdeal =
    (12 * sigma * sigma - n * Double(wl * wl) - 4 * n * Double(wl) - 3 * n)
    / (-4 * Double(wl) - 4)
  let m = Int(mIdeal.rounded())
  let sizes = (0..<3).map { $0 < m ? wl : wu }
  var tmp = [Float](repeating: 0, count: max(width, height))
  for size in sizes {
    let r = (size - 1) / 2
    guard r > 0 else { continue }
    let inv = 1 / Float(size)
    // Horizontal.
    for y in 0..<height {
      let row = y * width
      var acc: Float = 0
      for x in 0..<min(r, width) { acc += plane[row + x] }
      for x in 0..<width {
        if x + r < width { acc += plane[row + x + r] }
        tmp[x] = acc * inv
        if x - r >= 0 { acc -= plane[row + x - r] }
      }
      for x in 0..<width { plane[row + x] = tmp[x] }
    }
    // Vertical.
    for x in 0..<width {
      var acc: Float = 0
      for y in 0..<min(r, height) { acc += plane[y * width + x] }
      for y in 0..<height {
        if y + r < height { acc += plane[(y + r) * width + x] }
        tmp[y] = acc * inv
        if y - r >= 0 { acc -= plane[(y - r) * width + x] }
      }
      for y in 0..<height { plane[y * width + x] = tmp[y] }
    }
  }
}
