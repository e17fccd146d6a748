// The background colour of inline elements (CSS 2.1 §14.2, §10.8.1): a `<span>` or `<mark>`
// with `background-color` paints its content area behind the glyphs of each line fragment.
//
// Box properties do not reach text runs (BoxStyle.swift keeps them on blocks), so the
// colour an inline element paints is copied into its runs' text style
// (`TextStyle.inlineBackground`), and its inline descendants keep it, as an underline is
// kept: the child's glyphs lie over the parent's painted box, so painting the nearest
// coloured ancestor's colour behind every run gives the same picture without a box tree.
// A block-level element starts afresh: its own background is a block background
// (BoxLayout.swift), never repeated per line. A transparent colour paints nothing and
// lets an ancestor's show through, as it would in a browser.
//
// An element whose box takes space or paints more than a colour (padding, borders,
// margins, radius, background images) is a decorated box instead
// (Document/InlineBoxDecoration.swift): its runs carry it in `TextStyle.inlineBoxes`,
// the chain of such boxes they sit in, and its background is painted with the box. The
// plain colour stays here: a chain entry per highlighted run would cost a box paint per
// line fragment for a picture the common cases (`mark`, highlighted spans) do not need.

import QuireCore

extension ElementStyle {
  /// Sets `computed.text.inlineBackground` from the element's display and background
  /// (see the file comment); called once the element's declarations are applied.
  mutating func resolveInlineBackground() {
    guard display == .inline else {
      computed.text.inlineBackground = nil
      return
    }
    if let c = box.background.color, c.a > 0 { computed.text.inlineBackground = c }
  }
}

extension ElementStyle {
  /// Adds the element's box to `computed.text.inlineBoxes` when it is a decorated inline
  /// box (Document/InlineBoxDecoration.swift), clears the chain for block-level, atomic
  /// and out-of-flow elements; `id` is the element's ordinal. Called once its display is
  /// final.
  mutating func resolveInlineBox(id: Int) {
    guard display == .inline, !box.isInlineBlock, box.float == .none,
      !box.position.isOutOfFlow
    else {
      computed.text.inlineBoxes = []
      return
    }
    var b = InlineBoxDecoration(id: id)
    b.marginLeft = computed.margin.left
    b.marginRight = computed.margin.right
    b.padding = computed.padding
    b.border = box.border
    b.radius = box.radius
    b.background = box.background
    b.clone = box.decorationClone
    b.color = computed.color
    b.fontSize = computed.fontSize
    guard b.isNeeded, computed.text.inlineBoxes.count < InlineBoxDecoration.maxDepth else {
      return
    }
    computed.text.inlineBoxes.append(b)
    // Its own background is painted by the box, over its padding box; an ancestor's band
    // shows through a transparent box and is kept.
    if !box.background.isEmpty { computed.text.inlineBackground = nil }
  }
}
