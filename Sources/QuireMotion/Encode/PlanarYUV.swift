import Foundation

/// A frame as 8-bit planar Y′CbCr 4:2:0 (ffmpeg's `yuv420p`): the Y plane at full size, then
/// Cb and Cr at half size each way, every plane rows top to bottom without padding.
///
/// The video sink converts in its parallel per-frame step so ffmpeg receives 1.5 bytes a pixel
/// instead of 4 and runs no scaler. The matrix is ITU-R BT.601 with limited ("video") range —
/// what ffmpeg's `-pix_fmt yuv420p` does to RGB input when nothing else is asked, and what
/// players assume for untagged SD/HD H.264 — with coefficients in 16-bit fixed point rounded
/// so that every gray (R = G = B) has Cb = Cr = 128 exactly and white is Y 235, black Y 16.
/// Chroma is the mean of each 2×2 block. Alpha is ignored (frames are opaque; ffmpeg drops it
/// too). Odd sizes are padded to even ones with white on the right and at the bottom.
package enum PlanarYUV {
  /// Even sizes: the frame's, rounded up.
  package static func paddedSize(width: Int, height: Int) -> (width: Int, height: Int) {
    (width + (width & 1), height + (height & 1))
  }

  /// The bytes of `frame` (gray8 or rgba8) as yuv420p at `paddedSize`.
  package static func data(_ frame: PixelBuffer) -> Data {
    let (w, h) = paddedSize(width: frame.width, height: frame.height)
    let lumaBytes = w * h
    let chromaBytes = (w / 2) * (h / 2)
    var out = Data(count: lumaBytes + 2 * chromaBytes)
    out.withUnsafeMutableBytes { raw in
      let dst = raw.bindMemory(to: UInt8.self)
      frame.pixels.withUnsafeBufferPointer { src in
        let planes = Planes(
          y: dst.baseAddress!, cb: dst.baseAddress! + lumaBytes,
          cr: dst.baseAddress! + lumaBytes + chromaBytes, width: w)
        for row in stride(from: 0, to: h, by: 2) {
          if frame.format == .rgba8, row + 1 < frame.height, frame.width == w {
            convertRGBARowPair(src.baseAddress! + row * w * 4, row: row, into: planes)
          } else {
            convertRowPair(src, frame, row: row, into: planes)
          }
        }
      }
    }
    return out
  }

  /// Where one converted frame goes.
  private struct Planes {
    var y: UnsafeMutablePointer<UInt8>
    var cb: UnsafeMutablePointer<UInt8>
    var cr: UnsafeMutablePointer<UInt8>
    var width: Int
  }

  /// Rows `row` and `row + 1` of an rgba8 frame of even width, both inside the frame (the
  /// common case, without per-pixel tests).
  private static func convertRGBARowPair(
    _ top: UnsafePointer<UInt8>, row: Int, into p: Planes
  ) {
    let bottom = top + 4 * p.width
    let yTop = p.y + row * p.width
    let yBottom = yTop + p.width
    let c = (row / 2) * (p.width / 2)
    for x2 in 0..<(p.width / 2) {
      let o = 8 * x2
      let (r0, g0, b0) = (Int(top[o]), Int(top[o + 1]), Int(top[o + 2]))
      let (r1, g1, b1) = (Int(top[o + 4]), Int(top[o + 5]), Int(top[o + 6]))
      let (r2, g2, b2) = (Int(bottom[o]), Int(bottom[o + 1]), Int(bottom[o + 2]))
      let (r3, g3, b3) = (Int(bottom[o + 4]), Int(bottom[o + 5]), Int(bottom[o + 6]))
      yTop[2 * x2] = luma(r0, g0, b0)
      yTop[2 * x2 + 1] = luma(r1, g1, b1)
      yBottom[2 * x2] = luma(r2, g2, b2)
      yBottom[2 * x2 + 1] = luma(r3, g3, b3)
      let sum = (r: r0 + r1 + r2 + r3, g: g0 + g1 + g2 + g3, b: b0 + b1 + b2 + b3)
      p.cb[c + x2] = blueDifference(sum.r, sum.g, sum.b)
      p.cr[c + x2] = redDifference(sum.r, sum.g, sum.b)
    }
  }

  /// Rows `row` and `row + 1` of the padded frame: their luma and one row of chroma.
  private static func convertRowPair(
    _ src: UnsafeBufferPointer<UInt8>, _ frame: PixelBuffer, row: Int, into p: Planes
  ) {
    let channels = frame.format.channels
    let rows = (row, Swift.min(row + 1, frame.height))
    for x2 in 0..<(p.width / 2) {
      var sum = (r: 0, g: 0, b: 0)
      for dy in 0..<2 {
        let y = dy == 0 ? rows.0 : rows.1
        for dx in 0..<2 {
          let x = 2 * x2 + dx
          var (r, g, b) = (255, 255, 255)  // the white pad
          if x < frame.width, y < frame.height {
            let i = (y * frame.width + x) * channels
            if channels == 1 {
              (r, g, b) = (Int(src[i]), Int(src[i]), Int(src[i]))
            } else {
              (r, g, b) = (Int(src[i]), Int(src[i + 1]), Int(src[i + 2]))
            }
          }
          sum = (sum.r + r, sum.g + g, sum.b + b)
          p.y[(row + dy) * p.width + x] = luma(r, g, b)
        }
      }
      let c = (row / 2) * (p.width / 2) + x2
      p.cb[c] = blueDifference(sum.r, sum.g, sum.b)
      p.cr[c] = redDifference(sum.r, sum.g, sum.b)
    }
  }

  /// Cb of a 2×2 block from its sums of R, G, B: 128 + 224 · (B′ − Y′) / (1.772 · 255), with
  /// the four-pixel mean folded into the shift.
  @inline(__always)
  private static func blueDifference(_ r: Int, _ g: Int, _ b: Int) -> UInt8 {
    UInt8(truncatingIfNeeded: (-9714 * r - 19070 * g + 28784 * b + 0x202_0000) >> 18)
  }

  /// Cr of a 2×2 block from its sums of R, G, B: 128 + 224 · (R′ − Y′) / (1.402 · 255).
  @inline(__always)
  private static func redDifference(_ r: Int, _ g: Int, _ b: Int) -> UInt8 {
    UInt8(truncatingIfNeeded: (28784 * r - 24103 * g - 4681 * b + 0x202_0000) >> 18)
  }

  /// BT.601 limited-range luma: 16 + 219 · (0.299 R + 0.587 G + 0.114 B) / 255, rounded.
  @inline(__always)
  private static func luma(_ r: Int, _ g: Int, _ b: Int) -> UInt8 {
    UInt8(truncatingIfNeeded: (16829 * r + 33039 * g + 6416 * b + 0x10_8000) >> 16)
  }
}
