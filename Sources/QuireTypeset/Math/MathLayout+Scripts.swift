// Fractions, radicals, sub/superscripts and under/over scripts, by the MathML Core layout
// algorithms (§3.3 and §3.4) with the MATH table's constants: each position is the larger of
// the font's shift and the gap the ink needs, as in TeX's appendix G.

import CHarfBuzz
import Foundation
import QuireCore
import QuireIngest

extension MathLayout {
  func k(_ c: hb_ot_math_constant_t, _ ctx: MathContext) -> Double { font.constant(c, ctx.size) }

  /// The context of scripts, numerators, limits: not display, one level smaller.
  func inner(_ c: MathContext, levels: Int = 1) -> MathContext {
    var s = scripted(c, by: levels)
    s.display = false
    return s
  }

  // MARK: - mfrac

  func fraction(_ n: MathNode, _ c: MathContext) -> MathBox {
    let sub = inner(c, levels: c.display ? 0 : 1)
    let num = n.children.first.map { layout($0, sub) } ?? MathBox()
    let den = n.children.count > 1 ? layout(n.children[1], crampedContext(sub)) : MathBox()
    let axis = k(HB_OT_MATH_CONSTANT_AXIS_HEIGHT, c)
    let standard = k(HB_OT_MATH_CONSTANT_FRACTION_RULE_THICKNESS, c)
    var t = standard
    if let v = n.attributes["linethickness"], let px = length(v, c, percentOf: standard) {
      t = max(0, px)
    }
    var up: Double
    var down: Double
    if t > 0 {
      let d = c.display
      up = k(
        d
          ? HB_OT_MATH_CONSTANT_FRACTION_NUMERATOR_DISPLAY_STYLE_SHIFT_UP
          : HB_OT_MATH_CONSTANT_FRACTION_NUMERATOR_SHIFT_UP, c)
      down = k(
        d
          ? HB_OT_MATH_CONSTANT_FRACTION_DENOMINATOR_DISPLAY_STYLE_SHIFT_DOWN
          : HB_OT_MATH_CONSTANT_FRACTION_DENOMINATOR_SHIFT_DOWN, c)
      let numGap = k(
        d
          ? HB_OT_MATH_CONSTANT_FRACTION_NUM_DISPLAY_STYLE_GAP_MIN
          : HB_OT_MATH_CONSTANT_FRACTION_NUMERATOR_GAP_MIN, c)
      let denGap = k(
        d
          ? HB_OT_MATH_CONSTANT_FRACTION_DENOM_DISPLAY_STYLE_GAP_MIN
          : HB_OT_MATH_CONSTANT_FRACTION_DENOMINATOR_GAP_MIN, c)
      up = max(up, axis + t / 2 + numGap + num.descent)
      down = max(down, den.ascent + denGap - axis + t / 2)
    } else {
      up = k(
        c.display
          ? HB_OT_MATH_CONSTANT_STACK_TOP_DISPLAY_STYLE_SHIFT_UP
          : HB_OT_MATH_CONSTANT_STACK_TOP_SHIFT_UP, c)
      down = k(
        c.display
          ? HB_OT_MATH_CONSTANT_STACK_BOTTOM_DISPLAY_STYLE_SHIFT_DOWN
          : HB_OT_MATH_CONSTANT_STACK_BOTTOM_SHIFT_DOWN, c)
      let minGap = k(
        c.display
          ? HB_OT_MATH_CONSTANT_STACK_DISPLAY_STYLE_GAP_MIN
          : HB_OT_MATH_CONSTANT_STACK_GAP_MIN, c)
      let gap = (up - num.descent) - (den.ascent - down)
      if gap < minGap {
        up += (minGap - gap) / 2
        down += (minGap - gap) / 2
      }
    }
    // MathML Core's user-agent sheet pads a fraction by 1 CSS px on each side.
    let pad = c.size / 16
    var box = MathBox(width: max(num.width, den.width) + 2 * pad)
    box.place(num, x: (box.width - num.width) / 2, y: -up)
    box.place(den, x: (box.width - den.width) / 2, y: down)
    if t > 0 {
      box.rules.append(
        MathRule(rect: Rect(x: pad, y: -(axis + t / 2), width: box.width - 2 * pad, height: t)))
      box.ascent = max(box.ascent, axis + t / 2)
      box.descent = max(box.descent, t / 2 - axis)
    }
    return box
  }

  // MARK: - msqrt, mroot

  func radical(_ base: MathBox, degree: MathNode?, _ c: MathContext) -> MathBox {
    let t = k(HB_OT_MATH_CONSTANT_RADICAL_RULE_THICKNESS, c)
    let gap = k(
      c.display
        ? HB_OT_MATH_CONSTANT_RADICAL_DISPLAY_STYLE_VERTICAL_GAP
        : HB_OT_MATH_CONSTANT_RADICAL_VERTICAL_GAP, c)
    let extra = k(HB_OT_MATH_CONSTANT_RADICAL_EXTRA_ASCENDER, c)
    let target = base.ascent + base.descent + gap + t
    guard let g = font.glyph(0x221A),
      let s = font.stretch(g, to: target, size: c.size, horizontal: false)
    else { return base }
    let glyphs = s.glyphs.count == 1 ? [(s.glyphs[0].0, 0.0)] : s.glyphs
    var height = s.length
    var inkBottom = 0.0
    if s.glyphs.count == 1 {
      let ink = font.ink(s.glyphs[0].0, c.size)
      height = ink.ascent + ink.descent
      inkBottom = -ink.descent
    }
    let top = base.ascent + gap + max(0, height - target) / 2 + t
    let bottom = top - height
    let radicalWidth = glyphs.map { font.advance($0.0, c.size) }.max() ?? 0
    var box = MathBox()
    var x = 0.0
    if let degree {
      let d = layout(degree, inner(c, levels: 2))
      let before = k(HB_OT_MATH_CONSTANT_RADICAL_KERN_BEFORE_DEGREE, c)
      let after = k(HB_OT_MATH_CONSTANT_RADICAL_KERN_AFTER_DEGREE, c)
      let raise = font.percent(HB_OT_MATH_CONSTANT_RADICAL_DEGREE_BOTTOM_RAISE_PERCENT) * height
      box.place(d, x: max(0, before), y: -(bottom + raise + d.descent))
      x = max(0, before + d.width + after)
    }
    for (glyph, offset) in glyphs {
      box.glyphs.append(
        MathGlyph(glyph: glyph, x: x, y: -(bottom - inkBottom + offset), size: c.size))
    }
    box.ascent = max(box.ascent, top + extra)
    box.descent = max(box.descent, -bottom)
    box.rules.append(
      MathRule(rect: Rect(x: x + radicalWidth, y: -top, width: base.width, height: t)))
    box.place(base, x: x + radicalWidth, y: 0)
    box.width = x + radicalWidth + base.width
    return box
  }

  // MARK: - msub, msup, msubsup, mmultiscripts

  /// Shifts of a subscript (down) and superscript (up) pair for `base`.
  func scriptShifts(base: MathBox, sub: MathBox?, sup: MathBox?, _ c: MathContext)
    -> (sub: Double, sup: Double)
  {
    var subShift = 0.0
    var supShift = 0.0
    if let sub {
      subShift = max(
        k(HB_OT_MATH_CONSTANT_SUBSCRIPT_SHIFT_DOWN, c),
        base.descent + k(HB_OT_MATH_CONSTANT_SUBSCRIPT_BASELINE_DROP_MIN, c),
        sub.ascent - k(HB_OT_MATH_CONSTANT_SUBSCRIPT_TOP_MAX, c))
    }
    if let sup {
      supShift = max(
        k(
          c.cramped
            ? HB_OT_MATH_CONSTANT_SUPERSCRIPT_SHIFT_UP_CRAMPED
            : HB_OT_MATH_CONSTANT_SUPERSCRIPT_SHIFT_UP,
          c),
        base.ascent - k(HB_OT_MATH_CONSTANT_SUPERSCRIPT_BASELINE_DROP_MAX, c),
        sup.descent + k(HB_OT_MATH_CONSTANT_SUPERSCRIPT_BOTTOM_MIN, c))
    }
    if let sub, let sup {
      let gap = (supShift - sup.descent) - (sub.ascent - subShift)
      let minGap = k(HB_OT_MATH_CONSTANT_SUB_SUPERSCRIPT_GAP_MIN, c)
      if gap < minGap { subShift += minGap - gap }
      let bottomMax = k(HB_OT_MATH_CONSTANT_SUPERSCRIPT_BOTTOM_MAX_WITH_SUBSCRIPT, c)
      let delta = bottomMax - (supShift - sup.descent)
      if delta > 0 {
        supShift += delta
        subShift -= delta
      }
    }
    return (subShift, supShift)
  }

  func scripts(_ n: MathNode, _ c: MathContext) -> MathBox {
    let base = n.children.first.map { layout($0, c) } ?? MathBox()
    let s = inner(c)
    // A subscript is cramped; a superscript keeps the base's crampedness.
    let second =
      n.children.count > 1
      ? layout(n.children[1], n.kind == .msup ? s : crampedContext(s)) : MathBox()
    let third = n.children.count > 2 ? layout(n.children[2], s) : MathBox()
    let sub: MathBox? = n.kind == .msup ? nil : second
    let sup: MathBox? = n.kind == .msub ? nil : (n.kind == .msup ? second : third)
    return attach(base, subs: [(sub, sup)], pre: [], c)
  }

  func multiscripts(_ n: MathNode, _ c: MathContext) -> MathBox {
    let base = n.children.first.map { layout($0, c) } ?? MathBox()
    let s = inner(c)
    var post: [(MathBox?, MathBox?)] = []
    var pre: [(MathBox?, MathBox?)] = []
    var inPre = false
    var pending: MathBox?? = nil
    for child in n.children.dropFirst() {
      if child.kind == .mprescripts {
        inPre = true
        pending = nil
        continue
      }
      let b: MathBox? = child.kind == .none ? nil : layout(child, s)
      if let first = pending {
        if inPre { pre.append((first, b)) } else { post.append((first, b)) }
        pending = nil
      } else {
        pending = .some(b)
      }
    }
    return attach(base, subs: post, pre: pre, c)
  }

  /// `base` with columns of (sub, sup) pairs after it and before it.
  func attach(
    _ base: MathBox, subs post: [(MathBox?, MathBox?)], pre: [(MathBox?, MathBox?)],
    _ c: MathContext
  ) -> MathBox {
    var subShift = 0.0
    var supShift = 0.0
    for (sub, sup) in post + pre {
      let s = scriptShifts(base: base, sub: sub, sup: sup, c)
      subShift = max(subShift, s.sub)
      supShift = max(supShift, s.sup)
    }
    let space = k(HB_OT_MATH_CONSTANT_SPACE_AFTER_SCRIPT, c)
    let largeop = base.op?.largeop ?? false
    var box = MathBox()
    var x = 0.0
    for (sub, sup) in pre {
      let w = max(sub?.width ?? 0, sup?.width ?? 0)
      if let sub { box.place(sub, x: x + w - sub.width, y: subShift) }
      if let sup { box.place(sup, x: x + w - sup.width, y: -supShift) }
      x += w + (pre.isEmpty ? 0 : space)
    }
    box.place(base, x: x, y: 0)
    x += base.width
    for (sub, sup) in post {
      var w = 0.0
      if let sub {
        let dx = largeop ? -base.italic : 0
        box.place(sub, x: x + dx, y: subShift)
        w = max(w, sub.width + dx)
      }
      if let sup {
        let dx = largeop ? 0 : base.italic
        box.place(sup, x: x + dx, y: -supShift)
        w = max(w, sup.width + dx)
      }
      x += w
    }
    box.width = x + (post.isEmpty ? 0 : space)
    box.op = base.op
    return box
  }

  // MARK: - munder, mover, munderover

  func underOver(_ n: MathNode, _ c: MathContext) -> MathBox {
    let baseNode = n.children.first ?? MathNode(kind: .mrow)
    let core = embellishedCore(baseNode).map { operatorOf($0, form: .prefix) }
    if let core, core.movablelimits, !c.display {
      var asScripts = n
      asScripts.kind = n.kind == .munder ? .msub : n.kind == .mover ? .msup : .msubsup
      return scripts(asScripts, c)
    }
    let underNode: MathNode? = n.kind == .mover ? nil : (n.children.count > 1 ? n.children[1] : nil)
    let overNode: MathNode? =
      n.kind == .munder
      ? nil
      : (n.children.count > (n.kind == .mover ? 1 : 2)
        ? n.children[n.kind == .mover ? 1 : 2] : nil)
    let accent = n.attributes["accent"]?.lowercased() == "true"
    let accentUnder = n.attributes["accentunder"]?.lowercased() == "true"
    var base = layout(baseNode, c)
    if let core { base.op = base.op ?? core }
    var under = underNode.map { layout($0, accentUnder ? noDisplay(c) : inner(c)) }
    var over = overNode.map { layout($0, accent ? noDisplay(c) : inner(c)) }
    // Stretchy horizontal operators grow to the widest of the others.
    let widest = max(base.width, under?.width ?? 0, over?.width ?? 0)
    if let node = overNode,
      let s = stretchedHorizontally(node, to: widest, accent ? noDisplay(c) : inner(c))
    {
      over = s
    }
    if let node = underNode,
      let s = stretchedHorizontally(node, to: widest, accentUnder ? noDisplay(c) : inner(c))
    {
      under = s
    }
    if let s = stretchedHorizontally(baseNode, to: max(under?.width ?? 0, over?.width ?? 0), c) {
      base = s
    }
    return stack(base, under: under, over: over, accent: accent, accentUnder: accentUnder, c)
  }

  func noDisplay(_ c: MathContext) -> MathContext {
    var c = c
    c.display = false
    return c
  }

  /// A stretchy `mo` (or nothing) grown horizontally to `width`.
  func stretchedHorizontally(_ n: MathNode, to width: Double, _ c: MathContext) -> MathBox? {
    guard n.kind == .mo, n.text.unicodeScalars.count == 1 else { return nil }
    let op = operatorOf(n, form: .postfix)
    guard op.stretchy, var box = Optional(token(n, c)), let g = box.glyphs.first?.glyph,
      width > box.width,
      let s = font.stretch(g, to: width, size: c.size, horizontal: true)
    else { return nil }
    box.glyphs = s.glyphs.map { MathGlyph(glyph: $0.0, x: $0.1, y: 0, size: c.size) }
    box.width = s.length
    box.ascent = -Double.infinity
    box.descent = -Double.infinity
    for (glyph, _) in s.glyphs {
      let ink = font.ink(glyph, c.size)
      box.ascent = max(box.ascent, ink.ascent)
      box.descent = max(box.descent, ink.descent)
    }
    box.topAccent = nil
    box.op = op
    painted(&box, n)
    return box
  }

  /// Under and over scripts stacked on `base`, centred (accents on the attachment point).
  func stack(
    _ base: MathBox, under: MathBox?, over: MathBox?, accent: Bool, accentUnder: Bool,
    _ c: MathContext
  ) -> MathBox {
    let largeop = base.op?.largeop ?? false
    let width = max(base.width, under?.width ?? 0, over?.width ?? 0)
    var box = MathBox(width: width)
    let baseX = (width - base.width) / 2
    box.place(base, x: baseX, y: 0)
    if let over {
      var up: Double
      if accent {
        // The accent's ink sits on the base's ink, or on the accent base height when the
        // base is shorter (ASCII ^ ~ and arrows are not designed as combining accents).
        up = max(base.ascent, k(HB_OT_MATH_CONSTANT_ACCENT_BASE_HEIGHT, c)) + over.descent
      } else if largeop {
        up = max(
          base.ascent + k(HB_OT_MATH_CONSTANT_UPPER_LIMIT_BASELINE_RISE_MIN, c),
          base.ascent + k(HB_OT_MATH_CONSTANT_UPPER_LIMIT_GAP_MIN, c) + over.descent)
      } else {
        up = base.ascent + k(HB_OT_MATH_CONSTANT_OVERBAR_VERTICAL_GAP, c) + over.descent
        box.ascent = max(
          box.ascent, up + over.ascent + k(HB_OT_MATH_CONSTANT_OVERBAR_EXTRA_ASCENDER, c))
      }
      var x = (width - over.width) / 2 + (largeop ? base.italic / 2 : 0)
      if accent, let a = over.topAccent {
        x = baseX + (base.topAccent ?? base.width / 2) - a
      }
      box.place(over, x: x, y: -up)
    }
    if let under {
      var down: Double
      if accentUnder {
        down = base.descent + under.ascent
      } else if largeop {
        down = max(
          base.descent + k(HB_OT_MATH_CONSTANT_LOWER_LIMIT_BASELINE_DROP_MIN, c),
          base.descent + k(HB_OT_MATH_CONSTANT_LOWER_LIMIT_GAP_MIN, c) + under.ascent)
      } else {
        down = base.descent + k(HB_OT_MATH_CONSTANT_UNDERBAR_VERTICAL_GAP, c) + under.ascent
        box.descent = max(
          box.descent, down + under.descent + k(HB_OT_MATH_CONSTANT_UNDERBAR_EXTRA_DESCENDER, c))
      }
      box.place(under, x: (width - under.width) / 2 - (largeop ? base.italic / 2 : 0), y: down)
    }
    box.op = base.op
    return box
  }
}
