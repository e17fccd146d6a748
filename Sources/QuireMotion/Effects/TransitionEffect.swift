import Foundation

/// Core Animation transitions as page turns: "slide" (moveIn), "fade" and "push", driven
/// through the engine itself — a layer showing `current` gets a `Transition` and then its
/// contents are set to `next`; the frame is the presentation at time t of a 1 s, linear
/// transition (t is already eased by the caller). The new page comes in from the right
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
    if t <= 0 { return pages.current }
    if t >= 1 { return pages.next }
    let w = pages.current.width
    let h = pages.current.height
    guard w > 0, h > 0 else { return pages.next }
    let layer = Layer(frame: LayerRect(x: 0, y: 0, width: Double(w), height: Double(h)))
    layer.contents = pages.current
    let tr = Transition(type: type, subtype: .fromRight, duration: 1)
    tr.timingFunction = .linear
    layer.add(tr, forKey: "transition")
    layer.contents = pages.next
    return Compositor(width: w, height: h, background: .white).render(layer, at: t)
  }
}
