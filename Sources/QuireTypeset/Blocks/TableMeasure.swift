// Intrinsic widths for automatic table layout (CSS Sizing 3 §5): the min-content width of a
// block is its widest unbreakable unit (a word, or a part of one between hyphenation points
// where `hyphens` apply, with the hyphen shown), its max-content width the widest line when
// nothing wraps but at forced breaks. Both come from the same shape stage that lays the text
// out (so the numbers are the ones the lines will have): collect → itemize → shape with an
// infinite measure (no emergency break points), then one pass over the break items. CJK
// punctuation that a line may hang past its end or trim at its end (JLREQ 3.1.4–3.1.5)
// keeps its full width in a min-content unit: browsers measure "い，" as two em (CSS Text 4
// trims only where a line would not fit otherwise; `hanging-punctuation` is `none`).
//
// Blocks with children take the widest child plus their own horizontal margins, borders and
// padding; images their intrinsic width (capped to the page); nested tables the sums of their
// columns. Work is one shaping pass per paragraph (the shaper's word cache makes the later
// layout pass cheap); nesting is bounded by `ChapterFlow.maxNesting`.

import QuireIngest

/// A min-content and max-content width, px.
struct IntrinsicWidths {
  var min: Double = 0
  var max: Double = 0
  mutating func include(_ o: IntrinsicWidths, plus extra: Double = 0) {
    min = Swift.max(min, o.min + extra)
    max = Swift.max(max, o.max + extra)
  }
}

extension ChapterFlow {
  /// The intrinsic widths of a block's border box.
  mutating func intrinsicWidths(_ block: Block, depth: Int) -> IntrinsicWidths {
    var out = IntrinsicWidths()
    let st = block.style
    let extra = horizontalExtras(block)
    switch block.kind {
    case .image(let ref):
      let w = imageSizing(available: textWidth).resolve(ref, natural: naturalSize(ref)).width
      return IntrinsicWidths(min: w + extra, max: w + extra)
    case .rule:
      return IntrinsicWidths(min: extra, max: extra)
    case .table where depth < ChapterFlow.maxNesting:
      // The table's widths hold its borders and padding (its chrome): add its margins only.
      if let w = tableIntrinsicWidths(block, depth: depth + 1) {
        let margins = Swift.max(0, px(st.margin.left, of: 0) + px(st.margin.right, of: 0))
        return IntrinsicWidths(min: w.min + margins, max: w.max + margins)
      }
    default: break
    }
    if !block.inlines.isEmpty {
      out.include(inlineWidths(block))
    }
    if depth < ChapterFlow.maxNesting {
      let em = options.fontSize * st.fontSize
      for child in block.children {
        var indent = 0.0
        if case .list = child.kind, px(child.style.padding.left, of: 0) < 0.5,
          ChapterFlow.hasOutsideMarkers(child)
        {
          indent = 2 * em
        }
        out.include(intrinsicWidths(child, depth: depth + 1), plus: indent)
      }
    }
    out.min += extra
    out.max += extra
    return out
  }

  /// Horizontal margins, borders and padding of a block (percentages count as 0, as
  /// intrinsic sizing treats them).
  func horizontalExtras(_ block: Block) -> Double {
    let st = block.style
    let b = block.box.border
    let sides =
      px(st.margin.left, of: 0) + px(st.margin.right, of: 0) + px(st.padding.left, of: 0)
      + px(st.padding.right, of: 0)
    return Swift.max(0, sides) + px(b.left.usedWidth, of: 0) + px(b.right.usedWidth, of: 0)
  }

  /// The intrinsic widths of a paragraph's inline content.
  mutating func inlineWidths(_ block: Block) -> IntrinsicWidths {
    let st = block.style
    let blockStyle = resolve(st)
    let rtl = (block.dir ?? st.direction ?? direction) == .rtl
    let whiteSpace = CollectedText.WhiteSpaceRule(st.whiteSpace)
    let noWrap = noWrapStyle(st)
    let text = collect(block, blockStyle: blockStyle, whiteSpace: whiteSpace)
    if text.isEmpty { return IntrinsicWidths() }
    let lang = language(of: block, text: text)
    let styles = self.styles
    let itemized = ItemizedText(
      text, styles: styles, fonts: fonts, rtl: rtl, language: lang,
      preserveSpaces: whiteSpace.preserve)
    var settings = shapeSettings(st, lang: lang, whiteSpace: whiteSpace, noWrap: noWrap)
    settings.measure = .infinity
    settings.flaggedBreaks = options.hyphenate == .auto
    // Inline blocks are laid out to be measured: their block numbers are not used up.
    let next = nextBlock
    // Only the inline blocks' widths count here: laying their content out too would lay a
    // box nested k deep out 2^k times (once per measure and once per layout of each
    // ancestor), as a fuzzed 157 KB chapter of nested inline tables showed (34 s).
    let measuring = measuringWidths
    measuringWidths = true
    let shaped = shape(text, itemized, styles: styles, settings: settings, width: textWidth)
    measuringWidths = measuring
    nextBlock = next
    var w = ChapterFlow.intrinsicWidths(shaped.items, noWrap: noWrap)
    let indent = Swift.max(0, px(st.textIndent, of: 0))
    w.min += indent
    w.max += indent
    return w
  }

  /// Widest unbreakable run and widest forced line of a paragraph's break items.
  static func intrinsicWidths(_ items: [BreakItem], noWrap: Bool) -> IntrinsicWidths {
    var out = IntrinsicWidths()
    var line = 0.0
    var unit = 0.0
    var afterBox = false
    for item in items {
      switch item {
      case .box(let w):
        line += w
        unit += w
        afterBox = true
      case .glue(let w, _, _):
        if afterBox && !noWrap {
          out.min = Swift.max(out.min, unit)
          unit = 0
        } else if noWrap {
          unit += w
        }
        line += w
        afterBox = false
      case .penalty(let w, let cost, _):
        if cost >= BreakItem.forcedBreak {
          out.max = Swift.max(out.max, line)
          out.min = Swift.max(out.min, unit)
          line = 0
          unit = 0
        } else if cost > -BreakItem.forcedBreak && !noWrap {
          // A negative width is CJK punctuation hung past the line end or compressed there
          // (Kinsoku.boundaryItems): only lines that would not fit otherwise do that (CSS
          // Text 4 `text-spacing-trim`; `hanging-punctuation` is `none` in CSS), so the
          // unit keeps its full width, as in browsers.
          out.min = Swift.max(out.min, unit + Swift.max(0, w))
          unit = 0
        }
        afterBox = false
      }
    }
    out.max = Swift.max(out.max, line)
    out.min = Swift.max(out.min, unit)
    out.max = Swift.max(out.max, out.min)
    return out
  }
}
