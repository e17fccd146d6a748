import Foundation

/// A stiff leaf (a board cover, a hard page), drawn through the layer compositor: the page
/// rotates rigidly in 3-D about its spine (the left edge) from 0 to −π, toward the viewer,
/// with perspective about the canvas centre, revealing the page beneath, which the leaf's
/// shadow darkens mid-turn. The leaf is two single-sided layers back to back: the front
/// (the turning page, shaded as it turns from the screen plane) and the back (per
/// `LeafFaces`: the page seen through the paper under a white veil, blank paper, or the next
/// page), visible past π/2.
///
/// A single page's spine is the canvas's left edge, so past π/2 the leaf has left the canvas.
/// Through `PageTurnRenderer`'s spread path (a `LeafEffect`) the canvas is two pages wide,
/// the spine in the middle, and the back lands on the left page. Forward and left-to-right
/// only, per the contract; `PageTurnRenderer` adds backward turns and right-to-left books.
package struct HardPageEffect: PageTurnEffect, LeafEffect {
  package let name = "hard"
  /// Eye distance as a multiple of the leaf width (m34 = −1/d, applied about the canvas
  /// centre). The leaf swings toward the eye, so a close eye magnifies it at first (its free
  /// edge moves outward before it comes back): at 6 widths the free edge is 1.2× taller
  /// edge-on, and the turn uncovers the next page steadily from the start.
  package var perspectiveFactor = 6.0
  /// Darkness of the leaf's shadow on the page beneath at the leaf's edge, reached mid-turn
  /// (0…1); it fades over half a page width and grows and fades with the turn as sin(π·t).
  package var shadowStrength = 0.4
  /// Darkening of the leaf's front as it turns away from the screen plane: k·sin(angle).
  package var leafShading = 0.2

  package init() {}

  package func frame(at t: Double, pages: TurnPages, options: TurnOptions) -> PixelBuffer {
    leafFrame(at: t, pages: pages, options: options)
  }

  func render(progress t: Double, faces: LeafFaces, corner: TurnCorner) -> PixelBuffer {
    if t <= 0 { return faces.startImage }
    if t >= 1 { return faces.endImage }
    let pw = Double(faces.width)
    let h = Double(faces.height)
    let cw = faces.canvasWidth
    let spine = Double(faces.originX)
    let root = Layer(frame: LayerRect(x: 0, y: 0, width: Double(cw), height: h))
    root.sublayerTransform = .perspective(perspectiveFactor * max(pw, 1))

    let under = Layer(frame: LayerRect(x: spine, y: 0, width: pw, height: h))
    under.contents = faces.beneath
    root.addSublayer(under)
    if let left = faces.left {
      let l = Layer(frame: LayerRect(x: 0, y: 0, width: pw, height: h))
      l.contents = left
      root.addSublayer(l)
    }
    // The leaf's shadow on the page beneath: darkest along the leaf's projected free edge
    // (or at the spine once the leaf has passed the vertical), fading over half a page.
    let angle = -Double.pi * t
    let d = perspectiveFactor * max(pw, 1)
    let cx = Double(cw) / 2
    let edgeX = cx + (spine + pw * cos(angle) - cx) / max(1 - pw * sin(-angle) / d, 1e-3)
    let start = min(max(edgeX, spine), spine + pw)
    let shade = GradientLayer()
    shade.frame = LayerRect(x: start, y: 0, width: pw * 0.5, height: h)
    let dark = shadowStrength * sin(Double.pi * t)
    // The strength is the layer's opacity (a Double), not the colour's 8-bit alpha.
    shade.colors = [.black, .clear]
    shade.opacity = dark
    shade.startPoint = LayerPoint(x: 0, y: 0.5)
    shade.endPoint = LayerPoint(x: 1, y: 0.5)
    root.addSublayer(shade)

    let leaf = Layer()
    leaf.bounds = LayerRect(x: 0, y: 0, width: pw, height: h)
    leaf.anchorPoint = LayerPoint(x: 0, y: 0.5)
    leaf.position = LayerPoint(x: spine, y: h / 2)
    leaf.transform = .rotation(angle, x: 0, y: 1, z: 0)

    let front = Layer(frame: leaf.bounds)
    front.contents = faces.front
    front.isDoubleSided = false
    let frontShade = Layer(frame: leaf.bounds)
    frontShade.backgroundColor = .black
    frontShade.opacity = leafShading * sin(min(Double.pi / 2, -angle))
    front.addSublayer(frontShade)

    // The back layer is turned half a revolution about its centre, so its local x = u sits
    // at leaf x = W − u; LeafFaces indexes the back by leaf point, hence the flip.
    let back = Layer(frame: leaf.bounds)
    back.transform = .rotation(Double.pi, x: 0, y: 1, z: 0)
    back.isDoubleSided = false
    back.backgroundColor = .white
    if let b = faces.back { back.contents = b.flippedLeftRight() }
    if faces.backVeil > 0 {
      let veil = Layer(frame: leaf.bounds)
      veil.backgroundColor = .white
      veil.opacity = Double(faces.backVeil)
      back.addSublayer(veil)
    }
    leaf.addSublayer(front)
    leaf.addSublayer(back)
    root.addSublayer(leaf)
    return Compositor(width: cw, height: faces.height, background: .white)
      .render(presentation: root)
  }
}
