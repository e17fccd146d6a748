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
// for one with it, 2–5 breakings of its head. When the search ran on the whole paragraph,
// its last pass set the block exactly as the layout sets it (restyled up to the end it
// confirmed): the layout takes that pass's collected, itemized, shaped and broken text
// (`FirstLinePass`) instead of making it once more. From pass to pass only the text before
// the first line's end changes style: the first pass records its walk of the shape stage,
// and the passes after it take its items from the first word start past the restyled text
// (Inline/ShapeResume.swift), so each shapes little more than its first line.
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

  /// Whether `block`'s text runs hold more than `limit` scalars. Their UTF-8 lengths (no
  /// fewer than their scalars, known without a walk) answer most blocks; the others are
  /// walked up to `limit + 1` scalars, not to their end (counting every opening paragraph
  /// whole cost moby-dick ~1.5 M instructions; session 17).
  static func holdsMore(_ block: Block, than limit: Int) -> Bool {
    var bytes = 0
    for case .text(let run) in block.inlines { bytes += run.text.utf8.count }
    guard bytes > limit else { return false }
    var n = 0
    for case .text(let run) in block.inlines {
      for _ in run.text.unicodeScalars {
        n += 1
        if n > limit { return true }
      }
    }
    return false
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
      guard start < end else {
        out.inlines.append(.text(run))
        continue
      }
      // The run's scalars are walked up to `end` only, once: counting every run's scalars
      // and walking to the cut again cost moby-dick's search ~4 M instructions (session 17).
      let scalars = run.text.unicodeScalars
      let (before, overflow) = end.subtractingReportingOverflow(start)
      guard !run.generated, !overflow,
        let cut = scalars.index(scalars.startIndex, offsetBy: before, limitedBy: scalars.endIndex),
        cut != scalars.endIndex
      else {
        // Before `end` whole (generated text counts as no scalars).
        run.style = first
        out.inlines.append(.text(run))
        continue
      }
      var head = run
      head.text = String(scalars[..<cut])
      head.style = first
      run.text = String(scalars[cut...])
      run.location.offset = end
      out.inlines.append(.text(head))
      out.inlines.append(.text(run))
    }
    return out
  }
}

/// A search pass's stages. The last pass of a search over the whole paragraph restyled the
/// block exactly as the layout sets it (up to the end it confirmed), so the layout takes
/// them instead of collecting, itemizing, shaping and breaking the paragraph once more.
struct FirstLinePass {
  var text: CollectedText
  var lang: String
  var itemized: ItemizedText
  var shaped: ShapedParagraph
  /// The pass's lines; nil when they were broken beside floats (the layout breaks those
  /// its own way).
  var breaks: [LineBreak]?
  /// The source offset where the second line starts (`Int.max` for one line).
  var secondLine: Int
}

extension ChapterFlow {
  /// `block` with its first formatted line in its first-line style (the search above), the
  /// source offset where the layout must break (nil: wherever it chooses), when the search
  /// ran on the paragraph's head only, where its first line is expected to end, and the
  /// stages of its last pass when they are the layout's own (`FirstLinePass`).
  mutating func firstLineStyled(_ block: Block, left: Double, right: Double)
    -> (block: Block, forced: Int?, expected: Int?, stages: FirstLinePass?)
  {
    // The first line is in the first part of an enormous paragraph.
    let parts = ParagraphParts.split(block, limit: InlineCaps.maxParagraphScalars)
    let whole = parts[0]
    let size = styles[resolve(block.style)].size
    let limit = FirstLine.headScalars(width: right - left, size: size)
    let head = ParagraphParts.split(whole, limit: limit)[0]
    let headScalars = FirstLine.scalars(head)
    if FirstLine.holdsMore(whole, than: headScalars) {
      let (end, forced, _) = searchFirstLineEnd(head, left: left, right: right)
      // Trusted when the head holds well over one line: the final layout checks it.
      if end != Int.max, end - head.location.offset <= headScalars / 3 {
        let styled = FirstLine.applied(block, upTo: end)
        return (styled, forced ? end : nil, forced ? nil : end, nil)
      }
    }
    let (end, forced, last) = searchFirstLineEnd(whole, left: left, right: right)
    // Inline blocks and formulas are laid out by the shape stage: the layout lays them out.
    let reusable =
      !forced && parts.count == 1
      && last.map { $0.text.inlineBoxes.isEmpty && $0.text.maths.isEmpty }
        ?? false
    return (FirstLine.applied(block, upTo: end), forced ? end : nil, nil, reusable ? last : nil)
  }

  /// The search above over `probe`: where its first line ends, whether the end was settled
  /// on a cycle (the layout must then force the break there), and when it was not, the
  /// stages of the last pass (`probe` restyled up to that end).
  mutating func searchFirstLineEnd(_ probe: Block, left: Double, right: Double)
    -> (end: Int, forced: Bool, last: FirstLinePass?)
  {
    var record: FirstLineRecord? = nil
    var end =
      firstLinePass(
        FirstLine.applied(probe, upTo: Int.min), left: left, right: right, record: &record)?
      .secondLine ?? Int.max
    var seen = [end]
    for _ in 0..<FirstLine.maxPasses {
      let pass = firstLinePass(
        FirstLine.applied(probe, upTo: end), left: left, right: right, record: &record)
      let next = pass?.secondLine ?? Int.max
      if next == end { return (end, false, pass) }
      // A cycle: settle at its smallest end.
      if let k = seen.firstIndex(of: next) { return (seen[k...].min() ?? end, true, nil) }
      seen.append(next)
      end = next
    }
    return (seen.min() ?? end, true, nil)
  }

  /// Collects, itemizes, shapes and breaks `block` as `paragraphPart` does, recording
  /// nothing in the flow (nil when it holds no text); the shape stage resumes the walk of
  /// the search's first pass (`record`) where it can.
  mutating func firstLinePass(
    _ block: Block, left: Double, right: Double, record: inout FirstLineRecord?
  ) -> FirstLinePass? {
    let st = block.style
    let width = max(1, right - left)
    let blockStyle = resolve(st)
    let rtl = (block.dir ?? st.direction ?? direction) == .rtl
    let whiteSpace = CollectedText.WhiteSpaceRule(st.whiteSpace)
    let noWrap = noWrapStyle(st)
    let text = collect(block, blockStyle: blockStyle, whiteSpace: whiteSpace)
    guard !text.isEmpty else { return nil }
    let lang = language(of: block, text: text)
    let styles = self.styles
    let itemized = itemize(text, rtl: rtl, lang: lang, whiteSpace: whiteSpace)
    let (indent, restIndent) = indents(st, left: left, width: width, rtl: rtl)
    let firstWidth = max(1, width - indent)
    let restWidth = max(1, width - restIndent)
    let settings = paragraphSettings(
      block, lang: lang, whiteSpace: whiteSpace, noWrap: noWrap, measure: min(firstWidth, restWidth)
    )
    let shaped = firstLineShape(text, itemized, settings: settings, width: width, record: &record)
    var breaking = InlineBreaking(
      breaker: breaker, noWrap: noWrap, firstWidth: firstWidth, width: restWidth)
    breaking.eachLine = st.text.indentEachLine
    breaking.bands = paragraphBands(
      lineHeight: styles[blockStyle].above + styles[blockStyle].below, left: left, right: right)
    let breaks = breaking.lines(shaped.items)
    return FirstLinePass(
      text: text, lang: lang, itemized: itemized, shaped: shaped,
      breaks: breaking.bands.isEmpty ? breaks : nil,
      secondLine: FirstLine.secondLineStart(breaks, shaped, text))
  }

  /// Stage 3 of a search pass: the first pass records its walk (`record` nil), the passes
  /// after it take the recorded items from where their input agrees with the first's
  /// (Inline/ShapeResume.swift).
  mutating func firstLineShape(
    _ text: CollectedText, _ itemized: ItemizedText, settings: ShapeSettings, width: Double,
    record: inout FirstLineRecord?
  ) -> ShapedParagraph {
    let styles = self.styles
    // Images, formulas and inline blocks are sized and laid out by `shape`, ruby widened.
    guard FirstLine.resumable(text),
      !styles.contains(where: { $0.style.text.writing.rubyText != nil })
    else { return shape(text, itemized, styles: styles, settings: settings, width: width) }
    var walk = ShapeResume(recording: record == nil)
    if let record {
      walk.from = FirstLine.agreement(text, itemized, settings: settings, record: record)
      guard walk.from != Int.max else {
        return shape(text, itemized, styles: styles, settings: settings, width: width)
      }
      (walk.points, walk.out) = (record.walk.points, record.walk.out)
    }
    var stage = PieceShaper(
      text, itemized, styles: styles, fonts: fonts, settings: settings, images: [:],
      shaper: shaper.take(), hyphenation: hyphenation.take())
    stage.unsharedFeatures = unsharedFeatures
    stage.watchFrom = walk.recording ? 1 : walk.from
    stage.resume = walk
    stage.walk()
    let raw = stage.out
    let shaped = stage.finish()
    shaper = stage.shaper.take()
    swap(&stage.hyphenation, &hyphenation)
    // A walk with decorated boxes or emergency breaks is not taken up again.
    if walk.recording, raw.edges.isEmpty, raw.emergencyBreaks == 0, var recorded = stage.resume {
      recorded.out = raw
      record = FirstLineRecord(text: text, itemized: itemized, settings: settings, walk: recorded)
    }
    return shaped
  }
}

/// What a search's first pass keeps for the passes after it: its input and its recorded walk
/// of the shape stage (Inline/ShapeResume.swift).
struct FirstLineRecord {
  var text: CollectedText
  var itemized: ItemizedText
  var settings: ShapeSettings
  var walk: ShapeResume
}

extension FirstLine {
  /// Whether `text`'s shape stage may be recorded or resumed: nothing but text in one
  /// language (no images, formulas, inline blocks or `lang` spans).
  static func resumable(_ text: CollectedText) -> Bool {
    text.images.isEmpty && text.maths.isEmpty && text.inlineBoxes.isEmpty
      && text.languages.isEmpty
  }

  /// The first scalar from which `text` and `itemized` agree with `record`'s input, scalar
  /// by scalar (`Int.max`: none, or the settings differ).
  static func agreement(
    _ text: CollectedText, _ itemized: ItemizedText, settings: ShapeSettings,
    record: FirstLineRecord
  ) -> Int {
    let old = record.text
    let n = text.count
    let (a, b) = (itemized, record.itemized)
    let (levels, oldLevels) = (a.levels, b.levels)
    guard n == old.count, settings == record.settings, text.firstLanguage == old.firstLanguage,
      levels.count == oldLevels.count
    else { return Int.max }
    // Each array's common tail in turn, each scan stopping where the arrays before it
    // disagree: a tight loop per array instead of eight indexed reads per scalar (6.0 M of
    // moby-dick's search; session 17). The same index as comparing all eight per scalar.
    var j = commonTail(text.scalars, old.scalars, n, floor: 0)
    j = commonTail(text.styles, old.styles, n, floor: j)
    j = commonTail(text.smallCaps, old.smallCaps, n, floor: j)
    j = commonTail(text.sources, old.sources, n, floor: j)
    j = commonTail(a.faces, b.faces, n, floor: j)
    j = commonTail(a.scripts, b.scripts, n, floor: j)
    j = commonTail(a.breaks, b.breaks, n, floor: j)
    if !levels.isEmpty { j = commonTail(levels, oldLevels, n, floor: j) }
    return j < n ? j : Int.max
  }

  /// The first index `j ≥ floor` from which `a` and `b` agree up to `n` (`n` when they
  /// differ at `n − 1`); `n` also when either holds fewer than `n` elements.
  @inline(__always)
  static func commonTail<T: Equatable>(_ a: [T], _ b: [T], _ n: Int, floor: Int) -> Int {
    guard a.count >= n, b.count >= n else { return n }
    return a.withUnsafeBufferPointer { a in
      b.withUnsafeBufferPointer { b in
        // Indices in floor..<n, within both buffers (checked above).
        var j = n
        while j > floor, a[j - 1] == b[j - 1] { j -= 1 }
        return j
      }
    }
  }
}
