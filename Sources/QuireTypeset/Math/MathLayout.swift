// Math layout: a `MathFormula` (presentation MathML read by Ingest) → one `MathBox`, laid out
// by the MathML Core rules with the constants, variants and assemblies of an OpenType MATH
// font (MathFont.swift, STIX Two Math unless the book names another font with a MATH table).
//
// Units and coordinates: pixels at the formula's font size. A box has a width, an ascent
// above and a descent below its baseline; its glyphs, rules and frames are placed with x to
// the right of the box's left edge and y *down* from its baseline (page convention), so
// ink above the baseline has negative y. Children are laid out first and placed into their
// parent (`MathBox.place`), which is how TeX, Gecko and Chromium build math too.
//
// One function per element family: tokens and rows here, fractions/radicals/scripts/
// under-over in MathLayout+Scripts.swift, tables, spaces and enclosures in
// MathLayout+Table.swift. Script levels shrink the size by ScriptPercentScaleDown and
// ScriptScriptPercentScaleDown, then by 0.71 a level (MathML Core `math-depth`); display
// style decides fraction shifts, large operators and limits.
//
// The result becomes one atomic inline box of the paragraph (the line breaker sees a box
// as wide as the formula; ShapedParagraph.swift) painted with the existing display items:
// glyph runs, filled rectangles and box frames (`MathBox.items`).
//
// Bounds: the tree is bounded at ingest (depth, nodes, token length — MathLimits), every
// length attribute is clamped to ±`maxEm` em, table columns to `MathLimits.maxColumns`, and
// assemblies to `MathFont.maxRepeats` extenders: work is linear in the formula.
//
// Rejected: converting MathML to TeX and running a TeX-like engine (the MathML Core rules
// differ in spacing and stretching, and browsers — the reference — follow Core), and
// laying math out as ordinary text with a few raised runs (what Quire did before: wrong
// meaning for fractions, roots and matrices).

import CHarfBuzz
import Foundation
import QuireCore
import QuireIngest

/// A frame drawn around content (menclose box, roundedbox, circle).
struct MathFrame: Hashable, Sendable {
  var rect: Rect
  var thickness: Double
  var radius: Double
}

/// A laid-out piece of math.
struct MathBox: Sendable {
  var width = 0.0
  var ascent = 0.0
  var descent = 0.0
  var glyphs: [MathGlyph] = []
  /// Filled rectangles (fraction bars, radical overbars, strikes), y down from the baseline.
  var rules: [Rect] = []
  var frames: [MathFrame] = []
  /// Italic correction of the last glyph.
  var italic = 0.0
  /// Top accent attachment (x), for a box of one glyph.
  var topAccent: Double? = nil
  /// The operator this box is (or embellishes), with its dictionary values.
  var op: MathOperator? = nil

  /// Adds `b`'s ink with its origin at (`x`, `y`); the box grows to hold it (not in width).
  mutating func place(_ b: MathBox, x: Double, y: Double) {
    glyphs += b.glyphs.map { MathGlyph(glyph: $0.glyph, x: $0.x + x, y: $0.y + y, size: $0.size) }
    rules += b.rules.map { Rect(x: $0.x + x, y: $0.y + y, width: $0.width, height: $0.height) }
    frames += b.frames.map {
      var f = $0
      f.rect = Rect(x: f.rect.x + x, y: f.rect.y + y, width: f.rect.width, height: f.rect.height)
      return f
    }
    ascent = max(ascent, b.ascent - y)
    descent = max(descent, b.descent + y)
  }

  /// The box without ink (mphantom).
  var phantom: MathBox {
    var b = self
    b.glyphs = []
    b.rules = []
    b.frames = []
    return b
  }
}

/// The style a node is laid out in.
struct MathContext {
  /// Pixels per em at this node.
  var size: Double
  var level: Int
  var display: Bool
  /// TeX's cramped style (MathML Core `math-shift: compact`): radicands, denominators and
  /// subscripts raise their superscripts less.
  var cramped = false
}

struct MathLayout {
  let font: MathFont
  /// Lengths beyond this many em are clamped.
  static let maxEm = 200.0
  static let maxLevel = 12

  /// Lays out a whole formula at `size` px per em.
  func layout(_ f: MathFormula, size: Double) -> MathBox {
    layout(f.root, MathContext(size: size, level: 0, display: f.display))
  }

  func layout(_ n: MathNode, _ outer: MathContext) -> MathBox {
    let c = styled(n, outer)
    switch n.kind {
    case .mi, .mn, .mtext, .ms: return token(n, c)
    case .mo:
      let op = operatorOf(n, form: .infix)
      return opBox(n, op, c)
    case .mrow, .merror, .mtd, .mtr, .mlabeledtr, .mstyle: return row(n.children, c)
    case .mphantom: return row(n.children, c).phantom
    case .mpadded: return padded(n, c)
    case .mspace: return space(n, c)
    case .mfrac: return fraction(n, c)
    case .msqrt: return radical(row(n.children, crampedContext(c)), degree: nil, c)
    case .mroot:
      let base = n.children.first.map { layout($0, crampedContext(c)) } ?? MathBox()
      return radical(base, degree: n.children.count > 1 ? n.children[1] : nil, c)
    case .msub, .msup, .msubsup: return scripts(n, c)
    case .mmultiscripts: return multiscripts(n, c)
    case .munder, .mover, .munderover: return underOver(n, c)
    case .mtable: return table(n, c)
    case .menclose: return enclose(n, c)
    case .mprescripts, .none: return MathBox()
    }
  }

  /// The context after `displaystyle`, `scriptlevel` and `mathsize` on `n`.
  func styled(_ n: MathNode, _ c: MathContext) -> MathContext {
    var c = c
    if let d = n.attributes["displaystyle"]?.lowercased() { c.display = d == "true" }
    if let s = n.attributes["scriptlevel"]?.trimmingCharacters(in: .whitespaces), let v = Int(s) {
      c = s.hasPrefix("+") || s.hasPrefix("-") ? scripted(c, by: v) : scripted(c, by: v - c.level)
    }
    if let m = n.attributes["mathsize"], let px = length(m, c, percentOf: c.size), px > 0 {
      c.size = px
    }
    return c
  }

  func crampedContext(_ c: MathContext) -> MathContext {
    var c = c
    c.cramped = true
    return c
  }

  /// `c` with its script level changed by `delta` (size scaled as `math-depth` does).
  func scripted(_ c: MathContext, by delta: Int) -> MathContext {
    var c = c
    let target = min(Self.maxLevel, max(0, c.level + delta))
    let script = font.percent(HB_OT_MATH_CONSTANT_SCRIPT_PERCENT_SCALE_DOWN)
    let scriptScript = font.percent(HB_OT_MATH_CONSTANT_SCRIPT_SCRIPT_PERCENT_SCALE_DOWN)
    func factor(_ level: Int) -> Double {
      switch level {
      case 0: return 1
      case 1: return script > 0 ? script : 0.71
      default:
        return (scriptScript > 0 ? scriptScript : 0.5041) * pow(0.71, Double(level - 2))
      }
    }
    c.size *= factor(target) / factor(c.level)
    c.level = target
    return c
  }

  // MARK: - Tokens and rows

  /// mi, mn, mtext, ms: the text shaped in the math font (mi of one letter in italic).
  func token(_ n: MathNode, _ c: MathContext) -> MathBox {
    var text = n.text
    if n.kind == .ms {
      text = (n.attributes["lquote"] ?? "\"") + text + (n.attributes["rquote"] ?? "\"")
    }
    var variant = n.attributes["mathvariant"]?.lowercased()
    if n.kind == .mi, variant == nil, text.unicodeScalars.count == 1 { variant = "italic" }
    let scalars = text.unicodeScalars.map { MathAlphabets.map($0.value, variant: variant) }
    return shaped(scalars, c.size)
  }

  /// Shapes `scalars` with HarfBuzz in the math font.
  func shaped(_ scalars: [UInt32], _ size: Double) -> MathBox {
    var box = MathBox()
    guard !scalars.isEmpty, let buf = hb_buffer_create() else { return box }
    defer { hb_buffer_destroy(buf) }
    hb_buffer_add_utf32(buf, scalars, Int32(scalars.count), 0, Int32(scalars.count))
    hb_buffer_guess_segment_properties(buf)
    hb_buffer_set_direction(buf, HB_DIRECTION_LTR)
    hb_shape(font.face.hbFont, buf, nil, 0)
    var count: UInt32 = 0
    guard let infos = hb_buffer_get_glyph_infos(buf, &count),
      let positions = hb_buffer_get_glyph_positions(buf, &count)
    else { return box }
    let k = size / font.upem
    var pen = 0.0
    // Ink extents, which may be negative (a caret or an overline floats above the
    // baseline: its descent is negative, which places accents as TeX does).
    box.ascent = count > 0 ? -Double.infinity : 0
    box.descent = box.ascent
    for i in 0..<Int(count) {
      let g = infos[i].codepoint
      let p = positions[i]
      box.glyphs.append(
        MathGlyph(
          glyph: g, x: pen + Double(p.x_offset) * k, y: -Double(p.y_offset) * k, size: size))
      let ink = font.ink(g, size)
      box.ascent = max(box.ascent, ink.ascent + Double(p.y_offset) * k)
      box.descent = max(box.descent, ink.descent - Double(p.y_offset) * k)
      pen += Double(p.x_advance) * k
    }
    box.width = pen
    if let last = box.glyphs.last { box.italic = font.italic(last.glyph, size) }
    if count == 1, let g = box.glyphs.first { box.topAccent = font.topAccent(g.glyph, size) }
    return box
  }

  /// The dictionary entry of `mo` node `n`, with its own attributes applied.
  func operatorOf(_ n: MathNode, form: MathOperator.Form) -> MathOperator {
    var f = form
    switch n.attributes["form"]?.lowercased() {
    case "prefix": f = .prefix
    case "postfix": f = .postfix
    case "infix": f = .infix
    default: break
    }
    var op = MathOperators.lookup(n.text, form: f)
    func flag(_ name: String) -> Bool? { n.attributes[name].map { $0.lowercased() == "true" } }
    op.stretchy = flag("stretchy") ?? op.stretchy
    op.symmetric = flag("symmetric") ?? op.symmetric
    op.largeop = flag("largeop") ?? op.largeop
    op.movablelimits = flag("movablelimits") ?? op.movablelimits
    return op
  }

  /// An operator not (yet) stretched: large operators take their display variant and sit
  /// on the math axis.
  func opBox(_ n: MathNode, _ op: MathOperator, _ c: MathContext) -> MathBox {
    var box = token(n, c)
    box.op = op
    guard op.largeop, box.glyphs.count == 1, let g = box.glyphs.first else { return box }
    var glyph = g.glyph
    if c.display {
      let minHeight = font.constant(HB_OT_MATH_CONSTANT_DISPLAY_OPERATOR_MIN_HEIGHT, c.size)
      let vs = font.variants(glyph, horizontal: false)
      let k = c.size / font.upem
      if let v = vs.first(where: { $0.advance * k >= minHeight }) ?? vs.last { glyph = v.glyph }
    }
    return axisCentred(glyph, op, c)
  }

  /// One glyph centred on the math axis.
  func axisCentred(_ glyph: UInt32, _ op: MathOperator, _ c: MathContext) -> MathBox {
    let axis = font.constant(HB_OT_MATH_CONSTANT_AXIS_HEIGHT, c.size)
    let ink = font.ink(glyph, c.size)
    let shift = axis - (ink.ascent - ink.descent) / 2
    var box = MathBox(
      width: font.advance(glyph, c.size), ascent: ink.ascent + shift, descent: ink.descent - shift)
    box.glyphs = [MathGlyph(glyph: glyph, x: 0, y: -shift, size: c.size)]
    box.italic = font.italic(glyph, c.size)
    box.op = op
    return box
  }

  /// An mrow: children side by side, operators spaced by the dictionary, stretchy fences
  /// grown to the tallest other child.
  func row(_ nodes: [MathNode], _ c: MathContext) -> MathBox {
    let count = nodes.count
    var ops: [MathOperator?] = []
    var boxes: [MathBox?] = []
    var above = 0.0
    var below = 0.0
    for (i, n) in nodes.enumerated() {
      let core = embellishedCore(n)
      let form: MathOperator.Form =
        count == 1 ? .infix : i == 0 ? .prefix : i == count - 1 ? .postfix : .infix
      let op = core.map { operatorOf($0, form: form) }
      ops.append(op)
      if n.kind == .mo, let op, op.stretchy, n.text.unicodeScalars.count == 1 {
        boxes.append(nil)
        continue
      }
      var b = layout(n, c)
      if let op { b.op = op }
      above = max(above, b.ascent)
      below = max(below, b.descent)
      boxes.append(b)
    }
    var out = MathBox()
    for (i, n) in nodes.enumerated() {
      var b = boxes[i] ?? stretchedFence(n, ops[i]!, above: above, below: below, c)
      b.op = ops[i] ?? b.op
      let lspace = (ops[i]?.lspace ?? 0) * c.size
      let rspace = (ops[i]?.rspace ?? 0) * c.size
      out.width += lspace
      out.place(b, x: out.width, y: 0)
      out.width += b.width + rspace
      out.italic = b.italic
    }
    if count == 1, let only = boxes.first ?? nil {
      out.topAccent = only.topAccent
      out.op = only.op
    }
    return out
  }

  /// The `mo` at the core of an embellished operator (an mo, or the first child of a script,
  /// under/over, fraction or mrow-like element whose core it is); nil otherwise.
  func embellishedCore(_ n: MathNode) -> MathNode? {
    switch n.kind {
    case .mo: return n
    case .msub, .msup, .msubsup, .munder, .mover, .munderover, .mmultiscripts, .mfrac:
      return n.children.first.flatMap(embellishedCore)
    case .mrow, .mstyle, .mphantom, .mpadded:
      return n.children.count == 1 ? embellishedCore(n.children[0]) : nil
    default: return nil
    }
  }

  /// A stretchy `mo` grown to cover `above`/`below` (symmetric ones around the axis).
  func stretchedFence(
    _ n: MathNode, _ op: MathOperator, above: Double, below: Double, _ c: MathContext
  ) -> MathBox {
    var box = token(n, c)
    box.op = op
    guard let g = box.glyphs.first?.glyph else { return box }
    let axis = font.constant(HB_OT_MATH_CONSTANT_AXIS_HEIGHT, c.size)
    var a = max(above, box.ascent)
    var d = max(below, box.descent)
    if op.symmetric {
      let half = max(a - axis, d + axis)
      (a, d) = (axis + half, half - axis)
    }
    guard let s = font.stretch(g, to: a + d, size: c.size, horizontal: false) else { return box }
    let mid = (a - d) / 2
    var out = MathBox()
    if s.glyphs.count == 1, let only = s.glyphs.first {
      let ink = font.ink(only.0, c.size)
      let shift = mid - (ink.ascent - ink.descent) / 2
      out.glyphs = [MathGlyph(glyph: only.0, x: 0, y: -shift, size: c.size)]
      (out.ascent, out.descent) = (ink.ascent + shift, ink.descent - shift)
      out.width = font.advance(only.0, c.size)
    } else {
      let bottom = mid - s.length / 2
      out.glyphs = s.glyphs.map { MathGlyph(glyph: $0.0, x: 0, y: -(bottom + $0.1), size: c.size) }
      (out.ascent, out.descent) = (bottom + s.length, -bottom)
      out.width = s.glyphs.map { font.advance($0.0, c.size) }.max() ?? 0
    }
    out.op = op
    return out
  }
}
