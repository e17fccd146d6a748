import Foundation

/// `quire open`: a book opening from its shelf, iBooks style.
///
/// Rectangles. The book keeps its own aspect (the first page's, which the caller lays out at
/// the cover's aspect) on any canvas: it rests at the end in `pageRect`, the page's size
/// centred on the canvas (integer origin, so the last frame shows the page bit for bit), and
/// starts in the shelf rectangle `from` shrunk to the book's aspect (centred in it, standing
/// on its bottom edge). At progress p the book's rectangle is the linear blend of the two.
///
/// The cover. It turns about its spine edge — the left edge, or the right edge of a
/// right-to-left book — from 0 to π/2, toward the viewer, in perspective: the eye sits at
/// 2 book-widths, level with the book's centre and half a book-width beyond its free edge, so
/// the free edge moves toward the spine from the first frame (the page beneath shows at
/// once), the cover grows as it swings out, and it turns edge-on to the eye at atan(4/3)
/// (53°), after which its front faces away and it is gone (single-sided): the page beneath is
/// revealed throughout and nothing is left of the cover at p = 1. The page under the cover is
/// drawn from the first frame, darkened by the cover's shade (α 0.35·(1 − p)²); the book casts
/// a shadow on the shelf that fades as it leaves it; the shelf (`background`, or a plain
/// colour) stays behind the whole time. A right-to-left book is the mirror image: inputs are
/// mirrored once, the frame is drawn left-to-right and mirrored back.
///
/// Closing is the same picture at 1 − p: frame(t, closing) == frame(1 − t), so `--close` is
/// the opening's frames in reverse order. t is eased progress (the timeline applies the curve).
///
/// Alternative rejected: growing the book to the canvas's shape (the first version) stretches
/// the cover on any canvas whose aspect differs from the book's.
package struct BookOpenAnimation: Sendable {
  package var cover: PixelBuffer
  package var firstPage: PixelBuffer
  package var canvasWidth: Int
  package var canvasHeight: Int
  /// The shelf rectangle as given (canvas coordinates); the book uses `shelfRect`.
  package var from: LayerRect
  package var background: RGBA
  /// Eye distance as a multiple of the book's width (m34 = −1/d).
  package var perspective: Double
  /// Right-to-left book: the cover hinges on its right edge.
  package var rightToLeft: Bool
  /// What stands behind the book (the shelf), canvas-sized; nil: `background`.
  package var shelf: PixelBuffer?

  package init(
    cover: PixelBuffer, firstPage: PixelBuffer, canvas: (width: Int, height: Int),
    from: (x: Double, y: Double, w: Double, h: Double), background: RGBA = .white,
    perspective: Double = 2, rightToLeft: Bool = false, shelf: PixelBuffer? = nil
  ) {
    self.cover = cover
    self.firstPage = firstPage
    canvasWidth = canvas.width
    canvasHeight = canvas.height
    self.from = LayerRect(x: from.x, y: from.y, width: from.w, height: from.h)
    self.background = background
    self.perspective = min(max(perspective.isFinite ? perspective : 2, 1.2), 100)
    self.rightToLeft = rightToLeft
    self.shelf = shelf.flatMap {
      $0.width == canvas.width && $0.height == canvas.height ? $0.asRGBA() : nil
    }
    // The cover is drawn at most at the open book's size (up to a fifth larger while it
    // swings toward the eye): averaged down to that once, not resampled from full size in
    // every frame.
    self.cover = cover.reduced(
      toFit: Int((Double(firstPage.width) * 1.2).rounded(.up)),
      Int((Double(firstPage.height) * 1.2).rounded(.up)))
  }

  /// Where the open book rests: the page's size, centred, at an integer origin.
  package var pageRect: LayerRect {
    let w = Double(firstPage.width)
    let h = Double(firstPage.height)
    let x = ((Double(canvasWidth) - w) / 2).rounded(.down)
    let y = ((Double(canvasHeight) - h) / 2).rounded(.down)
    return LayerRect(x: x, y: y, width: w, height: h)
  }

  /// The book on the shelf: `from` shrunk to the book's aspect, centred across it and
  /// standing on its bottom edge.
  package var shelfRect: LayerRect {
    let aspect = Double(max(firstPage.width, 1)) / Double(max(firstPage.height, 1))
    var w = from.width
    var h = w / aspect
    if h > from.height {
      h = from.height
      w = h * aspect
    }
    return LayerRect(x: from.minX + (from.width - w) / 2, y: from.maxY - h, width: w, height: h)
  }

  /// The book's rectangle at progress p (0: on the shelf, 1: open).
  package func bookRect(at p: Double) -> LayerRect {
    let a = shelfRect
    let b = pageRect
    func l(_ u: Double, _ v: Double) -> Double { u + (v - u) * p }
    return LayerRect(
      x: l(a.minX, b.minX), y: l(a.minY, b.minY), width: l(a.width, b.width),
      height: l(a.height, b.height))
  }

  /// The frame at progress t of opening (or, with `closing`, of closing).
  package func frame(at t: Double, closing: Bool = false) -> PixelBuffer {
    let p = min(max(closing ? 1 - t : t, 0), 1)
    guard rightToLeft else { return drawn(at: p) }
    var mirror = self
    mirror.rightToLeft = false
    mirror.cover = cover.flippedLeftRight()
    mirror.firstPage = firstPage.flippedLeftRight()
    mirror.shelf = shelf?.flippedLeftRight()
    mirror.from.origin.x = Double(canvasWidth) - from.maxX
    // The page rectangle's origin rounds down; mirrored, it must land on the same pixels.
    let slack = Double(canvasWidth - firstPage.width).truncatingRemainder(dividingBy: 2)
    return mirror.drawn(at: p, pageShift: slack).flippedLeftRight()
  }

  /// The left-to-right frame at progress p; `pageShift` moves the resting rectangle right
  /// (a mirrored odd slack).
  private func drawn(at p: Double, pageShift: Double = 0) -> PixelBuffer {
    let cw = Double(canvasWidth)
    let ch = Double(canvasHeight)
    var rect = bookRect(at: p)
    rect.origin.x += pageShift * p
    // The eye: level with the book's centre, half a book-width beyond its free edge.
    let eyeX = rect.maxX + rect.width / 2
    let eyeY = rect.midY
    // The shelf stands still at the canvas's own pixels (copied, not resampled); the scene
    // above it carries the eye (its anchor) and the perspective.
    let root = Layer(frame: LayerRect(x: 0, y: 0, width: cw, height: ch))
    root.contents = shelf
    root.backgroundColor = background
    let scene = Layer(frame: root.bounds)
    scene.anchorPoint = LayerPoint(x: eyeX / max(cw, 1), y: eyeY / max(ch, 1))
    scene.position = LayerPoint(x: eyeX, y: eyeY)
    scene.sublayerTransform = .perspective(perspective * max(rect.width, 1))
    root.addSublayer(scene)
    let book = Layer(frame: rect)
    book.shadowOpacity = 0.45 * (1 - p)
    book.shadowRadius = 8
    book.shadowOffset = LayerSize(width: 0, height: 3)
    book.backgroundColor = .white
    let page = Layer(frame: LayerRect(x: 0, y: 0, width: rect.width, height: rect.height))
    page.contents = firstPage
    book.addSublayer(page)
    let shade = Layer(frame: page.frame)
    shade.backgroundColor = .black
    shade.opacity = 0.35 * (1 - p) * (1 - p)
    book.addSublayer(shade)
    let coverLayer = Layer()
    coverLayer.bounds = LayerRect(x: 0, y: 0, width: rect.width, height: rect.height)
    coverLayer.anchorPoint = LayerPoint(x: 0, y: 0.5)
    coverLayer.position = LayerPoint(x: 0, y: rect.height / 2)
    coverLayer.contents = cover
    coverLayer.isDoubleSided = false
    coverLayer.transform = .rotation(-Double.pi / 2 * p, x: 0, y: 1, z: 0)
    book.addSublayer(coverLayer)
    scene.addSublayer(book)
    return Compositor(width: canvasWidth, height: canvasHeight, background: background)
      .render(presentation: root)
  }
}
