import Foundation

/// `quire open`: a book opening from its shelf cell, iBooks style. Two motions at once: the
/// book rectangle moves and scales from `from` (canvas coordinates) to the whole canvas,
/// while the cover rotates about its left edge (anchor (0, 0.5)) from 0 to −π/2 toward the
/// viewer, revealing the first page beneath. The cover's transform is built as
/// `perspective(d).rotated(by:)` — rotate first, then project (m34 = −1/d set BEFORE the
/// rotation; setting m34 on an already rotated matrix only narrows the cover, the seed's
/// bug). Closing plays the same frames backwards and ends in the shelf cell.
/// t is linear progress 0…1 (apply a timing function before calling).
package struct BookOpenAnimation: Sendable {
  package var cover: PixelBuffer
  package var firstPage: PixelBuffer
  package var canvasWidth: Int
  package var canvasHeight: Int
  package var from: LayerRect
  package var background: RGBA
  /// Eye distance d in pixels (m34 = −1/d).
  package var perspective: Double

  package init(
    cover: PixelBuffer, firstPage: PixelBuffer, canvas: (width: Int, height: Int),
    from: (x: Double, y: Double, w: Double, h: Double), background: RGBA = .white,
    perspective: Double = 800
  ) {
    self.cover = cover
    self.firstPage = firstPage
    canvasWidth = canvas.width
    canvasHeight = canvas.height
    self.from = LayerRect(x: from.x, y: from.y, width: from.w, height: from.h)
    self.background = background
    self.perspective = perspective
  }

  /// The frame at progress t of opening (or, with `closing`, of closing).
  package func frame(at t: Double, closing: Bool = false) -> PixelBuffer {
    let p = min(max(closing ? 1 - t : t, 0), 1)
    let cw = Double(canvasWidth)
    let ch = Double(canvasHeight)
    func l(_ a: Double, _ b: Double) -> Double { a + (b - a) * p }
    let rect = LayerRect(
      x: l(from.minX, 0), y: l(from.minY, 0), width: l(from.width, cw), height: l(from.height, ch))
    let root = Layer(frame: LayerRect(x: 0, y: 0, width: cw, height: ch))
    let book = Layer(frame: rect)
    book.shadowOpacity = 0.5 * (1 - p)
    book.shadowRadius = 10
    book.shadowOffset = LayerSize(width: 0, height: 4)
    let page = Layer(frame: LayerRect(x: 0, y: 0, width: rect.width, height: rect.height))
    page.contents = firstPage
    page.backgroundColor = .white
    book.addSublayer(page)
    // The cover's inside shadow on the first page fades as the cover lifts away.
    let shade = Layer(frame: page.frame)
    shade.backgroundColor = .black
    shade.opacity = 0.4 * (1 - p) * (1 - p)
    book.addSublayer(shade)
    let coverLayer = Layer()
    coverLayer.bounds = LayerRect(x: 0, y: 0, width: rect.width, height: rect.height)
    coverLayer.anchorPoint = LayerPoint(x: 0, y: 0.5)
    coverLayer.position = LayerPoint(x: 0, y: rect.height / 2)
    coverLayer.contents = cover
    coverLayer.isDoubleSided = false
    coverLayer.transform = Transform3D.perspective(perspective).rotated(
      by: -Double.pi / 2 * p, y: 1)
    book.addSublayer(coverLayer)
    root.addSublayer(book)
    return Compositor(width: canvasWidth, height: canvasHeight, background: background)
      .render(presentation: root)
  }
}
