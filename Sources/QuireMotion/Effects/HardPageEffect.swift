import Foundation
import QuireRaster

/// A stiff leaf (a board cover, a hard page): the page rotates rigidly in 3-D about its
/// spine with perspective, from 0 to −π, toward the viewer, revealing the next page, which
/// is darkened by the leaf's shadow while covered.
///
/// Single page (the default): the spine is the left edge, so past π/2 the leaf is beyond
/// the canvas. Spread (`options.spread`): each image is a two-page spread, the spine is the
/// vertical centre line, the leaf is the right half of `current`, its back (per
/// `options.back`: the left half of `next`, the leaf's own page mirrored under a white wash,
/// or blank paper) lands on the left half. Backward turns replay the forward turn from
/// `next` to `current` in reverse; right-to-left books are mirrored in and out.
public struct HardPageEffect: PageTurnEffect {
  public let name = "hard"
  /// Eye distance as a multiple of the page width (m34 = −1/d, applied about the centre).
  public var perspectiveFactor = 2.5
  /// Darkness of the shadow on the page beneath at the start of the turn (0…1).
  public var shadowStrength = 0.45

  public init() {}

  public func frame(at t: Double, pages: TurnPages, options: TurnOptions) -> PixelBuffer {
    orientedFrame(at: t, pages: pages, options: options) { t, p in
      forwardFrame(at: t, pages: p, options: options)
    }
  }

  func forwardFrame(at t: Double, pages: TurnPages, options: TurnOptions) -> PixelBuffer {
    if t <= 0 { return pages.current }
    if t >= 1 { return pages.next }
    let w = Double(pages.current.width)
    let h = Double(pages.current.height)
    let root = Layer(frame: LayerRect(x: 0, y: 0, width: w, height: h))
    let spine = options.spread ? (w / 2).rounded(.down) : 0
    let leafW = w - spine
    root.sublayerTransform = .perspective(perspectiveFactor * max(leafW, 1))

    // The pages beneath: the next page (its right half for a spread) and, for a spread, the
    // current left page that the leaf will cover.
    let under = Layer(frame: LayerRect(x: 0, y: 0, width: w, height: h))
    under.contents = pages.next
    root.addSublayer(under)
    if options.spread && spine > 0 {
      let left = Layer(frame: LayerRect(x: 0, y: 0, width: spine, height: h))
      left.contents = crop(pages.current, x: 0, width: Int(spine))
      root.addSublayer(left)
    }
    let shade = Layer(frame: LayerRect(x: spine, y: 0, width: leafW, height: h))
    shade.backgroundColor = .black
    shade.opacity = shadowStrength * (1 - t)
    root.addSublayer(shade)

    let angle = -Double.pi * t
    let leaf = Layer()
    leaf.bounds = LayerRect(x: 0, y: 0, width: leafW, height: h)
    leaf.anchorPoint = LayerPoint(x: 0, y: 0.5)
    leaf.position = LayerPoint(x: spine, y: h / 2)
    leaf.transform = Transform3D.rotation(angle, x: 0, y: 1, z: 0)
    let front = Layer(frame: LayerRect(x: 0, y: 0, width: leafW, height: h))
    front.contents = options.spread ? crop(pages.current, x: Int(spine), width: Int(leafW)) : pages.current
    front.isDoubleSided = false
    // Light falls off as the leaf turns away from the screen plane.
    let frontShade = Layer(frame: front.bounds)
    frontShade.backgroundColor = .black
    frontShade.opacity = 0.35 * sin(min(Double.pi / 2, -angle))
    front.addSublayer(frontShade)
    let back = Layer(frame: LayerRect(x: 0, y: 0, width: leafW, height: h))
    back.transform = Transform3D.rotation(Double.pi, x: 0, y: 1, z: 0)
    back.isDoubleSided = false
    back.backgroundColor = .white
    let frontImage = front.contents!
    switch options.back {
    case .blank: break
    case .next:
      back.contents = options.spread ? crop(pages.next, x: 0, width: Int(spine)) : pages.next
    case .mirrored:
      back.contents = mirrored(frontImage)
      let wash = Layer(frame: back.bounds)
      wash.backgroundColor = RGBA(r: 1, g: 1, b: 1, a: 0.8)
      back.addSublayer(wash)
    }
    back.contentsGravity = .resize
    leaf.addSublayer(front)
    leaf.addSublayer(back)
    root.addSublayer(leaf)
    return Compositor(width: pages.current.width, height: pages.current.height, background: .white)
      .render(presentation: root)
  }
}

/// Applies a page-turn's direction and reading order on top of a forward, left-to-right
/// renderer: a backward turn is the forward turn from `next` to `current` played backwards;
/// right-to-left mirrors the pages in and the frame out.
func orientedFrame(
  at t: Double, pages: TurnPages, options: TurnOptions,
  _ forward: (Double, TurnPages) -> PixelBuffer
) -> PixelBuffer {
  var p = pages
  var tt = min(max(t, 0), 1)
  if options.direction == .prev {
    p = TurnPages(current: pages.next, next: pages.current)
    tt = 1 - tt
  }
  if options.rightToLeft {
    let out = forward(tt, TurnPages(current: mirrored(p.current), next: mirrored(p.next)))
    return mirrored(out)
  }
  return forward(tt, p)
}

/// The image flipped left to right.
func mirrored(_ image: PixelBuffer) -> PixelBuffer {
  let c = image.format.channels
  let w = image.width
  var out = image.pixels
  image.pixels.withUnsafeBufferPointer { s in
    out.withUnsafeMutableBufferPointer { d in
      for y in 0..<image.height {
        let row = y * w * c
        for x in 0..<w {
          for k in 0..<c { d[row + x * c + k] = s[row + (w - 1 - x) * c + k] }
        }
      }
    }
  }
  return PixelBuffer(width: w, height: image.height, format: image.format, pixels: out)
}

/// Columns x..<x+width of an image (clamped to the image).
func crop(_ image: PixelBuffer, x: Int, width: Int) -> PixelBuffer {
  let c = image.format.channels
  let x0 = min(max(x, 0), image.width)
  let w = min(max(width, 0), image.width - x0)
  var out = [UInt8]()
  out.reserveCapacity(w * image.height * c)
  for y in 0..<image.height {
    let start = (y * image.width + x0) * c
    out.append(contentsOf: image.pixels[start..<(start + w * c)])
  }
  return PixelBuffer(width: w, height: image.height, format: image.format, pixels: out)
}
