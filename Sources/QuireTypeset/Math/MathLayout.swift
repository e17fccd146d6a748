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
// as wide as the formula; ShapedParagraph.swift), or one box per fragment when an inline
// formula wider than the line breaks after its top-level operators (MathPlacement.swift).
// It is painted with display items (`MathBox.items`): glyph runs, filled rectangles, box
// frames and filled paths (menclose's diagonal strokes and curves). Colour: an element's
// `mathcolor` (Ingest resolves it with the book's CSS `color`) goes to the ink of its
// subtree that has no colour of its own; its `mathbackground` is a rectangle behind its
// box. Ink without a colour takes the formula's (the `<math>` element's CSS colour).
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
  var color: RGBA? = nil
}

/// A filled rectangle: a fraction bar, a radical's overbar, a strike, a background.
struct MathRule: Hashable, Sendable {
  var rect: Rect
  var color: RGBA? = nil
}

/// A filled outline (diagonal strikes, arrows, longdiv's curve), y down from the baseline.
struct MathShape: Hashable, Sendable {
  var contours: [[FilledPath.Point]]
  var color: RGBA? = nil
}

/// A laid-out piece of math.
struct MathBox: Sendable {
  var width = 0.0
  var ascent = 0.0
  var descent = 0.0
  var glyphs: [MathGlyph] = []
  /// Filled rectangles (fraction bars, radical overbars, strikes), y down from the baseline.
  var rules: [MathRule] = []
  var frames: [MathFrame] = []
  var shapes: [MathShape] = []
  /// `mathbackground` rectangles, painted before all other ink.
  var backgrounds: [MathRule] = []
  /// Italic correction of the last glyph.
  var italic = 0.0
  /// Top accent attachment (x), for a box of one glyph.
  var topAccent: Double? = nil
  /// The operator this box is (or embellishes), with its dictionary values.
  var op: MathOperator? = nil

  /// Adds `b`'s ink with its origin at (`x`, `y`); the box grows to hold it (not in width).
  mutating func place(_ b: MathBox, x: Double, y: Double) {
    func moved(_ r: Rect) -> Rect { Rect(x: r.x + x, y: r.y + y, width: r.width, height: r.height) }
    glyphs += b.glyphs.map {
      var g = $0
      (g.x, g.y) = (g.x + x, g.y + y)
      return g
    }
    rules += b.rules.map { MathRule(rect: moved($0.rect), color: $0.color) }
    backgrounds += b.backgrounds.map { MathRule(rect: moved($0.rect), color: $0.color) }
    frames += b.frames.map {
      var f = $0
      f.rect = moved(f.rect)
      return f
    }
    shapes += b.shapes.map { s in
      MathShape(
        contours: s.contours.map {
          $0.map { FilledPath.Point($0.x + x, $0.y + y, onCurve: $0.onCurve) }
        },
        color: s.color)
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
    b.shapes = []
    b.backgrounds = []
    return b
  }

  /// Gives `color` to every piece of ink that has none yet (an element's `mathcolor`: its
  /// descendants with their own colour keep it).
  mutating func tint(_ color: RGBA) {
    for i in glyphs.indices where glyphs[i].color == nil { glyphs[i].color = color }
    for i in rules.indices where rules[i].color == nil { rules[i].color = color }
    for i in frames.indices where frames[i].color == nil { frames[i].color = color }
    for i in shapes.indices where shapes[i].color == nil { shapes[i].color = color }
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
  /// The line's width, for a display formula that is one table with equation labels: the
  /// table is centred in it and the labels set at its edge. nil below the formula's root.
  var measure: Double? = nil
}

struct MathLayout {
  let font: MathFont
  /// Lengths beyond this many em are clamped.
  static let maxEm = 200.0
  static let maxLevel = 12

  /// Lays out a whole formula at `size` px per em; `measure` is the line's width (used by a
  /// display formula that is one labelled table).
  func layout(_ f: MathFormula, size: Double, measure: Double? = nil) -> MathBox {
    var c = MathContext(size: size, level: 0, display: f.display)
    if f.display, let table = Self.soleChild(f.root), table.kind == .mtable,
      table.children.contains(where: { $0.kind == .mlabeledtr })
    {
      c.measure = measure
    }
    return layout(f.root, c)
  }

  /// The one element an mrow holds, looking through nested lone mrows; nil otherwise.
  static func soleChild(_ n: MathNode) -> MathNode? {
    var n = n
    for _ in 0..<8 {
      guard n.kind == .mrow, n.children.count == 1 else { break }
      n = n.children[0]
    }
    return n.kind == .mrow ? nil : n
  }

  func layout(_ n: MathNode, _ outer: MathContext) -> MathBox {
    var c = styled(n, outer)
    if n.kind != .mrow && n.kind != .mtable { c.measure = nil }
    var box = element(n, c)
    painted(&box, n)
    return box
  }

  /// `n`'s colour on its uncoloured ink and its background behind its box (the
  /// `mathcolor`/`mathbackground` attributes Ingest resolved from MathML and CSS).
  func painted(_ box: inout MathBox, _ n: MathNode) {
    if let v = n.attributes["mathcolor"], let color = Self.color(v) { box.tint(color) }
    if let v = n.attributes["mathbackground"], let color = Self.color(v) {
      let r = Rect(x: 0, y: -box.ascent, width: box.width, height: box.ascent + box.descent)
      box.backgrounds.insert(MathRule(rect: r, color: color), at: 0)
    }
  }

  /// A `#rrggbbaa` colour.
  static func color(_ s: String) -> RGBA? {
    let digits = s.dropFirst().compactMap(\.hexDigitValue).map(UInt8.init)
    guard s.hasPrefix("#"), digits.count == 8 else { return nil }
    let c = stride(from: 0, to: 8, by: 2).map { digits[$0] * 16 + digits[$0 + 1] }
    return RGBA(r: c[0], g: c[1], b: c[2], a: c[3])
  }

  /// One element laid out in context `c` (its own style applied).
  private func element(_ n: MathNode, _ c: MathContext) -> MathBox {
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
    var explicit = true
    switch n.attributes["form"]?.lowercased() {
    case "prefix": f = .prefix
    case "postfix": f = .postfix
    case "infix": f = .infix
    default: explicit = false
    }
    var op = MathOperators.lookup(n.text, form: f, explicit: explicit)
    func flag(_ name: String) -> Bool? { n.attributes[name].map { $0.lowercased() == "true" } }
    op.stretchy = flag("stretchy") ?? op.stretchy
    op.symmetric = flag("symmetric") ?? op.symmetric
    op.largeop = flag("largeop") ?? op.largeop
    op.movablelimits = flag("movablelimits") ?? op.movablelimits
    return op
  }

  /// `op` with the `lspace`/`rspace` attributes of its core `mo` (lengths, or percentages of
  /// the dictionary's value).
  func spaced(_ op: MathOperator, _ core: MathNode, _ c: MathContext) -> MathOperator {
    var op = op
    guard c.size > 0 else { return op }
    if let v = core.attributes["lspace"], let px = length(v, c, percentOf: op.lspace * c.size) {
      op.lspace = max(0, px / c.size)
    }
    if let v = core.attributes["rspace"], let px = length(v, c, percentOf: op.rspace * c.size) {
      op.rspace = max(0, px / c.size)
    }
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
    let parts = rowParts(nodes, c)
    var out = assemble(parts[...], c)
    if nodes.count == 1, !parts[0].fence {
      out.topAccent = parts[0].box.topAccent
      out.op = parts[0].box.op
    }
    return out
  }

  /// A child of an mrow laid out, with the operator it is (or embellishes).
  struct RowPart {
    var box: MathBox
    var op: MathOperator?
    /// A stretchy operator grown to its row.
    var fence = false
  }

  /// The children of an mrow laid out: operators take their dictionary entry in their
  /// inferred form, stretchy fences grow to the tallest other child.
  func rowParts(_ nodes: [MathNode], _ c: MathContext) -> [RowPart] {
    var ops: [MathOperator?] = []
    var boxes: [MathBox?] = []
    var above = 0.0
    var below = 0.0
    let forms = inferredForms(nodes)
    for (i, n) in nodes.enumerated() {
      let op = embellishedCore(n).map { spaced(operatorOf($0, form: forms[i]), $0, c) }
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
    return nodes.indices.map { i in
      var b = boxes[i] ?? fence(nodes[i], ops[i]!, above: above, below: below, c)
      b.op = ops[i] ?? b.op
      return RowPart(box: b, op: ops[i], fence: boxes[i] == nil)
    }
  }

  /// Parts side by side, each operator with its lspace before and rspace after.
  func assemble(_ parts: ArraySlice<RowPart>, _ c: MathContext) -> MathBox {
    var out = MathBox()
    for p in parts {
      out.width += (p.op?.lspace ?? 0) * c.size
      out.place(p.box, x: out.width, y: 0)
      out.width += p.box.width + (p.op?.rspace ?? 0) * c.size
      out.italic = p.box.italic
    }
    return out
  }

  /// The form of each child of an mrow (MathML Core, "form" of an embellished operator):
  /// ignoring space-like children, the first of several is prefix, the last postfix, the
  /// others — and an only child — infix.
  func inferredForms(_ nodes: [MathNode]) -> [MathOperator.Form] {
    var forms = [MathOperator.Form](repeating: .infix, count: nodes.count)
    let inFlow = nodes.indices.filter { !isSpaceLike(nodes[$0]) }
    guard inFlow.count > 1, let first = inFlow.first, let last = inFlow.last else { return forms }
    forms[first] = .prefix
    forms[last] = .postfix
    return forms
  }

  /// Descent bound of `isSpaceLike` and `embellishedCore`: a deeper subtree counts as neither,
  /// so a row's form inference costs O(children), not O(depth), on hostile nesting.
  static let maxEmbellishDepth = 16

  /// MathML Core's space-like elements: mtext, mspace, and mrow-like elements and mpadded
  /// whose children are all space-like.
  func isSpaceLike(_ n: MathNode, depth: Int = 0) -> Bool {
    switch n.kind {
    case .mtext, .mspace: return true
    case .mrow, .mstyle, .mphantom, .mpadded:
      guard depth < Self.maxEmbellishDepth else { return false }
      return n.children.allSatisfy { isSpaceLike($0, depth: depth + 1) }
    default: return false
    }
  }

  /// The `mo` at the core of an embellished operator (an mo; the first child of a script,
  /// under/over or fraction element whose core it is; the one non-space-like child of an
  /// mrow-like element whose core it is); nil otherwise.
  func embellishedCore(_ n: MathNode, depth: Int = 0) -> MathNode? {
    guard depth < Self.maxEmbellishDepth else { return nil }
    switch n.kind {
    case .mo: return n
    case .msub, .msup, .msubsup, .munder, .mover, .munderover, .mmultiscripts, .mfrac:
      return n.children.first.flatMap { embellishedCore($0, depth: depth + 1) }
    case .mrow, .mstyle, .mphantom, .mpadded:
      let others = n.children.filter { !isSpaceLike($0, depth: depth + 1) }
      return others.count == 1 ? embellishedCore(others[0], depth: depth + 1) : nil
    default: return nil
    }
  }

  /// A stretchy `mo` of a row, grown and painted.
  private func fence(
    _ n: MathNode, _ op: MathOperator, above: Double, below: Double, _ c: MathContext
  ) -> MathBox {
    var b = stretchedFence(n, op, above: above, below: below, styled(n, c))
    painted(&b, n)
    return b
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
