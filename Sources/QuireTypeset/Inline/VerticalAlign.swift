// `vertical-align` beyond baseline/sub/super (CSS 2.1 §10.8, in spirit): how far a piece of
// text is raised, and where an inline image sits on the line.
//
// Text: a length raises the baseline by it, a percentage by that share of the element's
// line height, `middle` puts the box's midpoint half an x-height above the baseline.
// `text-top`/`text-bottom` align the box's top (bottom) with the parent's text top (bottom);
// the parent's box is not known when a style is resolved (styles are resolved one by one,
// not per element tree), so the reader's body size in the same face stands for it — exact
// for text in a body-size paragraph, the common case (`<sup>`-like spans, small icons).
//
// Images and inline blocks: the same keywords on the box, which extends `above` the
// baseline and `below` it; the line grows to fit both (compose takes the largest of every
// piece's, as for text), so a tall `middle` image pushes the line open on both sides.
// `top` and `bottom` are aligned with the LINE box (§10.8), for images, inline blocks and
// text alike (a text piece's box is its style's inline box, line-height tall): the line's
// height and baseline come from every other box first; a `top` box taller than that line
// extends it downwards, a `bottom` box upwards (the baseline stays where the rest of the
// line put it, so a short one never moves it), in line order as browsers do; then a `top`
// box's top sits at the line's top and a `bottom` box's bottom at its bottom
// (`LineAlignedBoxes`; text gets the shift that does this per line when it is placed,
// `LineComposer.lineStyle(_:on:)`). Each piece is aligned on its own: text nested inside a
// `top` span (vertical-align is not inherited) stays on the line's baseline.

import QuireIngest

extension ChapterFlow {
  /// How far text of `size` px with line height `lineHeight` is raised by `v`.
  func textShift(_ v: VerticalShift, size: Double, lineHeight: Double, face: Face) -> Double {
    let body = options.fontSize
    var shift: Double
    switch v {
    case .length(let l): shift = px(l, of: 0)
    case .lineHeightPercent(let p): shift = p / 100 * lineHeight
    case .middle:
      shift = face.decoration.xHeight * size / 2 - (face.ascent - face.descent) * size / 2
    case .textTop: shift = face.ascent * (body - size)
    case .textBottom: shift = -face.descent * (body - size)
    case .top, .bottom: shift = 0  // set per line (LineComposer.lineStyle(_:on:))
    }
    return shift.isFinite ? min(max(shift, -pageHeight / 2), pageHeight / 2) : 0
  }

  /// How far an image `height` px tall, styled `rs`, reaches above and below the baseline.
  static func imageExtent(height: Double, style rs: ResolvedStyle, face: Face) -> (Double, Double) {
    let size = rs.size
    var above = height + rs.shift
    switch rs.style.text.verticalShift {
    case nil, .length?, .lineHeightPercent?: break  // in `shift`
    case .middle?: above = height / 2 + face.decoration.xHeight * size / 2
    case .textTop?, .top?: above = face.ascent * size
    case .textBottom?, .bottom?: above = height - face.descent * size
    }
    return (above, max(0, height - above))
  }
}

/// Boxes aligned with the line box, not its baseline (`vertical-align: top`/`bottom` on an
/// image or inline block; CSS 2.1 §10.8): set aside while the rest of the line is measured,
/// then each grows the line if it is taller, in line order.
struct LineAlignedBoxes {
  /// The boxes' heights, negative for `bottom` (a line rarely holds more than one or two).
  private var heights: [Double] = []

  /// Whether `v` aligns a box with the line box.
  @inline(__always) static func isLineRelative(_ v: VerticalShift?) -> Bool {
    switch v {
    case .top?, .bottom?: return true
    default: return false
    }
  }

  /// Sets aside a box `height` px tall, aligned `top` or else `bottom`.
  mutating func add(height: Double, top: Bool) { heights.append(top ? height : -height) }

  /// The line's space above and below its baseline once the set-aside boxes fit in it.
  func grow(above: Double, below: Double) -> (Double, Double) {
    var (a, b) = (above, below)
    for h in heights where abs(h) > a + b {
      if h > 0 { b = h - a } else { a = -h - b }
    }
    return (a, b)
  }

  /// How far a box `height` px tall reaches above the baseline of a line `lineHeight` px
  /// tall whose baseline lies `baseline` px below its top: its top at the line's top for
  /// `top`, its bottom at the line's bottom for `bottom`.
  static func above(height: Double, top: Bool, baseline: Double, lineHeight: Double) -> Double {
    top ? baseline : baseline - (lineHeight - height)
  }
}
