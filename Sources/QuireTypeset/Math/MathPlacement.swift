// A formula placed in a paragraph: its box for the line (atomic, like an inline image) and,
// once placed on a page, its rectangle for the manifest's `math` list.
//
// An inline formula wider than the measure may break after an operator at the top level of
// its row (MathML Core lets inline math break there; TeX does the same): it then enters the
// line breaker as several atomic boxes, one per fragment, with a penalty between them — 500
// after a relation (an operator spaced 5/18 em or more on the left, as `=`, `<`, `→`), 700
// after any other spaced operator (TeX's \relpenalty and \binoppenalty), none after an
// unspaced one (invisible times, fences). Knuth–Plass weighs those breaks like any other.
// Only when a fragment is still wider than the measure is the whole formula scaled down,
// with a warning. The manifest lists one `math` entry per fragment placed (each with the
// whole formula's text), so every entry is a rectangle on one line.

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
  /// A formula broken at its top-level operators: the fragments, each with the penalty of
  /// a break after it (the last one's is unused); empty when it is one box.
  var fragments: [(box: MathBox, penalty: Double)] = []
}

extension MathLayout {
  /// Penalty of a line break after a relation and after another spaced operator.
  static let relationPenalty = 500.0
  static let operatorPenalty = 700.0

  /// `f` cut after each spaced infix operator at the top level of its row (a lone mrow
  /// child is looked through), each fragment laid out as the row lays it out; one fragment
  /// when there is no such operator.
  func fragments(_ f: MathFormula, size: Double) -> [(box: MathBox, penalty: Double)] {
    let root = MathContext(size: size, level: 0, display: f.display)
    let c = styled(f.root, root)
    var nodes = f.root.children
    var depth = 0
    while nodes.count == 1, nodes[0].kind == .mrow, nodes[0].attributes.isEmpty, depth < 8 {
      nodes = nodes[0].children
      depth += 1
    }
    let parts = rowParts(nodes, c)
    var out: [(box: MathBox, penalty: Double)] = []
    var start = 0
    for (i, p) in parts.enumerated() where i < parts.count - 1 {
      guard let op = p.op, op.form == .infix, op.lspace + op.rspace > 0 else { continue }
      let penalty =
        op.lspace >= MathOperator.defaultSpacing ? Self.relationPenalty : Self.operatorPenalty
      out.append((assemble(parts[start...i], c), penalty))
      start = i + 1
    }
    out.append((assemble(parts[start...], c), 0))
    return out
  }
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
  /// Lays out the formulas of a paragraph at their styles' sizes. An inline formula wider
  /// than the measure is cut into fragments at its top-level operators; when that is not
  /// enough (or it is display math) it is scaled down to fit (a `mathTooWide` warning).
  mutating func layoutMath(_ text: CollectedText, styles: [ResolvedStyle], width: Double)
    -> [Int: LaidOutMath]
  {
    var out: [Int: LaidOutMath] = [:]
    for (i, m) in text.maths {
      let rs = styles[text.styles[i]]
      let face = fonts.mathFace(m.style)
      let layout = MathLayout(font: MathFont(face: fonts.faces[face], index: face))
      var box = layout.layout(m.formula, size: rs.size, measure: width)
      var fragments: [(box: MathBox, penalty: Double)] = []
      if box.width > width, width > 0, box.width > 0 {
        if !m.formula.display { fragments = layout.fragments(m.formula, size: rs.size) }
        let widest = fragments.count > 1 ? fragments.map(\.box.width).max() ?? 0 : box.width
        if widest > width {
          let scale = max(0.05, width / widest)
          box = layout.layout(m.formula, size: rs.size * scale)
          if fragments.count > 1 { fragments = layout.fragments(m.formula, size: rs.size * scale) }
          notes.mathScaled.add(1, offset: m.location.offset)
        }
      }
      out[i] = LaidOutMath(
        box: box, font: face, display: m.formula.display, text: m.formula.text,
        fragments: fragments.count > 1 ? fragments : [])
    }
    return out
  }
}
