import Foundation
import QuireCore
import QuireIngest
import QuireTypeset

/// Draws `Page` display lists into pixel buffers. Safe to call from several threads at once:
/// each `render` borrows a `GlyphRasterizer` (its own FreeType state and glyph cache) from a
/// pool for the whole page; decoded images are shared behind a mutex.
package final class PageRenderer: Sendable {
  /// What the renderer's threads share: idle rasterizers and the warnings so far.
  private struct Shared {
    var idle: [GlyphRasterizer] = []
    var warningList: [Diagnostic] = []
    var warned: Set<Diagnostic> = []
  }

  private let store: FontStore
  private let imageStore: ImageStore
  private let glyphCacheBytes: Int
  private let shared = Mutex(Shared())
  /// How pre-paginated pages fill the output page (FixedPageFit.swift).
  package let fit: FixedFit

  /// - Parameters:
  ///   - fonts: the layout's font table; faces are opened on first use.
  ///   - images: the bytes for an image href (nil if the book lacks it).
  ///   - fit: how pre-paginated pages fill the output page.
  ///   - embeddedFonts: the book's fonts, for the `<text>` of its SVG images.
  ///   - scaledImages: where large pictures' scaled pixels are kept between runs (nil: none).
  package init(
    fonts: FontTable, images: @escaping @Sendable (String) -> Data?, fit: FixedFit = .contain,
    embeddedFonts: [EmbeddedFont] = [], scaledImages: (any ScaledImageArchive)? = nil
  ) {
    self.fit = fit
    self.store = FontStore(fonts)
    self.imageStore = ImageStore(
      images: images, budget: 32 << 20, svgFonts: embeddedFonts, archive: scaledImages)
    self.glyphCacheBytes = 4 << 20
  }

  /// Problems met so far (images that could not be decoded, fonts that would not open),
  /// each once, in the order first seen.
  package var warnings: [Diagnostic] {
    shared.withLock { $0.warningList }
  }

  private func warn(_ diagnostic: Diagnostic) {
    shared.withLock {
      if $0.warned.insert(diagnostic).inserted { $0.warningList.append(diagnostic) }
    }
  }

  private func checkout() -> GlyphRasterizer {
    shared.withLock { $0.idle.popLast() }
      ?? GlyphRasterizer(store: store, cacheBytes: glyphCacheBytes)
  }

  private func checkin(_ r: GlyphRasterizer) {
    shared.withLock { $0.idle.append(r) }
  }

  /// Renders `page` on white paper. Items are painted in order; RGBA colours are composited
  /// with their alpha; gray8 takes the Rec. 709 luminance of each colour. The canvas is
  /// bounded by `ImageLimits` (sides ≤ 16384, ≤ 100 MP): larger requests are cut down.
  package func render(_ page: Page, width: Int, height: Int, format: PixelBuffer.Format)
    -> PixelBuffer
  {
    if let viewport = page.rendition?.viewport {
      return renderFixed(page, viewport: viewport, width: width, height: height, format: format)
    }
    return paint(page, width: width, height: height, format: format)
  }

  /// Paints `page`'s display list on a `width`×`height` canvas (bounded as `render` says).
  func paint(_ page: Page, width: Int, height: Int, format: PixelBuffer.Format) -> PixelBuffer {
    let width = Swift.max(0, Swift.min(width, ImageLimits.maxSide))
    var height = Swift.max(0, Swift.min(height, ImageLimits.maxSide))
    if width > 0 && width * height > ImageLimits.maxPixels {
      height = ImageLimits.maxPixels / width
    }
    var canvas = Canvas(width: width, height: height, format: format)
    let rasterizer = checkout()
    defer { checkin(rasterizer) }
    if let background = page.background { paintBox(background, canvas: &canvas) }
    var budget = Swift.max(1 << 24, 16 * width * height)
    paintItems(page.items, canvas: &canvas, rasterizer: rasterizer, depth: 0, budget: &budget)
    return PixelBuffer(width: width, height: height, format: format, pixels: canvas.pixels)
  }

  /// Paints `items` in order; `depth` counts the transformed groups they are inside, `budget`
  /// is the layer pixels the page's transformed groups may still use (TransformedLayer.swift).
  func paintItems(
    _ items: [DisplayItem], canvas: inout Canvas, rasterizer: GlyphRasterizer, depth: Int,
    budget: inout Int
  ) {
    var clips: [OverflowClip] = []
    for (index, item) in items.enumerated() {
      defer {
        while let clip = clips.last, clip.last <= index {
          canvas.restore(outside: clip.rect, from: clip.saved)
          clips.removeLast()
        }
      }
      switch item {
      case .glyphs(let run):
        drawRun(run, rasterizer: rasterizer, canvas: &canvas)
      case .fill(let rect, let color):
        canvas.fill(rect, color: color)
      case .path(let path):
        guard path.color.a > 0,
          let c = rasterizer.coverage(
            of: path, canvasWidth: canvas.width, canvasHeight: canvas.height)
        else { break }
        let ink = Ink(path.color, format: canvas.format)
        c.bits.withUnsafeBufferPointer {
          canvas.blit($0.baseAddress!, width: c.width, rows: c.rows, x: c.x, y: c.y, ink: ink)
        }
      case .image(let placement):
        drawImage(placement, canvas: &canvas)
      case .box(let box):
        paintBox(box, canvas: &canvas)
        // The content after it is clipped to its padding box (its own border is drawn).
        if box.clippedItems > 0, clips.count < 64 {
          clips.append(
            OverflowClip(
              last: index + Swift.min(box.clippedItems, items.count), rect: box.paddingBox,
              saved: canvas.pixels))
        }
      case .transformed(let group):
        drawTransformed(
          group, canvas: &canvas, rasterizer: rasterizer, depth: depth, budget: &budget)
      }
    }
  }

  /// A box fragment, its background images decoded through the shared image store.
  private func paintBox(_ box: BoxPaint, canvas: inout Canvas) {
    let store = imageStore
    let images = BackgroundImages(
      size: { store.intrinsicSize(href: $0) },
      scaled: { href, w, h in
        switch store.image(href: href, width: w, height: h) {
        case .image(let scaled): return scaled
        case .failed(let error):
          self.warn(
            Diagnostic(.undrawableImage, file: ImageSource.name(href), message: error.reason))
          return nil
        }
      })
    BoxPainter.paint(box, on: &canvas, images: images)
  }

  private func drawRun(_ run: GlyphRun, rasterizer: GlyphRasterizer, canvas: inout Canvas) {
    guard run.size.isFinite, run.size > 0, run.size < 4096, run.color.a > 0 else { return }
    let n = Swift.min(run.glyphs.count, run.x.count, run.y.count)
    var key = GlyphKey(
      font: Int32(clamping: run.font), glyph: 0, size: Int32((run.size * 64).rounded()),
      variant: (run.syntheticBold ? 4 : 0) | (run.syntheticItalic ? 8 : 0))
    let flags = key.variant
    let ink = Ink(run.color, format: canvas.format)
    var error: RasterError?
    let limit = Float(1 << 24)
    let sideways = run.orientation == .sideways
    for i in 0..<n {
      let fx = run.x[i]
      let fy = run.y[i]
      guard fx.isFinite, fy.isFinite, abs(fx) < limit, abs(fy) < limit else { continue }
      // Sideways glyphs (vertical text, SidewaysGlyphs.swift) sit on whole pixels.
      let qx = sideways ? Int(fx.rounded()) * 4 : Int((fx * 4).rounded())
      let px = qx >> 2  // floor division for negatives too
      key.glyph = run.glyphs[i]
      key.variant = flags | UInt8(qx & 3)
      guard let (g, bits) = rasterizer.glyph(key, error: &error) else {
        if let error {
          warn(Diagnostic(.unrenderableFont, file: error.source, message: error.reason))
        }
        return
      }
      if g.width == 0 { continue }
      let py = Int(fy.rounded())
      if sideways {
        canvas.blitSideways(bits, g, x: px, y: py, ink: ink)
        continue
      }
      canvas.blit(
        bits, width: Int(g.width), rows: Int(g.rows), x: px + Int(g.left), y: py + Int(g.top),
        ink: ink)
    }
  }

  private func drawImage(_ placement: ImagePlacement, canvas: inout Canvas) {
    let r = placement.rect
    guard r.x.isFinite, r.y.isFinite, r.width.isFinite, r.height.isFinite else { return }
    let x0 = Int(Swift.max(-1e6, Swift.min(1e6, r.x)).rounded())
    let y0 = Int(Swift.max(-1e6, Swift.min(1e6, r.y)).rounded())
    let x1 = Int(Swift.max(-1e6, Swift.min(1e6, r.maxX)).rounded())
    let y1 = Int(Swift.max(-1e6, Swift.min(1e6, r.maxY)).rounded())
    let w = x1 - x0
    let h = y1 - y0
    guard w > 0, h > 0 else { return }
    if w > ImageLimits.maxSide || h > ImageLimits.maxSide {
      warn(
        Diagnostic(
          .undrawableImage, file: ImageSource.name(placement.href),
          message: "placement \(w)x\(h) exceeds the limits"))
      canvas.placeholder(placement.rect)
      return
    }
    switch imageStore.image(href: placement.href, width: w, height: h) {
    case .image(let scaled):
      canvas.composite(scaled, x: x0, y: y0, clip: placement.clip)
    case .failed(let error):
      warn(
        Diagnostic(.undrawableImage, file: ImageSource.name(placement.href), message: error.reason))
      canvas.placeholder(placement.rect)
    }
  }
}

/// A colour ready for one canvas format: gray8 keeps only its luminance.
struct Ink {
  var r: Int32, g: Int32, b: Int32, a: Int32
  var gray: Int32
  var isOpaqueBlack: Bool

  init(_ c: RGBA, format: PixelBuffer.Format) {
    r = Int32(c.r)
    g = Int32(c.g)
    b = Int32(c.b)
    a = Int32(c.a)
    gray = (54 * r + 183 * g + 19 * b + 128) >> 8
    isOpaqueBlack = a == 255 && (format == .gray8 ? gray == 0 : (r | g | b) == 0)
  }
}

@inline(__always)
private func div255(_ x: Int32) -> Int32 {
  // |x| ≤ 255 × 255 at every call: wrapping arithmetic never wraps, and without overflow
  // checks the blend loops vectorize.
  let t = x &+ 128
  return (t &+ (t >> 8)) >> 8
}

/// The page being drawn: opaque paper (alpha is always 255 in rgba8).
struct Canvas {
  let width: Int
  let height: Int
  let format: PixelBuffer.Format
  var pixels: [UInt8]

  /// A canvas of `paper` (white; a transformed layer also paints on black, TransformedLayer.swift).
  init(width: Int, height: Int, format: PixelBuffer.Format, paper: UInt8 = 255) {
    self.width = width
    self.height = height
    self.format = format
    pixels = [UInt8](repeating: paper, count: width * height * format.channels)
  }

  /// Paints coverage × ink. `bits` is `rows` rows of `width` bytes.
  mutating func blit(
    _ bits: UnsafePointer<UInt8>, width gw: Int, rows gh: Int, x: Int, y: Int, ink: Ink
  ) {
    let cx0 = Swift.max(0, -x)
    let cy0 = Swift.max(0, -y)
    let cx1 = Swift.min(gw, width - x)
    let cy1 = Swift.min(gh, height - y)
    guard cx0 < cx1, cy0 < cy1 else { return }
    let w = width
    let fmt = format
    pixels.withUnsafeMutableBufferPointer { buf in
      let base = buf.baseAddress!
      // No test for zero coverage: blending with 0 gives the pixel back exactly (div255 of
      // d × 255 is d; of 0 is 0), and branch-free rows vectorize.
      if fmt == .gray8 {
        if ink.isOpaqueBlack {
          // The benchmark case: black text on white gray paper.
          for r in cy0..<cy1 {
            let src = bits + r * gw
            let dst = base + (y + r) * w + x
            for c in cx0..<cx1 {
              let keep = 255 &- Int32(src[c])
              dst[c] = UInt8(truncatingIfNeeded: div255(Int32(dst[c]) &* keep))
            }
          }
        } else {
          for r in cy0..<cy1 {
            let src = bits + r * gw
            let dst = base + (y + r) * w + x
            for c in cx0..<cx1 {
              let cov = div255(Int32(src[c]) &* ink.a)
              let d = Int32(dst[c])
              dst[c] = UInt8(clamping: d &+ div255((ink.gray &- d) &* cov))
            }
          }
        }
      } else {
        for r in cy0..<cy1 {
          let src = bits + r * gw
          let dst = base + ((y + r) * w + x) * 4
          for c in cx0..<cx1 {
            let cov = div255(Int32(src[c]) &* ink.a)
            let p = dst + 4 * c
            p[0] = UInt8(clamping: Int32(p[0]) &+ div255((ink.r &- Int32(p[0])) &* cov))
            p[1] = UInt8(clamping: Int32(p[1]) &+ div255((ink.g &- Int32(p[1])) &* cov))
            p[2] = UInt8(clamping: Int32(p[2]) &+ div255((ink.b &- Int32(p[2])) &* cov))
          }
        }
      }
    }
  }

  /// A rectangle with anti-aliased edges: each pixel is covered by the product of its
  /// horizontal and vertical overlap with the rectangle.
  mutating func fill(_ rect: Rect, color: RGBA) {
    guard rect.x.isFinite, rect.y.isFinite, rect.width.isFinite, rect.height.isFinite,
      rect.width > 0, rect.height > 0, color.a > 0
    else { return }
    let fx0 = Swift.max(0, rect.x)
    let fy0 = Swift.max(0, rect.y)
    let fx1 = Swift.min(Double(width), rect.maxX)
    let fy1 = Swift.min(Double(height), rect.maxY)
    guard fx0 < fx1, fy0 < fy1 else { return }
    let ix0 = Int(fx0.rounded(.down))
    let iy0 = Int(fy0.rounded(.down))
    let ix1 = Int(fx1.rounded(.up))
    let iy1 = Int(fy1.rounded(.up))
    let gw = ix1 - ix0
    let gh = iy1 - iy0
    var xc = [Int32](repeating: 0, count: gw)
    for i in 0..<gw {
      let a = Swift.max(fx0, Double(ix0 + i))
      let b = Swift.min(fx1, Double(ix0 + i + 1))
      xc[i] = Int32((Swift.max(0, b - a) * 255).rounded())
    }
    var coverage = [UInt8](repeating: 0, count: gw * gh)
    for j in 0..<gh {
      let a = Swift.max(fy0, Double(iy0 + j))
      let b = Swift.min(fy1, Double(iy0 + j + 1))
      let yc = Int32((Swift.max(0, b - a) * 255).rounded())
      for i in 0..<gw { coverage[j * gw + i] = UInt8(div255(xc[i] * yc)) }
    }
    let ink = Ink(color, format: format)
    coverage.withUnsafeBufferPointer {
      blit($0.baseAddress!, width: gw, rows: gh, x: ix0, y: iy0, ink: ink)
    }
  }

  /// Stands in for an image that could not be drawn: light grey with a thin darker border.
  mutating func placeholder(_ r: Rect) {
    let border = RGBA(r: 0x99, g: 0x99, b: 0x99)
    fill(r, color: RGBA(r: 0xE8, g: 0xE8, b: 0xE8))
    let t = Swift.min(1, r.width / 2, r.height / 2)
    fill(Rect(x: r.x, y: r.y, width: r.width, height: t), color: border)
    fill(Rect(x: r.x, y: r.maxY - t, width: r.width, height: t), color: border)
    fill(Rect(x: r.x, y: r.y + t, width: t, height: r.height - 2 * t), color: border)
    fill(Rect(x: r.maxX - t, y: r.y + t, width: t, height: r.height - 2 * t), color: border)
  }

  /// Source-over of a premultiplied image at whole-pixel position.
  /// With `clip`, only the pixels inside it (page coordinates, rounded) are drawn.
  mutating func composite(_ img: ScaledImage, x: Int, y: Int, clip: Rect? = nil) {
    var (left, top, right, bottom) = (0, 0, width, height)
    if let c = clip, c.x.isFinite, c.y.isFinite, c.maxX.isFinite, c.maxY.isFinite {
      left = Swift.max(0, Int(Swift.max(-1e6, c.x).rounded()))
      top = Swift.max(0, Int(Swift.max(-1e6, c.y).rounded()))
      right = Swift.min(width, Int(Swift.min(1e6, c.maxX).rounded()))
      bottom = Swift.min(height, Int(Swift.min(1e6, c.maxY).rounded()))
    }
    let cx0 = Swift.max(0, left - x)
    let cy0 = Swift.max(0, top - y)
    let cx1 = Swift.min(img.width, right - x)
    let cy1 = Swift.min(img.height, bottom - y)
    guard cx0 < cx1, cy0 < cy1 else { return }
    let (w, iw, gray) = (width, img.width, format == .gray8)
    // Raw rows (the ranges are clipped above): a cover is ~0.5 M pixels, and per-byte bounds
    // checks were most of its compositing. An opaque pixel (inv 0) is the source's colour.
    img.premultiplied.withUnsafeBufferPointer { src in
      pixels.withUnsafeMutableBufferPointer { buf in
        guard let src = src.baseAddress, let buf = buf.baseAddress else { return }
        for r in cy0..<cy1 {
          let row = src + 4 * (r * iw)
          let out = gray ? buf + ((y + r) * w + x) : buf + 4 * ((y + r) * w + x)
          for c in cx0..<cx1 {
            let s = row + 4 * c
            let (sr, sg, sb) = (Int32(s[0]), Int32(s[1]), Int32(s[2]))
            let inv = 255 - Int32(s[3])
            if gray {
              let lum = (54 * sr + 183 * sg + 19 * sb + 128) >> 8
              out[c] = UInt8(clamping: inv == 0 ? lum : lum + div255(Int32(out[c]) * inv))
            } else {
              let o = out + 4 * c
              o[0] = UInt8(clamping: sr + div255(Int32(o[0]) * inv))
              o[1] = UInt8(clamping: sg + div255(Int32(o[1]) * inv))
              o[2] = UInt8(clamping: sb + div255(Int32(o[2]) * inv))
            }
          }
        }
      }
    }
  }
}
