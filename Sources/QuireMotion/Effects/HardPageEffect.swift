import Foundation

/// A stiff leaf (a board cover, a hard page), drawn through the layer compositor: the page
/// rotates rigidly in 3-D about its spine (the left edge) with perspective about the canvas
/// centre, revealing the page beneath, which the leaf's shadow darkens mid-turn (sin(πt)). The leaf is two single-sided layers back to back: the front
/// (the turning page, shaded as it turns from the screen plane) and the back (per
/// `LeafFaces`: the page seen through the paper under a white veil, blank paper, or the next
/// page), visible past π/2.
///
/// A single page's spine is the canvas's left edge, so the leaf turns only to π/2 (edge-on,
/// gone) over the whole turn: it keeps moving to the last frame.
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
    // A single page has no room left of its spine: the leaf turns a quarter turn toward the
    // viewer over the whole turn (edge-on, gone, at t = 1) instead of half a turn with its
    // second half off the canvas. A spread's leaf turns half a turn onto the left page, away
    // from the viewer (toward the viewer it would grow past the canvas's top and bottom).
    let spreadLeaf = faces.left != nil
    let d = perspectiveFactor * max(pw, 1)
    // A single page turns until it is edge-on to the eye (half a page right of its free
    // edge): atan(d / 1.5W), where it has reached the spine and vanishes, exactly at t = 1.
    let edgeOn = atan(d / (1.5 * max(pw, 1)))
    let angle = spreadLeaf ? Double.pi * t : -edgeOn * t
    // The eye: over the spine for a spread; for a single page half a page right of its free
    // edge, so the free edge moves in from the first frame (seen from the canvas centre it
    // would first swing out, covering the page it should uncover).
    let cx = spreadLeaf ? Double(cw) / 2 : spine + 1.5 * pw
    root.anchorPoint = LayerPoint(x: cx / max(Double(cw), 1), y: 0.5)
    root.position = LayerPoint(x: cx, y: h / 2)
    // The leaf's projected free edge; its shadow falls on the page it moves over, darkest
    // along that edge and fading over half a page away from the spine: on the right page
    // while the leaf is there, on the left page once it has crossed.
    let edgeX = cx + (spine + pw * cos(angle) - cx) / max(1 + pw * sin(angle) / d, 1e-3)
    let shade = GradientLayer()
    if edgeX >= spine || !spreadLeaf {
      let start = min(max(edgeX, spine), spine + pw)
      shade.frame = LayerRect(x: start, y: 0, width: pw * 0.5, height: h)
      shade.colors = [.black, .clear]
    } else {
      shade.frame = LayerRect(x: max(edgeX, 0) - pw * 0.5, y: 0, width: pw * 0.5, height: h)
      shade.colors = [.clear, .black]
    }
    let dark = shadowStrength * sin(Double.pi * t)
    // The strength is the layer's opacity (a Double), not the colour's 8-bit alpha.
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
    frontShade.opacity = leafShading * sin(min(Double.pi / 2, abs(angle)))
    front.addSublayer(frontShade)

    // The back layer is turned half a revolution about its centre, so its local x = u sits
    // at leaf x = W − u; LeafFaces indexes the back by leaf point, hence the flip.
    let back = Layer(frame: leaf.bounds)
    back.transform = .rotation(Double.pi, x: 0, y: 1, z: 0)
    back.isDoubleSided = false
    back.backgroundColor = .white
    // A single page's leaf stops edge-on: its back never faces the viewer (it is culled), so
    // the mirrored picture is made only for a spread.
    if spreadLeaf, let b = faces.back { back.contents = b.flippedLeftRight() }
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
