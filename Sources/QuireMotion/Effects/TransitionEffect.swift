import Foundation

/// Core Animation transitions as page turns: "slide" (moveIn), "fade" and "push". Fade (and
/// reveal) are driven through the engine itself — a layer showing `current` gets a
/// `Transition` and then its contents are set to `next`; the frame is the presentation at
/// time t of a 1 s, linear transition (t is already eased by the caller). Slide and push are
/// the same motion built as placed layers, because a transition's progress stops at 1 and an
/// overshooting timing curve must carry the page past its rest; slide adds the shadow of the
/// incoming page's edge. The new page comes in from the right
/// (fromRight); per the contract `PageTurnRenderer` derives backward turns (played in
/// reverse, so the old page leaves to the right) and right-to-left books (mirrored).
package struct TransitionEffect: PageTurnEffect {
  package let type: TransitionType

  package init(type: TransitionType) { self.type = type }

  /// "slide" → moveIn, "fade", "push", "reveal"; nil for other names.
  package init?(name: String) {
    switch name {
    case "slide", "moveIn": type = .moveIn
    case "fade": type = .fade
    case "push": type = .push
    case "reveal": type = .reveal
    default: return nil
    }
  }

  package var name: String {
    switch type {
    case .moveIn: return "slide"
    case .fade: return "fade"
    case .push: return "push"
    case .reveal: return "reveal"
    }
  }

  package func frame(at t: Double, pages: TurnPages, options: TurnOptions) -> PixelBuffer {
    if t == 0 { return pages.current }
    if t == 1 { return pages.next }
    let w = pages.current.width
    let h = pages.current.height
    guard w > 0, h > 0 else { return pages.next }
    switch type {
    case .moveIn, .push: return slid(t, pages: pages)
    case .fade, .reveal: break
    }
    let p = Swift.min(1, Swift.max(0, t))
    if p == 0 { return pages.current }
    if p == 1 { return pages.next }
    let layer = Layer(frame: LayerRect(x: 0, y: 0, width: Double(w), height: Double(h)))
    layer.contents = pages.current
    let tr = Transition(type: type, subtype: .fromRight, duration: 1)
    tr.timingFunction = .linear
    layer.add(tr, forKey: "transition")
    layer.contents = pages.next
    return Compositor(width: w, height: h, background: .white).render(layer, at: p)
  }

  /// Width of the shadow the incoming page's left edge casts on the page it slides over, as
  /// a fraction of the page width, and its darkness at the edge.
  static let edgeShadow = (width: 0.04, opacity: 0.35)

  /// slide (moveIn) and push, drawn as layers placed at progress p directly, so a curve that
  /// overshoots (p > 1 or p < 0) carries the page past its rest and back. The incoming page's
  /// left edge sits at x = W(1 − p); in a slide it casts a shadow on the page beneath, which
  /// lies left of the edge and so leaves the canvas with it (frame(1) is `next` exactly), and
  /// fades in over the first eighth of the turn.
  private func slid(_ p: Double, pages: TurnPages) -> PixelBuffer {
    let w = Double(pages.current.width)
    let h = Double(pages.current.height)
    let root = Layer(frame: LayerRect(x: 0, y: 0, width: w, height: h))
    let edge = w * (1 - p)
    let old = Layer(frame: LayerRect(x: type == .push ? edge - w : 0, y: 0, width: w, height: h))
    old.contents = pages.current
    root.addSublayer(old)
    if type == .moveIn {
      let sw = Swift.max(2, Self.edgeShadow.width * w)
      let shadow = GradientLayer()
      shadow.frame = LayerRect(x: edge - sw, y: 0, width: sw, height: h)
      shadow.colors = [.clear, .black]
      shadow.startPoint = LayerPoint(x: 0, y: 0.5)
      shadow.endPoint = LayerPoint(x: 1, y: 0.5)
      shadow.opacity = Self.edgeShadow.opacity * Swift.min(1, 8 * abs(p))
      root.addSublayer(shadow)
    }
    let new = Layer(frame: LayerRect(x: edge, y: 0, width: w, height: h))
    new.contents = pages.next
    root.addSublayer(new)
    return Compositor(width: pages.current.width, height: pages.current.height, background: .white)
      .render(presentation: root)
  }
}
