// The shared machinery of the per-pixel leaf renderers (curl, leaves, fold).
//
// Coordinates. Every leaf effect works in *page coordinates*: x to the right, y down, in
// pixels, the turning page occupying [0, W) × [0, H), pixel (i, j) covering
// [i, i+1) × [j, j+1) with its centre at (i + 0.5, j + 0.5). The leaf turns about its left
// edge x = 0 (the spine side) and travels left. A single page renders on a canvas of width W
// (canvas x = page x); a spread on a canvas of width 2W with the page at canvas x ∈ [W, 2W)
// and the left page of the spread at page x ∈ [−W, 0).
//
// The effects are written in the inverse form: for each output pixel, find which page point
// (if any) lands there, sample it, shade it. This touches every output pixel exactly once,
// needs no intermediate layers and no polygon rasterizer, and is embarrassingly parallel.
// The alternative — drawing the leaf through the layer compositor as transformed quads — was
// rejected here: a cylinder is not a quad, and resampling through several layers blurs text.

/// The four images a leaf effect composes, already arranged in page coordinates.
struct LeafFaces: Sendable {
  /// The front of the leaf: the page that turns (current / right page of the current spread).
  var front: PixelBuffer
  /// The back of the leaf, indexed by the same page point as `front` (so mirrored content is
  /// stored mirrored), or nil for blank paper.
  var back: PixelBuffer?
  /// Fraction of white laid over the back (0.8 shows the page through the paper).
  var backVeil: Float
  /// The page revealed under the leaf.
  var beneath: PixelBuffer
  /// For spreads: the page left of the spine (canvas [0, W)). Nil for a single page.
  var left: PixelBuffer?

  var width: Int { front.width }
  var height: Int { front.height }
  var canvasWidth: Int { left == nil ? front.width : 2 * front.width }
  /// Page x of canvas x = 0.
  var originX: Int { left == nil ? 0 : front.width }

  init(
    front: PixelBuffer, back: PixelBuffer?, backVeil: Float, beneath: PixelBuffer,
    left: PixelBuffer?
  ) {
    self.front = front.asRGBA()
    self.back = back?.asRGBA()
    self.backVeil = backVeil
    self.beneath = beneath.asRGBA()
    self.left = left?.asRGBA()
  }

  /// A single page with the back the options ask for.
  /// - mirrored: the current page seen through the paper (stored unmirrored: page point p
  ///   shows current(p), which reads mirrored once the leaf is flipped) under 80 % white.
  /// - blank: white paper.
  /// - next: the next page, readable once the leaf is flipped (as on a double-sided leaf, and
  ///   as the left page of a spread), without veil.
  init(pages: TurnPages, back: LeafBack) {
    switch back {
    case .mirrored:
      self.init(
        front: pages.current, back: pages.current, backVeil: 0.8, beneath: pages.next,
        left: nil)
    case .blank:
      self.init(front: pages.current, back: nil, backVeil: 0, beneath: pages.next, left: nil)
    case .next:
      self.init(
        front: pages.current, back: pages.next.flippedLeftRight(), backVeil: 0,
        beneath: pages.next, left: nil)
    }
  }

  /// A spread: the right page turns; its back is the next spread's left page.
  init(spread: SpreadPages) {
    self.init(
      front: spread.rightCurrent, back: spread.leftNext.flippedLeftRight(), backVeil: 0,
      beneath: spread.rightNext, left: spread.leftCurrent)
  }
}

/// An effect that can draw a leaf on a single page or a spread (the renderer's spread path).
protocol LeafEffect: PageTurnEffect {
  /// Progress p ∈ [0, 1]: p = 0 must give the untouched front (and left page), p = 1 the
  /// beneath page with the back lying flat on the left page's place.
  func render(progress: Double, faces: LeafFaces, corner: TurnCorner) -> PixelBuffer
}

extension LeafEffect {
  func leafFrame(at t: Double, pages: TurnPages, options: TurnOptions) -> PixelBuffer {
    if t <= 0 { return pages.current }
    if t >= 1 { return pages.next }
    return render(
      progress: t, faces: LeafFaces(pages: pages, back: options.back),
      corner: options.corner)
  }
}

/// The endpoints every leaf effect returns exactly (no shading, no shadow).
extension LeafFaces {
  var startImage: PixelBuffer {
    left.map { PixelBuffer.joinedSideBySide($0, front) } ?? front
  }
  var endImage: PixelBuffer {
    guard let left else { return beneath }
    _ = left
    return PixelBuffer.joinedSideBySide(back.map { $0.flippedLeftRight() } ?? blankPage, beneath)
  }
  var blankPage: PixelBuffer { PixelBuffer(width: width, height: height, format: .rgba8) }
}

extension PixelBuffer {
  /// The same image seen in a mirror (columns reversed).
  func flippedLeftRight() -> PixelBuffer {
    let c = format.channels
    var out = [UInt8](repeating: 0, count: pixels.count)
    pixels.withUnsafeBufferPointer { src in
      out.withUnsafeMutableBufferPointer { dst in
        if c == 4, let from = src.baseAddress, let to = dst.baseAddress {
          // RGBA: one 32-bit move per pixel.
          let s = UnsafeRawPointer(from)
          let d = UnsafeMutableRawPointer(to)
          for y in 0..<height {
            let row = y * width * 4
            for x in 0..<width {
              let texel = s.loadUnaligned(fromByteOffset: row + x * 4, as: UInt32.self)
              d.storeBytes(of: texel, toByteOffset: row + (width - 1 - x) * 4, as: UInt32.self)
            }
          }
          return
        }
        for y in 0..<height {
          let row = y * width * c
          for x in 0..<width {
            let s = row + x * c
            let d = row + (width - 1 - x) * c
            for k in 0..<c { dst[d + k] = src[s + k] }
          }
        }
      }
    }
    return PixelBuffer(width: width, height: height, format: format, pixels: out)
  }

  /// Two same-height images side by side (formats must match).
  static func joinedSideBySide(_ a: PixelBuffer, _ b: PixelBuffer) -> PixelBuffer {
    precondition(a.height == b.height && a.format == b.format, "joinedSideBySide: mismatch")
    let c = a.format.channels
    var out = [UInt8]()
    out.reserveCapacity((a.width + b.width) * a.height * c)
    for y in 0..<a.height {
      out.append(contentsOf: a.pixels[(y * a.width * c)..<((y + 1) * a.width * c)])
      out.append(contentsOf: b.pixels[(y * b.width * c)..<((y + 1) * b.width * c)])
    }
    return PixelBuffer(width: a.width + b.width, height: a.height, format: a.format, pixels: out)
  }

  /// RGBA8 (gray pages are expanded; effects work in RGBA).
  func asRGBA() -> PixelBuffer { format == .rgba8 ? self : converted(to: .rgba8) }
}

// MARK: - Per-pixel helpers (inlined into the effects' inner loops)

typealias Texel = SIMD4<Float>

/// Read-only view of an RGBA8 page for sampling.
struct PageView {
  let base: UnsafePointer<UInt8>
  let width: Int
  let height: Int

  @inline(__always) func pixel(_ x: Int, _ y: Int) -> Texel {
    let o = (y * width + x) * 4
    return Texel(Float(base[o]), Float(base[o + 1]), Float(base[o + 2]), Float(base[o + 3]))
  }

  /// Bilinear sample at page point (px, py) (pixel centres at i + 0.5), clamped to the edge.
  @inline(__always) func sample(_ px: Float, _ py: Float) -> Texel {
    let u = px - 0.5
    let v = py - 0.5
    let fu = u.rounded(.down)
    let fv = v.rounded(.down)
    let ax = u - fu
    let ay = v - fv
    var x0 = Int(fu)
    var y0 = Int(fv)
    var x1 = x0 + 1
    var y1 = y0 + 1
    x0 = Swift.min(Swift.max(x0, 0), width - 1)
    x1 = Swift.min(Swift.max(x1, 0), width - 1)
    y0 = Swift.min(Swift.max(y0, 0), height - 1)
    y1 = Swift.min(Swift.max(y1, 0), height - 1)
    if ax == 0 && ay == 0 { return pixel(x0, y0) }
    let top = pixel(x0, y0) * (1 - ax) + pixel(x1, y0) * ax
    let bottom = pixel(x0, y1) * (1 - ax) + pixel(x1, y1) * ax
    return top * (1 - ay) + bottom * ay
  }
}

/// `c` rounded half up, clamped to 0…255, at byte `o`: `packedBytes` (the Compositor's floor,
/// exact, no checked conversion per lane) of c + ½.
@inline(__always) func store(_ c: Texel, _ out: UnsafeMutablePointer<UInt8>, _ o: Int) {
  UnsafeMutableRawPointer(out + o).storeBytes(of: packedBytes(c + 0.5), as: UInt32.self)
}

@inline(__always) func copyPixel(
  _ src: UnsafePointer<UInt8>, _ so: Int, _ out: UnsafeMutablePointer<UInt8>, _ o: Int
) {
  out[o] = src[so]
  out[o + 1] = src[so + 1]
  out[o + 2] = src[so + 2]
  out[o + 3] = src[so + 3]
}

/// Darkens colour channels (not alpha) toward black by `alpha`.
@inline(__always) func shadowed(_ c: Texel, _ alpha: Float) -> Texel {
  let k = 1 - alpha
  return Texel(c.x * k, c.y * k, c.z * k, c.w)
}

@inline(__always) func mix(_ a: Texel, _ b: Texel, _ t: Float) -> Texel { a + (b - a) * t }

@inline(__always) func clamp01(_ v: Float) -> Float { Swift.min(1, Swift.max(0, v)) }

/// Opaque white paper. Computed, not a stored global: a global `let` is initialised lazily
/// and every read in a pixel loop called `swift_once` (~0.6 M instructions a leaves frame).
var paperWhite: Texel { Texel(255, 255, 255, 255) }

/// Runs `body` with raw views of the faces and a fresh output canvas.
func withLeafCanvas(
  _ faces: LeafFaces,
  _ body: (
    _ out: UnsafeMutablePointer<UInt8>, _ front: PageView, _ back: PageView?, _ beneath: PageView,
    _ left: PageView?
  ) -> Void
) -> PixelBuffer {
  let w = faces.width
  let h = faces.height
  var out = [UInt8](repeating: 0, count: faces.canvasWidth * h * 4)
  faces.front.pixels.withUnsafeBufferPointer { f in
    faces.beneath.pixels.withUnsafeBufferPointer { b in
      withOptionalBuffer(faces.back) { bk in
        withOptionalBuffer(faces.left) { l in
          out.withUnsafeMutableBufferPointer { o in
            body(
              o.baseAddress!, PageView(base: f.baseAddress!, width: w, height: h),
              bk.map { PageView(base: $0, width: w, height: h) },
              PageView(base: b.baseAddress!, width: w, height: h),
              l.map { PageView(base: $0, width: w, height: h) })
          }
        }
      }
    }
  }
  return PixelBuffer(width: faces.canvasWidth, height: h, format: .rgba8, pixels: out)
}

private func withOptionalBuffer(
  _ buffer: PixelBuffer?, _ body: (UnsafePointer<UInt8>?) -> Void
) {
  guard let buffer else { return body(nil) }
  buffer.pixels.withUnsafeBufferPointer { body($0.baseAddress!) }
}

/// Copies canvas columns [a, b) of row y unchanged from `page` (page x = canvas x − originX)
/// or, left of the spine, from the spread's left page (canvas x).
@inline(__always) func copyRun(
  _ out: UnsafeMutablePointer<UInt8>, canvasWidth: Int, row y: Int, from a: Int, to b: Int,
  originX: Int, page: PageView, left: PageView?
) {
  let a = Swift.max(0, a)
  let b = Swift.min(canvasWidth, b)
  guard a < b else { return }
  let w = page.width
  let rowOut = y * canvasWidth * 4
  let leftEnd = Swift.min(b, originX)
  if a < leftEnd, let left {
    (out + rowOut + a * 4).update(from: left.base + (y * w + a) * 4, count: (leftEnd - a) * 4)
  }
  let s = Swift.max(a, originX)
  if s < b {
    (out + rowOut + s * 4).update(from: page.base + (y * w + s - originX) * 4, count: (b - s) * 4)
  }
}
