// The contract of every page-turn effect. An effect draws one frame of a forward turn from
// page N (`current`) to page N+1 (`next`) at progress t ∈ [0, 1] (already eased by the timing
// function): frame(0) must equal `current` pixel for pixel, frame(1) must equal `next`.
// Backward turns, right-to-left mirroring and spreads are built on top of this contract
// (see TurnOptions), so each effect only implements the forward, left-to-right case.

/// Which way a page turns: forward to the next page, or back to the previous one.
public enum TurnDirection: String, Sendable, Hashable, Codable {
  /// Page N to page N+1.
  case next
  /// Page N to page N−1 (the forward turn's geometry run backwards in space, not in time).
  case prev
}

/// The corner (or edge) of the leaf that the turn lifts.
public enum TurnCorner: String, Sendable, Hashable, Codable {
  /// The outer top corner.
  case top
  /// The outer bottom corner.
  case bottom
  /// The middle of the outer edge (a straight, vertical fold line).
  case middle
}

/// What the back of a turning leaf shows.
public enum LeafBack: String, Sendable, Hashable, Codable {
  /// The front page seen through the paper, mirrored (a printed book's show-through).
  case mirrored
  /// Plain paper.
  case blank
  /// The next page (a two-sided leaf, as in a spread).
  case next
}

package struct TurnOptions: Sendable, Hashable {
  package var direction: TurnDirection = .next
  package var rightToLeft: Bool = false
  package var corner: TurnCorner = .bottom
  package var back: LeafBack = .mirrored
  package var spread: Bool = false
  package init() {}
}

/// Two same-sized RGBA8 pages: the one showing at t = 0 and the one showing at t = 1.
package struct TurnPages: Sendable {
  package var current: PixelBuffer
  package var next: PixelBuffer
  package init(current: PixelBuffer, next: PixelBuffer) {
    precondition(current.width == next.width && current.height == next.height)
    self.current = current
    self.next = next
  }
}

package protocol PageTurnEffect: Sendable {
  /// Style name as on the command line ("curl", "leaves", …).
  var name: String { get }
  func frame(at t: Double, pages: TurnPages, options: TurnOptions) -> PixelBuffer
}

// MARK: - Backward turns, right-to-left books and spreads (the wrappers every style shares)
//
// Page roles. `TurnPages.current` is always the page showing at t = 0 and `next` the page
// showing at t = 1, whatever the direction:
// - `.next`: current = page N, next = page N+1. The effect runs forward.
// - `.prev`: current = page N, next = page N−1. The backward turn is the forward turn from
//   N−1 to N played in reverse: frame(t) = forward(1 − t, current: N−1, next: N), so the leaf
//   comes back from the left and lies down over page N−1's place.
// - `rightToLeft`: the whole turn is mirrored about the vertical axis: inputs are mirrored
//   horizontally, the left-to-right effect renders, the output is mirrored back. The leaf then
//   lifts at the left edge and travels right (the mirror geometry), as in Arabic or Hebrew
//   books and vertical Japanese text.
// - `spread`: two pages side by side on a canvas 2W wide, the spine at x = W. The forward
//   turn lifts the right page (its front is `rightCurrent`), hinged at the spine, and lays it
//   down on the left where its back is `leftNext`; `rightNext` is revealed beneath it. Frame 0
//   is the current spread, the last frame the next spread. In a spread the leaf's back is
//   always the next spread's left page (the physical truth); `TurnOptions.back` applies to
//   single pages only.

/// A two-page spread turn: the spread showing at t = 0 and the spread showing at t = 1.
/// All four pages have the same size; the canvas is twice as wide. Fields name display
/// positions, not reading order: in a right-to-left book page N sits on the right, so pass
/// rightCurrent = N, leftCurrent = N+1 (and likewise for the next spread); with
/// `rightToLeft` the leaf that turns is the left page, hinged at the spine.
package struct SpreadPages: Sendable {
  package var leftCurrent: PixelBuffer
  package var rightCurrent: PixelBuffer
  package var leftNext: PixelBuffer
  package var rightNext: PixelBuffer
  package init(
    leftCurrent: PixelBuffer, rightCurrent: PixelBuffer, leftNext: PixelBuffer,
    rightNext: PixelBuffer
  ) {
    let sizes = [leftCurrent, rightCurrent, leftNext, rightNext].map { [$0.width, $0.height] }
    precondition(Set(sizes).count == 1, "SpreadPages: the four pages must have one size")
    self.leftCurrent = leftCurrent
    self.rightCurrent = rightCurrent
    self.leftNext = leftNext
    self.rightNext = rightNext
  }

  /// The current spread as one 2W-wide image (what frame 0 shows).
  package var currentSpread: PixelBuffer { PixelBuffer.joinedSideBySide(leftCurrent, rightCurrent) }
  /// The next spread as one 2W-wide image (what the last frame shows).
  package var nextSpread: PixelBuffer { PixelBuffer.joinedSideBySide(leftNext, rightNext) }

  /// The same turn seen in a mirror: the left page of the result is the mirrored right page.
  package var mirrored: SpreadPages {
    SpreadPages(
      leftCurrent: rightCurrent.flippedLeftRight(),
      rightCurrent: leftCurrent.flippedLeftRight(),
      leftNext: rightNext.flippedLeftRight(),
      rightNext: leftNext.flippedLeftRight())
  }

  /// Current and next swapped (the roles of a backward turn).
  package var reversed: SpreadPages {
    SpreadPages(
      leftCurrent: leftNext, rightCurrent: rightNext, leftNext: leftCurrent,
      rightNext: rightCurrent)
  }
}

extension TurnPages {
  package var mirrored: TurnPages {
    TurnPages(current: current.flippedLeftRight(), next: next.flippedLeftRight())
  }
  package var reversed: TurnPages { TurnPages(current: next, next: current) }
}

/// Plays any effect with the options every style shares: direction, right-to-left mirroring
/// and two-page spreads. `t` is the eased progress in [0, 1] (clamped).
package struct PageTurnRenderer: Sendable {
  package var effect: any PageTurnEffect
  package var options: TurnOptions

  package init(effect: any PageTurnEffect, options: TurnOptions) {
    self.effect = effect
    self.options = options
  }

  /// One frame of a single-page turn (options.spread is ignored here; see `frame(at:spread:)`).
  package func frame(at t: Double, pages: TurnPages) -> PixelBuffer {
    let t = Self.bounded(t)
    var forward = options
    forward.direction = .next
    forward.rightToLeft = false
    forward.spread = false
    let (progress, roles) = options.direction == .next ? (t, pages) : (1 - t, pages.reversed)
    if options.rightToLeft {
      return effect.frame(at: progress, pages: roles.mirrored, options: forward)
        .flippedLeftRight()
    }
    return effect.frame(at: progress, pages: roles, options: forward)
  }

  /// One frame of a two-page spread turn, on a canvas 2W wide.
  package func frame(at t: Double, spread: SpreadPages) -> PixelBuffer {
    let t = Self.bounded(t)
    let (progress, roles) = options.direction == .next ? (t, spread) : (1 - t, spread.reversed)
    if options.rightToLeft {
      return forwardSpread(progress, roles.mirrored).flippedLeftRight()
    }
    return forwardSpread(progress, roles)
  }

  /// Progress as the timeline gives it, NaN as 0, bounded to `FlipTimeline.progressBounds`
  /// (not clamped to 0…1: a style that can show an overshoot gets it; the leaf styles stop at
  /// their ends).
  static func bounded(_ t: Double) -> Double {
    let b = FlipTimeline.progressBounds
    return t.isNaN ? 0 : Swift.min(b.upperBound, Swift.max(b.lowerBound, t))
  }

  /// Dispatches on `options.spread`: the CLI holds either pages or a spread.
  package func frame(at t: Double, input: TurnInput) -> PixelBuffer {
    switch input {
    case .single(let pages): return frame(at: t, pages: pages)
    case .spread(let spread): return frame(at: t, spread: spread)
    }
  }

  private func forwardSpread(_ progress: Double, _ spread: SpreadPages) -> PixelBuffer {
    if let leaf = effect as? any LeafEffect {
      let faces = LeafFaces(spread: spread)
      return leaf.render(progress: progress, faces: faces, corner: options.corner)
    }
    // An effect that knows nothing of leaves (a slide, a push, a fade) moves the whole
    // spread as one picture (text of two pages never runs together at the spine).
    var forward = options
    forward.direction = .next
    forward.rightToLeft = false
    forward.spread = false
    let whole = TurnPages(current: spread.currentSpread, next: spread.nextSpread)
    return effect.frame(at: progress, pages: whole, options: forward)
  }
}

/// What a turn turns: one page or a two-page spread.
package enum TurnInput: Sendable {
  case single(TurnPages)
  case spread(SpreadPages)

  package var first: PixelBuffer {
    switch self {
    case .single(let p): return p.current
    case .spread(let s): return s.currentSpread
    }
  }
  package var last: PixelBuffer {
    switch self {
    case .single(let p): return p.next
    case .spread(let s): return s.nextSpread
    }
  }
}

/// The styles a `quire flip --style NAME` can ask for: the per-pixel leaf renderers (curl,
/// leaves, fold) and the motion-engine's compositor styles (hard, slide, fade, push).
package let pageTurnStyles: [String] = ["curl", "leaves", "fold", "hard", "slide", "fade", "push"]

/// The effect for a style name (case-insensitive), or nil for an unknown name.
package func makeEffect(style: String) -> (any PageTurnEffect)? {
  switch style.lowercased() {
  case "curl": return CurlEffect()
  case "leaves": return LeavesEffect()
  case "fold": return FoldEffect()
  case "hard": return HardPageEffect()
  case "slide", "fade", "push": return TransitionEffect(name: style.lowercased())
  default: return nil
  }
}
