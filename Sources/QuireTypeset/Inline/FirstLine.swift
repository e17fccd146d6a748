// `::first-line` (CSS 2.1 §5.12.1, CSS Pseudo 4 §3.1): the text of a block's first
// formatted line set in its first-line style.
//
// Which text is on the first line depends on the breaks, and the breaks on the text's
// style, so the style is settled by a bounded fixed-point search over the first line's end
// E (a source offset; ingest gave every run of the block its first-line style beside its
// own, `ComputedStyle.firstLine`, Ingest/Markup/FirstLineCascade.swift):
//
//   1. break the paragraph with every run in its own style: the first line ends at E₀;
//   2. restyle the text before Eₖ (runs split at Eₖ), break again: the first line ends
//      at Eₖ₊₁;
//   3. stop when Eₖ₊₁ = Eₖ — the restyled text is exactly the first line's;
//      at most `FirstLine.maxPasses` passes. A first line that ends alternately at two
//      offsets (a wider first-line style pushes a word down, and the narrower plain word
//      then fits again) is settled at the smaller one — what a browser sets, which breaks
//      the first line in its first-line style — and the final layout is forced to break
//      there, so the plain word goes down. That first line is then set as a line before a
//      forced break (`text-align-last`, ragged in justified text). Rejected: a strong but
//      optional break (TeX's `\linebreak`, −(forced − 1) with stretchable spaces): it keeps
//      the line justified, but Knuth–Plass refuses it whenever the rest of the paragraph
//      cannot be set well from there, and then first-line text spills onto the second line.
//
// Every pass runs collect → itemize → shape → break without recording anything, on the
// paragraph's head: about eight lines of text (`headScalars`), since re-breaking whole
// opening paragraphs cost moby-dick's paginate 9 % (496 M instructions). Knuth–Plass chooses
// a first line from the lines after it too, so the head's answer is trusted only when the
// line ends in the head's first third, and the final layout — the ordinary one over the
// restyled block — checks the first line it sets and, in the rare case it ends elsewhere,
// forces the break at the searched end. A head that holds no such line is searched again as
// the whole paragraph (its first part, for an enormous one: `ParagraphParts`). Knuth–Plass
// chooses the breaks of the whole paragraph at once, so a browser's line-by-line first line
// cannot be reproduced exactly; the fixed point is the line a browser would set whenever it
// exists. Cost: nothing for a block without `::first-line` (one Bool read per paragraph);
// for one with it, 2–5 breakings of its head.
//
// Generated text (`::before`, quotes) sits at the offset of the source character after it:
// a generated run at E exactly counts as the second line's.

import QuireIngest

enum FirstLine {
  /// Breakings after the first, at most (the search above).
  static let maxPasses = 4
  /// The penalty cost of the break that ends a first line settled on a cycle (forced).
  static let breakCost = BreakItem.forcedBreak

  /// The scalars of the paragraph's head the search may run on: about eight lines of
  /// `width` px at `size` px (at least 256). Knuth–Plass chooses a first line from the lines
  /// after it too, so the head is trusted only when the first line ends in its first third,
  /// and the final layout checks the line it sets (`secondLineStart`).
  static func headScalars(width: Double, size: Double) -> Int {
    let perLine = width / max(1, 0.45 * size)
    return max(256, Int(min(8 * perLine, Double(InlineCaps.maxParagraphScalars))))
  }

  /// The scalars of `block`'s text runs.
  static func scalars(_ block: Block) -> Int {
    var n = 0
    for case .text(let run) in block.inlines { n += run.text.unicodeScalars.count }
    return n
  }

  /// The source offset where the second of `breaks`' lines starts (`Int.max` for one line).
  static func secondLineStart(
    _ breaks: [LineBreak], _ shaped: ShapedParagraph, _ text: CollectedText
  ) -> Int {
    guard breaks.count > 1 else { return Int.max }
    for k in (breaks[0].index + 1)..<shaped.sources.count {
      if case .piece(let p) = shaped.sources[k] { return text.sources[shaped.pieces[p].start] }
    }
    return Int.max
  }

  /// Forces the break before the first piece at or after source offset `end`, so the first
  /// line ends there (a cycle of the search above).
  static func forceBreak(_ shaped: inout ShapedParagraph, text: CollectedText, at end: Int) {
    guard
      let k = shaped.sources.firstIndex(where: {
        if case .piece(let p) = $0 { return text.sources[shaped.pieces[p].start] >= end }
        return false
      })
    else { return }
    // The break opportunity before it, past the piece's letter-spacing glue.
    var b = k - 1
    while b >= 0, case .letter = shaped.sources[b] { b -= 1 }
    guard b > 0 else { return }
    switch (shaped.items[b], shaped.sources[b]) {
    case (.penalty(let w, let cost, let flagged), _) where abs(cost) < BreakItem.forcedBreak:
      shaped.items[b] = .penalty(width: w, cost: breakCost, flagged: flagged)
    case (.glue, .space(let i, _)):
      if case .box = shaped.items[b - 1] {
        shaped.items.insert(.penalty(width: 0, cost: breakCost, flagged: false), at: b)
        shaped.sources.insert(.plain(i), at: b)
      }
    default: return
    }
  }

  /// `block` with the text before source offset `end` in its runs' first-line styles and
  /// every other run in its own (a run across `end` is split there).
  static func applied(_ block: Block, upTo end: Int) -> Block {
    var out = block
    out.hasFirstLine = false
    out.inlines = []
    out.inlines.reserveCapacity(block.inlines.count + 1)
    for inline in block.inlines {
      guard case .text(var run) = inline, let first = run.style.firstLine?.style else {
        out.inlines.append(inline)
        continue
      }
      run.style.firstLine = nil
      let start = run.location.offset
      let count = run.generated ? 0 : run.text.unicodeScalars.count
      if start >= end {
        out.inlines.append(.text(run))
      } else if start + count <= end {
        run.style = first
        out.inlines.append(.text(run))
      } else {
        let scalars = run.text.unicodeScalars
        let cut = scalars.index(scalars.startIndex, offsetBy: end - start)
        var head = run
        head.text = String(scalars[..<cut])
        head.style = first
        run.text = String(scalars[cut...])
        run.location.offset = end
        out.inlines.append(.text(head))
        out.inlines.append(.text(run))
      }
    }
    return out
  }
}

extension ChapterFlow {
  /// `block` with its first formatted line in its first-line style (the search above), the
  /// source offset where the layout must break (nil: wherever it chooses), and, when the
  /// search ran on the paragraph's head only, where its first line is expected to end.
  mutating func firstLineStyled(_ block: Block, left: Double, right: Double)
    -> (block: Block, forced: Int?, expected: Int?)
  {
    // The first line is in the first part of an enormous paragraph.
    let whole = ParagraphParts.split(block, limit: InlineCaps.maxParagraphScalars)[0]
    let size = styles[resolve(block.style)].size
    let limit = FirstLine.headScalars(width: right - left, size: size)
    let head = ParagraphParts.split(whole, limit: limit)[0]
    let headScalars = FirstLine.scalars(head)
    if headScalars < FirstLine.scalars(whole) {
      let (end, forced) = searchFirstLineEnd(head, left: left, right: right)
      // Trusted when the head holds well over one line: the final layout checks it.
      if end != Int.max, end - head.location.offset <= headScalars / 3 {
        return (FirstLine.applied(block, upTo: end), forced ? end : nil, forced ? nil : end)
      }
    }
    let (end, forced) = searchFirstLineEnd(whole, left: left, right: right)
    return (FirstLine.applied(block, upTo: end), forced ? end : nil, nil)
  }

  /// The search above over `probe`: where its first line ends, and whether the end was
  /// settled on a cycle (the layout must then force the break there).
  mutating func searchFirstLineEnd(_ probe: Block, left: Double, right: Double)
    -> (end: Int, forced: Bool)
  {
    var end = firstLineEnd(FirstLine.applied(probe, upTo: Int.min), left: left, right: right)
    var seen = [end]
    for _ in 0..<FirstLine.maxPasses {
      let next = firstLineEnd(FirstLine.applied(probe, upTo: end), left: left, right: right)
      if next == end { return (end, false) }
      // A cycle: settle at its smallest end.
      if let k = seen.firstIndex(of: next) { return (seen[k...].min() ?? end, true) }
      seen.append(next)
      end = next
    }
    return (seen.min() ?? end, true)
  }

  /// The source offset where `block`'s second line starts (`Int.max` when it sets one
  /// line): collect, itemize, shape and break as `paragraphPart` does, recording nothing.
  mutating func firstLineEnd(_ block: Block, left: Double, right: Double) -> Int {
    let st = block.style
    let width = max(1, right - left)
    let blockStyle = resolve(st)
    let rtl = (block.dir ?? st.direction ?? direction) == .rtl
    let whiteSpace = CollectedText.WhiteSpaceRule(st.whiteSpace)
    let noWrap = noWrapStyle(st)
    let text = collect(block, blockStyle: blockStyle, whiteSpace: whiteSpace)
    guard !text.isEmpty else { return Int.max }
    let lang = language(of: block, text: text)
    let styles = self.styles
    let itemized = ItemizedText(
      text, styles: styles, fonts: fonts, rtl: rtl, language: lang,
      preserveSpaces: whiteSpace.preserve)
    let (indent, restIndent) = indents(st, left: left, width: width, rtl: rtl)
    let firstWidth = max(1, width - indent)
    let restWidth = max(1, width - restIndent)
    var settings = shapeSettings(st, lang: lang, whiteSpace: whiteSpace, noWrap: noWrap)
    settings.measure = min(firstWidth, restWidth)
    settings.flaggedBreaks = options.hyphenate == .auto
    settings.hyphenate = settings.hyphenate && ChapterFlow.autoHyphenation(block)
    settings.hyphenateSpans = settings.hyphenateSpans && ChapterFlow.autoHyphenation(block)
    let shaped = shape(text, itemized, styles: styles, settings: settings, width: width)
    var breaking = InlineBreaking(
      breaker: breaker, noWrap: noWrap, firstWidth: firstWidth, width: restWidth)
    breaking.eachLine = st.text.indentEachLine
    breaking.bands = paragraphBands(
      lineHeight: styles[blockStyle].above + styles[blockStyle].below, left: left, right: right)
    return FirstLine.secondLineStart(breaking.lines(shaped.items), shaped, text)
  }
}
