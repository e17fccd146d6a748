// Text decorations of one line (CSS Text Decoration 3): underline, overline and
// line-through, as filled rectangles.
//
// Compose reports every decorated stretch it places — a piece's glyphs with their letter
// spacing, a word space, an inserted hyphen — as a `DecorationSpan` in visual order. Spans
// that touch and draw the same line (same kind, position, thickness, colour and style) are
// merged before anything is drawn, so an underline runs on across the spaces between words
// and across style changes that keep the decoration (`<u>a <em>b</em></u>`), as in a
// browser; a space that is not itself decorated (`<u>a</u> <u>b</u>`) leaves a gap.
//
// Positions and thickness come from the face (post `underlinePosition`/`Thickness`, OS/2
// `yStrikeoutPosition`/`Size`, through HarfBuzz): the underline's top is the font's
// underline position below the baseline (`text-underline-position: under` puts it below the
// descender instead; `text-underline-offset` replaces the position), the overline's top is
// the ascender, the line-through's top the strike-out position; `text-decoration-thickness`
// replaces the font's. A line is at least one pixel thick. Styles: `solid` one rectangle,
// `double` two with a thickness between them, `dotted` squares, `dashed` dashes of three
// thicknesses, `wavy` a sine of 1-px columns (an amplitude of a thickness and a half).
// Patterns are bounded: at most `maxPatternRects` rectangles per merged line.

import Foundation
import QuireCore
import QuireIngest

/// One decoration line to draw: where and how.
struct DecorationLine: Equatable {
  enum Kind: Int { case underline, overline, lineThrough }
  var kind: Kind
  /// Top of the line, px from the line box's top; thickness px.
  var y: Double
  var thickness: Double
  var color: RGBA
  var style: DecorationStyle
}

/// A horizontal stretch of a line drawn with one decoration line.
struct DecorationSpan {
  var line: DecorationLine
  var x0: Double
  var x1: Double
}

/// The decorations of one line, collected while it is placed.
struct LineDecorations {
  /// Rectangles one merged line may become (dotted, dashed, wavy patterns).
  static let maxPatternRects = 4_000
  private(set) var spans: [DecorationSpan] = []

  /// The lines `rs` draws at `baseline` (none for an undecorated style).
  static func lines(_ rs: ResolvedStyle, face: Face, baseline: Double) -> [DecorationLine] {
    // Tested through `rs` before anything is bound: binding `rs.style` copies (and retains)
    // the whole computed style, once per style change of every line.
    guard rs.style.underline || rs.style.lineThrough || rs.style.text.overline else { return [] }
    let st = rs.style
    let t = st.text
    let size = rs.size
    let base = baseline - rs.shift
    let m = rs.decoration
    let color = t.decorationColor ?? st.color
    func thickness(_ font: Double) -> Double {
      var px = font * size
      if let css = rs.decorationThickness { px = css }
      return min(max(1, px.isFinite ? px : 1), max(1, size / 2))
    }
    var out: [DecorationLine] = []
    if st.underline {
      var offset = m.underlineOffset * size
      if t.underlineUnder { offset = face.descent * size }
      if let css = rs.underlineOffset { offset = css }
      out.append(
        DecorationLine(
          kind: .underline, y: base + min(max(offset, -size), size),
          thickness: thickness(m.underlineThickness), color: color, style: t.decorationStyle))
    }
    if t.overline {
      let th = thickness(m.underlineThickness)
      out.append(
        DecorationLine(
          kind: .overline, y: base - face.ascent * size, thickness: th, color: color,
          style: t.decorationStyle))
    }
    if st.lineThrough {
      out.append(
        DecorationLine(
          kind: .lineThrough, y: base - m.strikeoutOffset * size,
          thickness: thickness(m.strikeoutThickness), color: color, style: t.decorationStyle))
    }
    return out
  }

  /// Records `lines` drawn from `x0` to `x1`.
  mutating func add(_ lines: [DecorationLine], from x0: Double, to x1: Double) {
    guard x1 > x0 else { return }
    for l in lines {
      // Merge with the last span of the same line when they touch.
      if let k = spans.lastIndex(where: { $0.line.kind == l.kind }), spans[k].line == l,
        x0 <= spans[k].x1 + 0.01
      {
        spans[k].x1 = max(spans[k].x1, x1)
      } else {
        spans.append(DecorationSpan(line: l, x0: x0, x1: x1))
      }
    }
  }

  /// Cuts every span to `lo…hi` (a clipped line).
  mutating func clip(_ lo: Double, _ hi: Double) {
    spans = spans.compactMap {
      var s = $0
      s.x0 = max(s.x0, lo)
      s.x1 = min(s.x1, hi)
      return s.x1 > s.x0 ? s : nil
    }
  }

  /// The fills to draw.
  func fills() -> [DisplayItem] {
    var out: [DisplayItem] = []
    for s in spans { out += Self.fills(s) }
    return out
  }

  static func fills(_ s: DecorationSpan) -> [DisplayItem] {
    let l = s.line
    let t = l.thickness
    let width = s.x1 - s.x0
    func rect(_ x: Double, _ y: Double, _ w: Double, _ h: Double) -> DisplayItem {
      .fill(Rect(x: x, y: y, width: w, height: h), l.color)
    }
    switch l.style {
    case .solid:
      return [rect(s.x0, l.y, width, t)]
    case .double:
      // The second line goes away from the text: below an underline, above the others.
      let second = l.kind == .underline ? l.y + 2 * t : l.y - 2 * t
      return [rect(s.x0, l.y, width, t), rect(s.x0, second, width, t)]
    case .dotted, .dashed:
      let on = l.style == .dotted ? t : 3 * t
      let period = on + (l.style == .dotted ? t : 2 * t)
      var out: [DisplayItem] = []
      var x = s.x0
      while x < s.x1 && out.count < maxPatternRects {
        out.append(rect(x, l.y, min(on, s.x1 - x), t))
        x += period
      }
      return out
    case .wavy:
      let amplitude = 1.5 * t
      let wavelength = max(4, 6 * t)
      var out: [DisplayItem] = []
      var x = s.x0
      while x < s.x1 && out.count < maxPatternRects {
        let phase = (x - s.x0) / wavelength * 2 * Double.pi
        out.append(rect(x, l.y + amplitude * sin(phase), min(1, s.x1 - x), t))
        x += 1
      }
      return out
    }
  }
}
