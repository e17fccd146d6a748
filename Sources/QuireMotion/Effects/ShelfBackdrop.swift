/// The bookshelf a book opens from (`quire open`): a wall with wooden shelf boards, drawn
/// once per animation as a canvas-sized picture that every frame starts from.
///
/// Geometry: one board under the book's shelf rectangle (its top edge is the rectangle's
/// bottom), and boards repeated every `rowPitch` = 1.25 × the book's height above and below
/// it; a board is 6 % of the pitch thick (at least 4 px), lit on top, darker toward its front
/// edge, and casts a short shadow on the wall below it. The wall is a vertical gradient,
/// lighter at the top. Plain loops over the pixels: the picture is drawn once, then each
/// frame copies it.
package enum ShelfBackdrop {
  static let wallTop = SIMD3<Double>(236, 229, 217)
  static let wallBottom = SIMD3<Double>(214, 203, 186)
  static let boardTop = SIMD3<Double>(170, 121, 76)
  static let boardFront = SIMD3<Double>(128, 86, 50)

  /// A `width` × `height` shelf whose board carries a book standing in `book`.
  package static func image(width: Int, height: Int, book: LayerRect) -> PixelBuffer {
    let w = max(0, width)
    let h = max(0, height)
    var px = [UInt8](repeating: 255, count: w * h * 4)
    let pitch = max(8, 1.25 * book.height)
    let thickness = max(4, 0.06 * pitch)
    let shadowDepth = max(3, 0.5 * thickness)
    for y in 0..<h {
      let fy = Double(y) + 0.5
      // Position inside the repeating row, measured from the board's top edge.
      var k = (fy - book.maxY).truncatingRemainder(dividingBy: pitch)
      if k < 0 { k += pitch }
      var c: SIMD3<Double>
      if k < thickness {
        let u = k / thickness
        c = boardTop + (boardFront - boardTop) * u
      } else {
        let u = h > 1 ? fy / Double(h) : 0
        c = wallTop + (wallBottom - wallTop) * u
        let below = k - thickness
        if below < shadowDepth {
          let s = 1 - below / shadowDepth
          c *= 1 - 0.35 * s * s
        }
      }
      let r = UInt8(min(255, max(0, c.x.rounded())))
      let g = UInt8(min(255, max(0, c.y.rounded())))
      let b = UInt8(min(255, max(0, c.z.rounded())))
      for x in 0..<w {
        let o = (y * w + x) * 4
        px[o] = r
        px[o + 1] = g
        px[o + 2] = b
      }
    }
    return PixelBuffer(width: w, height: h, format: .rgba8, pixels: px)
  }
}
