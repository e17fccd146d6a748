// The box of a non-replaced inline element that takes space or paints more than a colour
// behind its text (CSS 2.1 §8 and §10.8, CSS Backgrounds 3, CSS Fragmentation 3 §5.4):
// horizontal margins, borders and padding that take room in the line at the start of the
// box's first fragment and the end of its last; vertical borders and padding that are
// painted but leave the line's height alone; corner radii; background colour and images.
//
// Like `TextStyle.inlineBackground`, the box reaches the typesetter through its runs: each
// run carries the chain of decorated inline boxes it sits in, outermost first
// (`TextStyle.inlineBoxes`), kept by inline descendants and cleared by block-level ones.
// A run is inside box `id` exactly when the chain holds it, so the typesetter finds where
// a box starts and ends by comparing the chains of neighbouring runs, without a box tree.
// Chains are at most `maxDepth` deep (a hostile nesting of a thousand padded spans keeps
// its outer eight); a plain `<span>` or one with only a background colour adds no entry.
// A `::before`/`::after` is an inline box child of its element (CSS 2.1 §12.1): its
// generated run's chain is its element's plus its own box, with an id of its own
// (`pseudoID`).

import QuireCore

/// One decorated inline box (see the file comment); lengths as Ingest computes them.
package struct InlineBoxDecoration: Sendable, Hashable, Codable {
  /// Boxes one run may sit in; deeper ones are not drawn.
  package static let maxDepth = 8
  /// The element's preorder ordinal in its chapter: tells two sibling boxes apart.
  package var id: Int
  package var marginLeft: Length = .zero
  package var marginRight: Length = .zero
  package var padding: EdgeLengths = .zero
  package var border = BorderSides()
  package var radius = CornerRadii()
  package var background = BoxBackground()
  /// `box-decoration-break: clone`: every line fragment gets both sides and its own
  /// background; `slice` (false) cuts the box at line ends.
  package var clone = false
  /// The element's `color` (borders without a colour of their own) and font size in rem
  /// (its content area's height).
  package var color: RGBA = .black
  package var fontSize: Double = 1
  package init(id: Int) { self.id = id }
}

extension InlineBoxDecoration {
  /// The id of an element's `::before` (or `::after`) box: negative, so it never equals an
  /// element's ordinal; `element(of:)` reads it back.
  package static func pseudoID(element: Int, after: Bool) -> Int {
    -(2 * max(0, element) + (after ? 2 : 1))
  }

  /// The element ordinal of a box id, and which pseudo-element it is (nil: the element's
  /// own box).
  package static func element(of id: Int) -> (element: Int, pseudo: String?) {
    guard id < 0 else { return (id, nil) }
    let k = -id - 1
    return (k / 2, k % 2 == 0 ? "before" : "after")
  }

  /// Whether an inline element with this box needs an entry: anything that takes space
  /// or paints beyond a plain background colour.
  package var isNeeded: Bool {
    let p = padding
    return marginLeft != .zero || marginRight != .zero || p.left != .zero || p.right != .zero
      || border.isVisible || !background.layers.isEmpty
      || (!radius.isZero && !background.isEmpty)
      || ((p.top != .zero || p.bottom != .zero) && !background.isEmpty)
  }
}
