// Inline layout of one block, in named stages over one item model (as parley does):
//
//   collect   `CollectedText`   inlines → scalars with source offsets and style indices;
//                               white space, text-transform, fake small caps, <br>, images
//   itemize   `ItemizedText`    bidi levels, UAX #14 opportunities, script and face per scalar
//   shape     `PieceShaper`     → `ShapedParagraph`: shaped pieces (word cache, HarfBuzz,
//                               hyphenation) and BreakItems with their `ItemSource`s
//   break     `InlineBreaking`  → [LineBreak] (Knuth–Plass or greedy)
//   compose   `LineComposer`    → [ComposedLine]: visual order, justification, letter
//                               spacing, decorations, inserted hyphens, glyph runs
//
// `ChapterFlow.paragraph` below only drives them and turns composed lines into
// `FlowEntry`s (list marker, widows/orphans). Each stage takes a value and returns one, so
// it can be run and tested alone (Tests/QuireTypesetTests/InlineStageTests.swift).
//
// Units and coordinates: the stages index text by scalar (not by UTF-16 or grapheme);
// `CollectedText.sources` maps each scalar to its source offset. Widths are page pixels
// from shaping on (font units × size / units per em); compose places x in page pixels and
// y from the line's top.
//
// Where later work plugs in. Vertical writing: itemize gains an orientation per scalar
// (upright/sideways from UAX #50), shape passes a vertical direction to HarfBuzz, break is
// unchanged (it sees widths), and compose gets a vertical `LineGeometry` (columns right to
// left) — collect and break do not move. Floats: compose takes a per-line measure (the
// breaker already asks for each line's width), so a float narrows lines without touching
// the other stages; an inline float is placed at its own line between two runs of the break
// stage (Blocks/InlineFloats.swift). Math: collect emits one U+FFFC object per formula like an inline image,
// with a box from a math layout; shape makes it one box. Inline blocks likewise: their content
// is laid out first as a paragraph of its own (InlineBoxLayout.swift), then it is one box. CSS inline boxes (padding,
// borders, backgrounds; InlineBoxEdges.swift): each run carries its chain of decorated
// boxes, shape turns the chain's changes into edge boxes as wide as the sides, and compose
// paints one box fragment per line around the pieces of each box.
//
// Rejected: one function over shared mutable state (what this replaced: ~670 lines, ~20
// captured locals, no phase testable alone, three copies of the pen walk), and a list of
// runs with per-run arrays (parley's `Run`s) for itemize — the shape stage reads every
// scalar once in order, so flat per-scalar arrays are cheaper than a run search, and
// `ItemizedText.runs` gives the run view where it is wanted.
//
// Letter spacing: Noto Serif's space is narrow (0.26 em), so word spaces alone give the
// breaker little stretch and many lines end up loose. Each Latin/Cyrillic/Greek word gets
// letter-spacing glue (pdfTeX's font expansion, InDesign's letter spacing) whose width
// compose spreads between the word's glyphs. Word spaces keep their 1/2, 1/3 proportions,
// so a line's ratio still gives its word-space width exactly. Rejected: scaling glyphs
// horizontally (the rasteriser would need a transform per run) and a box-stretch field in
// BreakItem (a change to a shared enum every breaker switches over).
//
// CJK spacing (JLREQ; the items come from `Kinsoku.boundaryItems`): fullwidth punctuation
// whose em box is half blank is compressed — a fixed −½ em glue between adjacent
// punctuation (」「, 。」), a −½ em penalty width when a line ends after it, ½ em of shrink
// inside a line that must tighten — 。、，． may hang wholly past the measure (a −1 em
// penalty with a cost), and ¼ em glue separates CJK from Latin letters and digits. A space
// next to CJK text follows the kinsoku rules too (no break before "？" in "我 ？」").

import CHarfBuzz
import Foundation
import QuireIngest

extension ChapterFlow {
  /// Lays out one block's inlines: in parts when it is enormous (`ParagraphParts`); its
  /// floated inline elements beside the lines they sit in (Blocks/InlineFloats.swift).
  mutating func paragraph(_ block: Block, left: Double, right: Double) {
    paragraphCount += 1
    // Nearly every paragraph — no floated inline, no float beside it, no `::first-line`,
    // one part — is laid out as it is: the general path below copies the block (its style
    // and arrays retained and released) three times (16 M instructions on moby-dick,
    // Benchmarks/paginate-cost.md "Session 17"), and does nothing else for it.
    if !block.hasFirstLine, floatArea.isEmpty,
      !block.inlines.contains(where: ChapterFlow.isFloated),
      ParagraphParts.fits(block, limit: InlineCaps.maxParagraphScalars)
    {
      paragraphPart(block, left: left, right: right)
      return
    }
    var block = block
    var floats: [PendingFloat] = []
    if block.inlines.contains(where: ChapterFlow.isFloated) {
      floats = liftFloats(&block, left: left, right: right)
    }
    if !floatArea.isEmpty {
      let strut = styles[resolve(block.style)]
      skipNarrowRoom(
        minimum: 3 * strut.size, lineHeight: strut.above + strut.below, left: left, right: right)
    }
    // `::first-line`: the first line's text restyled once its extent is known (FirstLine.swift).
    var styled = block
    if block.hasFirstLine {
      let settled = firstLineStyled(block, left: left, right: right)
      (styled, firstLineBreak, firstLineExpected, firstLineSettled) = (
        settled.block, settled.forced, settled.expected, settled.stages
      )
    }
    defer { (firstLineBreak, firstLineExpected, firstLineSettled) = (nil, nil, nil) }
    let parts = ParagraphParts.split(styled, limit: InlineCaps.maxParagraphScalars)
    if parts.count > 1 { firstLineSettled = nil }
    if parts.count > 1 {
      notes.limits.add(
        1, offset: block.location.offset,
        what:
          "a paragraph of more than \(InlineCaps.maxParagraphScalars) characters laid out in \(parts.count) parts"
      )
    }
    var rest = floats[...]
    for (k, part) in parts.enumerated() {
      // A part's floats: those whose source is before the next part's.
      let end = k + 1 < parts.count ? parts[k + 1].location.offset : Int.max
      let mine = rest.prefix { $0.start.offset < end }
      rest = rest.dropFirst(mine.count)
      paragraphPart(part, floats: Array(mine), left: left, right: right)
    }
  }

  /// The five stages over one paragraph (or one part of an enormous one), with its inline
  /// floats set beside their lines.
  mutating func paragraphPart(
    _ block: Block, floats: [PendingFloat] = [], left: Double, right: Double
  ) {
    let st = block.style
    let width = max(1, right - left)
    let blockStyle = resolve(st)
    let rtl = (block.dir ?? st.direction ?? direction) == .rtl
    let whiteSpace = CollectedText.WhiteSpaceRule(st.whiteSpace)
    let noWrap = noWrapStyle(st)
    let blockNumber = nextBlock
    nextBlock += 1
    let (marker, firstEntry) = (pendingMarker, entries.count)
    // Taken first: an inline block's paragraph is laid out inside this one (FirstLine.swift).
    let (forcedEnd, expectedEnd, settled) = (firstLineBreak, firstLineExpected, firstLineSettled)
    (firstLineBreak, firstLineExpected, firstLineSettled) = (nil, nil, nil)

    let text = settled?.text ?? collect(block, blockStyle: blockStyle, whiteSpace: whiteSpace)
    // An empty paragraph (e.g. <p>&nbsp;</p> collapsed) takes no line; its floats go at its top.
    if text.isEmpty {
      for f in floats {
        placeFloat(f.piece, side: f.side, start: f.start, end: f.end, left: left, right: right)
      }
      return
    }
    let lang = settled?.lang ?? language(of: block, text: text)
    if text.joinersInserted > 0 || text.marksDropped > 0 {
      notes.streamSafe.add(text.joinersInserted, offset: text.sources.first ?? 0)
      notes.marksDropped += text.marksDropped
    }
    if text.dropped {
      notes.limits.add(
        1, offset: text.sources.first ?? 0,
        what: "a paragraph longer than \(InlineCaps.maxCollectedScalars) characters was cut short")
    }
    // Every style of the paragraph is resolved by now. A local copy (no element copies:
    // the buffer is shared) lets `styles[si].field` read one field; through `self` each
    // read copied the whole ResolvedStyle behind an exclusivity check, 1.6 M times a book.
    let styles = self.styles
    let itemized = settled?.itemized ?? itemize(text, rtl: rtl, lang: lang, whiteSpace: whiteSpace)
    for m in itemized.missing {
      missing.add(m.scalar, script: m.script, face: m.face, offset: text.sources[m.index])
    }

    let (indent, restIndent) = indents(st, left: left, width: width, rtl: rtl)
    let firstWidth = max(1, width - indent)
    let restWidth = max(1, width - restIndent)
    let settings = paragraphSettings(
      block, lang: lang, whiteSpace: whiteSpace, noWrap: noWrap, measure: min(firstWidth, restWidth)
    )
    var shaped =
      settled?.shaped ?? shape(text, itemized, styles: styles, settings: settings, width: width)
    if let end = forcedEnd { FirstLine.forceBreak(&shaped, text: text, at: end) }
    if shaped.emergencyBreaks > 0 {
      notes.emergencyBreak(shaped.emergencyBreaks, offset: text.sources.first ?? 0)
    }
    var breaking = InlineBreaking(
      breaker: breaker, noWrap: noWrap, firstWidth: firstWidth, width: restWidth)
    breaking.eachLine = st.text.indentEachLine
    let strut = styles[blockStyle].above + styles[blockStyle].below
    let top = nextFlowTop
    let bands = paragraphBands(lineHeight: strut, left: left, right: right)
    breaking.bands = bands
    // Beside floats: lines too narrow for their first word move below them (§9.5).
    func breakLines() -> (FloatedLines?, [LineBreak]) {
      guard !floats.isEmpty || !bands.isEmpty else { return (nil, breaking.lines(shaped.items)) }
      let out = breakBesideFloats(
        floats, shaped: shaped, sources: text.sources, breaking: breaking, top: top,
        lineHeight: strut, left: left, right: right)
      return (out, out.breaks)
    }
    var (beside, breaks) =
      floats.isEmpty && bands.isEmpty
      ? settled?.breaks.map { (nil, $0) } ?? breakLines() : breakLines()
    if let expected = expectedEnd, FirstLine.secondLineStart(breaks, shaped, text) != expected {
      // The first line settled on the paragraph's head ends elsewhere here: break there.
      FirstLine.forceBreak(&shaped, text: text, at: expected)
      (beside, breaks) = breakLines()
    }

    var geometry = LineGeometry(
      left: left, width: width, indent: indent, firstWidth: firstWidth,
      align: alignment(block, noWrap: noWrap), rtl: rtl, pageHeight: pageHeight)
    geometry.restIndent = restIndent
    geometry.alignLast = st.text.alignLast
    geometry.eachLine = st.text.indentEachLine
    geometry.clip = noWrap
    // An anonymous paragraph carries its clipping parent's `text-overflow` (ChapterBuilder).
    geometry.ellipsis =
      noWrap && block.box.textOverflowEllipsis
      && (block.box.clipsOverflow || block.element.isEmpty)
    geometry.bands = beside?.bands ?? bands
    var composer = LineComposer(
      text, shaped, bidi: itemized.bidi, styles: styles, fonts: fonts, geometry: geometry,
      blockStyle: blockStyle)
    composer.drawsGlyphs = drawsGlyphs
    var lines = composer.compose(breaks, shaper: &shaper)
    // Each line swapped out in turn (`ComposedLine.blank`: `lines[k]` copied it, retaining a
    // dozen references, and reversing to pop lines off the end moved each twice: 17 M).
    for k in lines.indices {
      var line = ComposedLine.blank
      swap(&line, &lines[k])
      if beside != nil {
        setBeside(&beside!, line: line.index, top: top, lineHeight: strut, left: left, right: right)
      }
      appendLine(
        line, of: breaks.count, block: blockNumber, style: st, blockStyle: blockStyle,
        left: left, endOffset: text.endOffset)
    }
    guard var beside else {
      recordBlockBox(
        block, number: blockNumber, from: firstEntry, left: left, right: right, marker: marker)
      return
    }
    setLineFloats(&beside, before: .max, top: top, lineHeight: strut)
    // The block's box goes with its first line (a float may stand before it).
    let first = entries[firstEntry...].firstIndex { $0.block == blockNumber } ?? firstEntry
    recordBlockBox(
      block, number: blockNumber, from: first, left: left, right: right, marker: marker)
    moveFloatLines(beside.lifted)
  }

  /// The indent of the first line and of the others, px (CSS `text-indent`, with
  /// `hanging` indenting the others instead). A negative indent moves the line left, never
  /// past the page's text area (nor at all in right-to-left text); a positive one takes at
  /// most `InlineCaps.maxIndentShare` of the measure.
  func indents(_ st: ComputedStyle, left: Double, width: Double, rtl: Bool) -> (Double, Double) {
    let room = rtl ? 0 : max(0, left - options.margins.left)
    let indent = max(-room, min(px(st.textIndent, of: width), width * InlineCaps.maxIndentShare))
    return st.text.indentHanging ? (0, indent) : (indent, 0)
  }

  /// Stage 1: the block's inlines as scalars (styles resolved first, in inline order).
  mutating func collect(_ block: Block, blockStyle: Int, whiteSpace: CollectedText.WhiteSpaceRule)
    -> CollectedText
  {
    var inlineStyles: [CollectedText.InlineStyle] = []
    inlineStyles.reserveCapacity(block.inlines.count)
    for k in block.inlines.indices {  // matched in place, not copied (CollectedText.init)
      let si: Int
      switch block.inlines[k] {
      case .text(let run): si = resolve(run.style)
      case .lineBreak: si = blockStyle
      case .image(let img): si = resolve(img.style)
      case .math(let m): si = resolve(m.style)
      case .inlineBlock(let ib): si = resolve(ib.style)
      }
      inlineStyles.append(
        .init(
          index: si, fakeSmallCaps: styles[si].fakeSmallCaps, tabSize: styles[si].tabSize,
          allSmallCaps: styles[si].style.text.allSmallCaps))
    }
    return CollectedText(
      inlines: block.inlines, inlineStyles: inlineStyles, blockStyle: blockStyle,
      startOffset: block.location.offset, whiteSpace: whiteSpace)
  }

  /// Stage 2: bidi levels, break opportunities, scripts and faces of `text`.
  func itemize(
    _ text: CollectedText, rtl: Bool, lang: String, whiteSpace: CollectedText.WhiteSpaceRule
  ) -> ItemizedText {
    ItemizedText(
      text, styles: styles, fonts: fonts, rtl: rtl, language: lang,
      preserveSpaces: whiteSpace.preserve)
  }

  /// The shape stage's settings for a paragraph whose narrowest line is `measure` px.
  func paragraphSettings(
    _ block: Block, lang: String, whiteSpace: CollectedText.WhiteSpaceRule, noWrap: Bool,
    measure: Double
  ) -> ShapeSettings {
    var settings = shapeSettings(block.style, lang: lang, whiteSpace: whiteSpace, noWrap: noWrap)
    settings.measure = measure
    settings.flaggedBreaks = options.hyphenate == .auto
    settings.hyphenate = settings.hyphenate && ChapterFlow.autoHyphenation(block)
    settings.hyphenateSpans = settings.hyphenateSpans && ChapterFlow.autoHyphenation(block)
    return settings
  }

  /// The shape stage's settings for a block.
  func shapeSettings(
    _ st: ComputedStyle, lang: String, whiteSpace: CollectedText.WhiteSpaceRule, noWrap: Bool
  ) -> ShapeSettings {
    // Traditional Chinese centres its punctuation in the em box: nothing to compress.
    let lowerLang = lang.lowercased()
    let compress =
      !(lowerLang.hasPrefix("zh-hant") || lowerLang.hasPrefix("zh-tw")
      || lowerLang.hasPrefix("zh-hk") || lowerLang.hasPrefix("zh-mo"))
    var settings = ShapeSettings(
      language: lang, shapeLanguage: ShapeLanguage(lang),
      hyphenate: options.hyphenate == .auto && st.hyphens != .none && !lang.isEmpty && !noWrap,
      preserve: whiteSpace.preserve, noWrap: noWrap, compressPunctuation: compress)
    settings.hyphenateSpans = options.hyphenate == .auto && st.hyphens != .none && !noWrap
    settings.vertical = vertical
    return settings
  }

  /// Stage 3, with the worker's shaper and hyphenation caches moved in and back.
  mutating func shape(
    _ text: CollectedText, _ itemized: ItemizedText, styles: [ResolvedStyle],
    settings: ShapeSettings, width: Double
  ) -> ShapedParagraph {
    var images: [Int: ImagePlacement] = [:]
    for (i, img) in text.images {
      // Unknown images keep the old stand-in: a square one text size high.
      var ref = img.image
      let natural = naturalSize(ref)
      if natural == nil && ref.width == nil && ref.height == nil && ref.box.sizesAreAuto {
        let side = styles[text.styles[i]].size / (options.fontSize / 16)
        (ref.width, ref.height) = (side, side)
      }
      let size = imageSizing(available: width).resolve(ref, natural: natural)
      images[i] = ImagePlacement(
        href: ref.href, rect: Rect(x: 0, y: 0, width: size.width, height: size.height))
    }
    // Laid out before the stage takes the shaper (their lines are shaped by it too).
    let inlineBoxes = text.inlineBoxes.isEmpty ? [:] : layoutInlineBoxes(text, available: width)
    // Moved, not copied: a second reference to the caches would make the stage's first
    // insertion copy a whole dictionary (copy-on-write).
    var stage = PieceShaper(
      text, itemized, styles: styles, fonts: fonts, settings: settings, images: images,
      shaper: shaper.take(), hyphenation: hyphenation.take())
    if !text.maths.isEmpty { stage.maths = layoutMath(text, styles: styles, width: width) }
    stage.inlineBoxes = inlineBoxes
    stage.unsharedFeatures = unsharedFeatures
    var shaped = stage.shape()
    shaper = stage.shaper.take()
    swap(&stage.hyphenation, &hyphenation)
    if styles.contains(where: { $0.style.text.writing.rubyText != nil }) {
      RubySpacing.widen(&shaped, text: text.scalars, styles: styles, fonts: fonts, shaper: &shaper)
    }
    return shaped
  }

  /// The block's alignment: the style's, with `--align` overriding justification.
  func alignment(_ block: Block, noWrap: Bool) -> TextAlign {
    var align = block.style.textAlign
    if align == .justify && options.align == .start { align = .start }
    // Justification is the reader's choice for the text's paragraphs, not for the content
    // of inline blocks (which a browser sets as their CSS says, like table cells).
    if align == .start && options.align == .justify && !noWrap && inlineBoxNesting == 0,
      case .paragraph = block.kind
    {
      align = .justify
    }
    return align
  }

  /// One composed line as a flow entry: the list marker on the first line, widows and
  /// orphans as split flags; a clipped line is noted.
  mutating func appendLine(
    _ line: ComposedLine, of lineCount: Int, block blockNumber: Int, style st: ComputedStyle,
    blockStyle: Int, left: Double, endOffset: Int
  ) {
    if line.clipped {
      notes.clipped.add(1, offset: line.firstSource == Int.max ? 0 : line.firstSource)
    }
    var entry = FlowEntry(
      spaceBefore: 0, height: line.height,
      start: Location(
        spine: spine, offset: line.firstSource == Int.max ? endOffset : line.firstSource),
      end: Location(spine: spine, offset: line.lastSource + 1))
    if line.index == 0, let marker = pendingMarker {
      pendingMarker = nil
      entry.items += markerItems(
        marker, style: blockStyle, right: left - styles[blockStyle].size * 0.4,
        baseline: line.baseline)
    }
    // Appended in place, in paint order: a `map` and `+` per kind built three temporary
    // arrays for each of a book's lines.
    entry.items.reserveCapacity(
      entry.items.count + line.backgrounds.count + line.runs.count + line.fills.count
        + line.images.count + line.mathItems.count)
    entry.items += line.backgrounds
    for run in line.runs { entry.items.append(.glyphs(run)) }
    entry.items += line.fills
    for image in line.images { entry.items.append(.image(image)) }
    entry.images = line.images
    entry.items += line.mathItems
    entry.maths = line.maths
    entry.inlineBoxes = line.inlineBoxes
    entry.baseline = line.baseline
    entry.lines = [
      LineBox(
        text: line.text,
        rect: Rect(
          x: min(line.start, line.end), y: 0, width: abs(line.end - line.start),
          height: line.height),
        block: blockNumber,
        hyphenated: line.hyphenated, ratio: line.ratio, start: entry.start, end: entry.end)
    ]
    entry.lines[0].spaceFactor = line.spaceFactor
    if !line.boxes.isEmpty { line.boxes.attach(to: &entry) }
    // Orphans and widows: the first orphans−1 and last widows−1 gaps avoid a break.
    entry.block = blockNumber
    entry.orphans = st.orphans
    entry.widows = st.widows
    entry.avoidBreakBefore =
      line.index > 0 && (line.index < st.orphans || lineCount - line.index < st.widows)
    append(entry)
  }

  func noWrapStyle(_ st: ComputedStyle) -> Bool {
    st.whiteSpace == .pre || st.whiteSpace == .nowrap
  }

  /// Shorter pieces (words with their punctuation) are not worth a dictionary lookup: they
  /// rarely help a line, and lookups are a third of layout time when done for every word.
  static let minHyphenatedLength = 7

  /// Letter spacing as a share of a word's width, per unit of the line's adjustment ratio
  /// (InDesign's letter spacing / pdfTeX's font expansion, ±1–2 %): words stretch a little
  /// with their line so word spaces stretch less.
  static let letterStretch = 0.02
  static let letterShrink = 0.0

  /// A list marker hanging in the margin, its right edge at `right`; one too long for the
  /// room left of `right` starts at the page's edge instead (CSS 2.1 §12.5.1 leaves the
  /// outside marker's place to the user agent; a page has no scroll to run into).
  mutating func markerItems(_ marker: String, style si: Int, right: Double, baseline: Double)
    -> [DisplayItem]
  {
    let rs = styles[si]
    let scalars = marker.unicodeScalars.prefix(64).map(\.value)
    guard let first = scalars.first else { return [] }
    let fi =
      fonts.face(for: first, choice: rs.choice, script: Scripts.script(first)) ?? rs.choice.face
    let face = fonts.faces[fi]
    let shaped = shaper.shape(
      ShapeKey(
        text: scalars, face: fi, smallCaps: false, rtl: false,
        script: Scripts.script(first).rawValue, language: ""))
    let builder = GlyphRunBuilder(scale: rs.size / face.upem, baseline: baseline)
    let choice = FaceChoice(
      face: fi, syntheticBold: rs.choice.syntheticBold, syntheticItalic: rs.choice.syntheticItalic)
    return [
      .glyphs(
        builder.run(
          shaped, face: choice, size: rs.size, color: rs.style.color,
          at: max(0, right - shaped.advance * builder.scale)))
    ]
  }
}

extension ComposedLine {
  /// A line holding nothing (no allocation), left in an array in place of a line swapped
  /// out of it: `paragraphPart` takes its lines one by one without copying them (reversing
  /// the array to pop them off its end moved every line twice; 17 M instructions on
  /// moby-dick, Benchmarks/paginate-cost.md "Session 17").
  static var blank: ComposedLine {
    ComposedLine(
      index: 0, height: 0, baseline: 0, text: "", start: 0, end: 0, hyphenated: false, ratio: 0,
      spaceFactor: nil)
  }
}
