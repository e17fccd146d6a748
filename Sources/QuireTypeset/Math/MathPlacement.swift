// A formula placed in a paragraph: its box for the line (atomic, like an inline image) and,
// once placed on a page, its rectangle for the manifest's `math` list.

import QuireCore
import QuireIngest

/// Where a formula landed on the page (manifest `math` entries).
package struct MathPlacement: Sendable, Hashable {
  package var rect: Rect
  package var display: Bool
  /// The alttext, else the linear text form (`MathFormula.text`).
  package var text: String
  package init(rect: Rect, display: Bool, text: String) {
    self.rect = rect
    self.display = display
    self.text = text
  }
}

/// A formula laid out for a paragraph, before the line places it.
struct LaidOutMath {
  var box: MathBox
  /// The math face's index (the glyph runs' FontID).
  var font: Int
  var display: Bool
  var text: String
}

extension FontSet {
  /// The face math is set in: the first family of `style` whose face has a MATH table,
  /// else the vendored STIX Two Math.
  func mathFace(_ style: ComputedStyle) -> Int {
    for family in style.fontFamilies {
      if let f = families[family.lowercased()]?.first, MathFont.hasMath(faces[f]) { return f }
    }
    return families["stix two math"]?.first ?? 0
  }
}

extension ChapterFlow {
  /// Lays out the formulas of a paragraph at their styles' sizes; a formula wider than the
  /// measure is scaled down to fit (a `mathTooWide` warning) — it never breaks.
  mutating func layoutMath(_ text: CollectedText, styles: [ResolvedStyle], width: Double)
    -> [Int: LaidOutMath]
  {
    var out: [Int: LaidOutMath] = [:]
    for (i, m) in text.maths {
      let rs = styles[text.styles[i]]
      let face = fonts.mathFace(m.style)
      let layout = MathLayout(font: MathFont(face: fonts.faces[face], index: face))
      var box = layout.layout(m.formula, size: rs.size)
      if box.width > width, width > 0, box.width > 0 {
        let scale = max(0.05, width / box.width)
        box = layout.layout(m.formula, size: rs.size * scale)
        notes.mathScaled.add(1, offset: m.location.offset)
      }
      out[i] = LaidOutMath(box: box, font: face, display: m.formula.display, text: m.formula.text)
    }
    return out
  }
}
