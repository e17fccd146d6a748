// Filled paths (`DisplayItem.path`, FilledPath.swift) through FreeType's anti-aliased scan
// converter: the path becomes an `FT_Outline` in 26.6 units over the part of the canvas it
// covers, `FT_Outline_Get_Bitmap` writes its exact-area coverage into a gray bitmap, and the
// canvas composites that coverage in the path's colour like a glyph's. The same converter
// draws every glyph, so a strike-through and the letters under it are equally smooth.
//
// Bounds: a path of more than `FilledPath.maxPoints` points or with a coordinate beyond ±10⁶ px
// (or not finite) is not drawn, so 26.6 coordinates stay far inside FreeType's range; the
// bitmap covers only the path's bounds clipped to the canvas.

import CFreeType
import Foundation
import QuireTypeset

extension GlyphRasterizer {
  /// The coverage of `path` over the canvas part it covers: `rows` rows of `width` bytes
  /// whose top-left pixel is (`x`, `y`); nil when nothing is covered.
  func coverage(of path: FilledPath, canvasWidth: Int, canvasHeight: Int)
    -> (bits: [UInt8], width: Int, rows: Int, x: Int, y: Int)?
  {
    let points = path.contours.flatMap { $0 }
    guard let library, !points.isEmpty, points.count <= FilledPath.maxPoints,
      points.allSatisfy({ abs($0.x) < 1e6 && abs($0.y) < 1e6 })
    else { return nil }
    let b = path.bounds
    let x0 = max(0, Int(b.x.rounded(.down)))
    let y0 = max(0, Int(b.y.rounded(.down)))
    let x1 = min(canvasWidth, Int(min(1e7, b.maxX).rounded(.up)))
    let y1 = min(canvasHeight, Int(min(1e7, b.maxY).rounded(.up)))
    guard x0 < x1, y0 < y1 else { return nil }
    let (w, h) = (x1 - x0, y1 - y0)
    var vectors = points.map {
      // Outline space: y up from the bitmap's bottom edge, 26.6 fixed point.
      FT_Vector(
        x: FT_Pos((($0.x - Double(x0)) * 64).rounded()),
        y: FT_Pos(((Double(y1) - $0.y) * 64).rounded()))
    }
    var tags = points.map { CChar($0.onCurve ? FT_CURVE_TAG_ON : FT_CURVE_TAG_CUBIC) }
    var ends: [Int16] = []
    var n = 0
    for c in path.contours where !c.isEmpty {
      n += c.count
      ends.append(Int16(n - 1))
    }
    var bits = [UInt8](repeating: 0, count: w * h)
    let ok = bits.withUnsafeMutableBufferPointer { buf -> Bool in
      vectors.withUnsafeMutableBufferPointer { v in
        tags.withUnsafeMutableBufferPointer { t in
          ends.withUnsafeMutableBufferPointer { e in
            var outline = FT_Outline()
            outline.n_contours = Int16(e.count)
            outline.n_points = Int16(v.count)
            outline.points = v.baseAddress
            outline.tags = t.baseAddress
            outline.contours = e.baseAddress
            outline.flags = 0  // non-zero winding
            var bitmap = FT_Bitmap()
            bitmap.rows = UInt32(h)
            bitmap.width = UInt32(w)
            bitmap.pitch = Int32(w)
            bitmap.buffer = buf.baseAddress
            bitmap.num_grays = 256
            bitmap.pixel_mode = UInt8(FT_PIXEL_MODE_GRAY.rawValue)
            return FT_Outline_Get_Bitmap(library, &outline, &bitmap) == 0
          }
        }
      }
    }
    return ok ? (bits, w, h, x0, y0) : nil
  }
}
