// Issue #9 on the typesetting side: hostile paragraphs (an unbreakable word, long runs of
// combining marks, storms of soft hyphens, tabs and <br>, one enormous paragraph) lay out
// in bounded cost, and the invariant every layout keeps: no line leaves the measure, and
// every character of the source appears on the lines, in order.

import Foundation
import QuireCore
import QuireIngest
import QuireTestSupport
import Testing

@testable import QuireTypeset

/// The option sets every hostile paragraph is laid out under: both breakers, both alignments.
let breakerOptions: [LayoutOptions] = [
  (LayoutOptions.LineBreaking.optimal, LayoutOptions.Align.justify), (.optimal, .start),
  (.greedy, .justify), (.greedy, .start),
].map { lineBreaking, align in
  var o = LayoutOptions()
  o.lineBreaking = lineBreaking
  o.align = align
  return o
}

/// Every line of `pages` lies within the text area of `options` (± `slack` px).
func linesStayInMeasure(_ pages: [Page], _ options: LayoutOptions, slack: Double = 0.01) -> Bool {
  let left = options.margins.left
  let right = Double(options.width) - options.margins.right
  return pages.allSatisfy { page in
    page.lines.allSatisfy { $0.rect.x >= left - slack && $0.rect.maxX <= right + slack }
  }
}

/// The lines' text with white space removed, in page order.
func shownLetters(_ pages: [Page]) -> String {
  pages.flatMap(\.lines).map(\.text).joined().filter { !$0.isWhitespace }
}

@Suite struct BoundedInlineTests {
  func layout(_ doc: Document, _ options: LayoutOptions) throws -> BookLayout {
    try Typesetter(document: doc, options: options).layoutBook(threads: 1)
  }

  /// A paragraph of `parts` (text, italic?) with a word before and after.
  func document(_ parts: [(String, Bool)], language: String = "en") -> Document {
    var b = DocumentBuilder()
    b.language = language
    let plain = b.style()
    let italic = b.style { $0.italic = true }
    let inlines = parts.map { b.run($0.0, $0.1 ? italic : plain) }
    b.add(b.block(.paragraph, plain, inlines: inlines))
    b.endChapter()
    return b.document(language: language)
  }

  // MARK: emergency breaks

  @Test(arguments: breakerOptions)
  func unbreakableWordIsBrokenInsideTheMeasure(_ options: LayoutOptions) throws {
    let word = String(repeating: "x", count: 3000)
    let doc = document([("Before " + word + " after.", false)])
    let book = try layout(doc, options)
    #expect(linesStayInMeasure(book.pages, options))
    #expect(shownLetters(book.pages) == "Before\(word)after.")
    #expect(book.pages.flatMap(\.lines).count > 10)
    let notes = book.warnings.filter { $0.kind == .emergencyBreak }
    #expect(notes.count == 1)
    #expect(notes.first?.message.hasPrefix("1 word wider than the line") == true)
  }

  /// Pieces in alternating styles with no break opportunity between them: each piece fits,
  /// their run does not, so the breaks go between the pieces.
  @Test(arguments: breakerOptions)
  func unbreakableRunOfStyledPiecesIsBrokenBetweenThem(_ options: LayoutOptions) throws {
    let parts = (0..<300).map { (k: Int) in ("ab", k % 2 == 0) }
    let book = try layout(document(parts), options)
    #expect(linesStayInMeasure(book.pages, options))
    #expect(shownLetters(book.pages) == String(repeating: "ab", count: 300))
    #expect(book.warnings.contains { $0.kind == .emergencyBreak })
  }

  /// CJK with no break opportunity (the prolonged sound mark may not start a line) and an
  /// Arabic word that joins: both are cut between clusters and stay inside the measure.
  @Test(arguments: [
    (String(repeating: "ー", count: 400), "ja"), (String(repeating: "سلام", count: 300), "ar"),
    (String(repeating: "e\u{301}\u{302}", count: 600), "en"),
  ])
  func unbreakableRunsOfOtherScriptsStayInsideTheMeasure(_ text: String, _ language: String)
    throws
  {
    let options = LayoutOptions()
    let book = try layout(document([(text, false)], language: language), options)
    #expect(linesStayInMeasure(book.pages, options))
    // Graphemes are never split: every line's text is whole clusters.
    let lines = book.pages.flatMap(\.lines).map(\.text)
    #expect(lines.joined() == text)
    #expect(lines.count > 2)
    if language == "en" {
      #expect(lines.allSatisfy { $0.unicodeScalars.count % 3 == 0 })
    }
  }

  /// The measure holds for real chapters, under every breaker.
  @Test(arguments: breakerOptions)
  func corpusLinesStayInsideTheMeasure(_ options: LayoutOptions) throws {
    guard let path = Corpus.existingPath("pride-and-prejudice.txt"),
      let doc = DocumentBuilder.plainText(path, chapters: 3)
    else { return }
    var o = options
    o.width = 420
    o.margins = .init(top: 40, right: 30, bottom: 40, left: 30)
    let book = try layout(doc, o)
    #expect(linesStayInMeasure(book.pages, o))
    #expect(!book.warnings.contains { $0.kind == .emergencyBreak })
  }

  @Test func graphemePartsKeepClustersWholeAndAddUp() throws {
    var rig = try InlineRig()
    let block = InlineRig.block([(String(repeating: "e\u{301}", count: 200), ComputedStyle())])
    let (text, _, shaped) = rig.shape(block, width: 100)
    #expect(shaped.emergencyBreaks == 1)
    let boxes = shaped.items.filter(\.isBox)
    #expect(boxes.count > 2)
    #expect(shaped.pieces.allSatisfy { ($0.end - $0.start) % 2 == 0 })  // e + ◌́ together
    #expect(shaped.pieces.map { $0.end - $0.start }.reduce(0, +) == text.count)
    #expect(shaped.pieces.allSatisfy { $0.width <= 100 })
  }

  // MARK: combining marks

  @Test func longMarkRunsGetAGraphemeJoinerEveryThirtyMarks() throws {
    var rig = try InlineRig()
    let marks = String(repeating: "\u{301}", count: 100)
    let block = InlineRig.block([("a" + marks + "b", ComputedStyle())], start: 10)
    let text = rig.collect(block)
    // Marks 31, 61 and 91 are preceded by a CGJ: 102 scalars + 3.
    #expect(text.count == 105)
    #expect(text.joinersInserted == 3)
    let joiners = text.scalars.indices.filter { text.scalars[$0] == 0x34F }
    #expect(joiners == [31, 62, 93])
    // A joiner has the offset of the mark after it; offsets never go backwards.
    for j in joiners { #expect(text.sources[j] == text.sources[j + 1]) }
    #expect(text.sources.first == 10 && text.sources.last == 111)
    #expect(zip(text.sources, text.sources.dropFirst()).allSatisfy { $0 <= $1 })
  }

  @Test func shortMarkRunsAreUntouched() throws {
    var rig = try InlineRig()
    let block = InlineRig.block([("e" + String(repeating: "\u{301}", count: 30), ComputedStyle())])
    #expect(rig.collect(block).joinersInserted == 0)
  }

  /// Past 120 marks on one base the rest are dropped (HarfBuzz is quadratic in them): 4
  /// words of 3 000 marks keep 120 each, with 3 joiners each, and say so once.
  @Test func combiningMarkStormLaysOutWithOneDiagnostic() throws {
    let word = "a" + String(repeating: "\u{301}", count: 3000)
    let doc = document([(Array(repeating: word, count: 4).joined(separator: " "), false)])
    let book = try layout(doc, LayoutOptions())
    let notes = book.warnings.filter { $0.kind == .longCluster }
    #expect(notes.count == 1)
    #expect(notes.first?.message.contains("(12 U+034F inserted)") == true)
    #expect(notes.first?.message.contains("11520 marks past 120 on one base dropped") == true)
    let shown = shownLetters(book.pages).unicodeScalars
    #expect(shown.filter { $0 == "\u{301}" }.count == 480)
    #expect(shown.filter { $0 == "a" }.count == 4)
  }

  @Test func droppedMarksKeepTheSourceOffsetsOfWhatFollows() throws {
    var rig = try InlineRig()
    let block = InlineRig.block(
      [("a" + String(repeating: "\u{301}", count: 200) + " b", ComputedStyle())], start: 0)
    let text = rig.collect(block)
    #expect(text.marksDropped == 80)
    #expect(text.scalars.last == 0x62 && text.sources.last == 202)
    #expect(text.count == 1 + 120 + 3 + 2)
  }

  // MARK: storms and huge paragraphs

  @Test func softHyphenStormLaysOutInsideTheMeasure() throws {
    let text = String(repeating: "a\u{AD}", count: 5_000)
    let options = LayoutOptions()
    let book = try layout(document([(text, false)]), options)
    #expect(linesStayInMeasure(book.pages, options))
    #expect(shownLetters(book.pages).filter { $0 == "a" }.count == 5_000)
  }

  @Test func lineBreakStormKeepsEveryLine() throws {
    var b = DocumentBuilder()
    var inlines: [Inline] = []
    for _ in 0..<3000 {
      inlines.append(b.run("a"))
      inlines.append(b.lineBreak())
    }
    b.add(b.block(.paragraph, b.style(), inlines: inlines))
    b.endChapter()
    let book = try layout(b.document(), LayoutOptions())
    #expect(book.pages.flatMap(\.lines).map(\.text) == Array(repeating: "a", count: 3000))
  }

  /// Windows: a paragraph broken window by window keeps every item, every line fits, and it
  /// needs at most a line more than the whole-paragraph run.
  @Test(arguments: [false, true])
  func windowedBreakingKeepsTextAndFits(_ ragged: Bool) throws {
    let blocks = InlineStageTests.paragraphs()
    guard let first = blocks.first, case .text(let r) = first.inlines.first else { return }
    var rig = try InlineRig()
    let long = InlineRig.block([
      (Array(repeating: r.text, count: 8).joined(separator: " "), ComputedStyle())
    ])
    let (_, _, shaped) = rig.shape(long, width: 300)
    let breaker: any ParagraphBreaker =
      ragged ? KnuthPlassBreaker.ragged() : KnuthPlassBreaker(emergencyStretch: 24)
    let whole = InlineBreaking(breaker: breaker, noWrap: false, firstWidth: 280, width: 300)
    var windowed = whole
    windowed.window = 300
    #expect(shaped.items.count > 4 * windowed.window)
    let a = whole.lines(shaped.items)
    let b = windowed.lines(shaped.items)
    #expect(b.last?.index == shaped.items.count - 1)
    #expect(zip(b, b.dropFirst()).allSatisfy { $0.index < $1.index })
    #expect(b.count >= a.count && b.count <= a.count + 2)
    for (k, range) in LineBreak.lineRanges(b, in: shaped.items).enumerated() {
      let m = ParagraphMeasure.measure(range, in: shaped.items)
      #expect(m.width - m.shrink <= (k == 0 ? 280 : 300) + 1e-6)
    }
    // Every box is on some line.
    let covered = LineBreak.lineRanges(b, in: shaped.items).reduce(0) { n, range in
      n + range.filter { shaped.items[$0].isBox }.count
    }
    #expect(covered == shaped.items.filter(\.isBox).count)
  }

  /// Fuzz/artifacts/typeset/timeout-2203df4d…: CJK, then one Arabic word of thousands of
  /// letters on a narrow ragged page (slow only under ASan at -Onone; kept as a case).
  @Test func fuzzTimeoutLongArabicWordOnANarrowPage() throws {
    var o = LayoutOptions()
    o.align = .start
    o.width = 216
    o.height = 392
    o.fontSize = 14
    o.margins = .init(top: 10, right: 10, bottom: 10, left: 10)
    let text = "一二、。「」ーあ？ال" + String(repeating: "ل", count: 3000)
    let book = try layout(document([(text, false)], language: "en"), o)
    #expect(linesStayInMeasure(book.pages, o))
    #expect(book.pages.flatMap(\.lines).map(\.text).joined() == text)
  }

  /// Fuzz/artifacts/typeset/crash-16ff00cb…: viramas with no base are one grapheme that
  /// HarfBuzz draws as a row of dotted circles (120 of them, 1 008 px on a 292 px line).
  /// A grapheme wider than the line is cut between its glyph clusters.
  @Test func fuzzCrashBaselessMarksWiderThanTheLine() throws {
    var o = LayoutOptions()
    o.width = 312
    o.margins = .init(top: 10, right: 10, bottom: 10, left: 10)
    let text = "hello world this. is(" + String(repeating: "\u{94D}", count: 200)
    let book = try layout(document([(text, false)]), o)
    #expect(linesStayInMeasure(book.pages, o))
    #expect(book.pages.flatMap(\.lines).count > 3)
    #expect(book.warnings.contains { $0.kind == .emergencyBreak })
  }

  /// Fuzz/artifacts/typeset/crash-f66690bb…: a text indent wider than the column (5.5 rem
  /// at 38 px on a 112 px measure) put the first letter past the right edge.
  @Test func fuzzCrashIndentWiderThanTheColumn() throws {
    var o = LayoutOptions()
    o.width = 132
    o.fontSize = 38
    o.margins = .init(top: 10, right: 10, bottom: 10, left: 10)
    var b = DocumentBuilder()
    let st = b.style { $0.textIndent = .rem(5.5) }
    b.paragraph("X Xx xX", st)
    b.endChapter()
    let book = try layout(b.document(), o)
    #expect(linesStayInMeasure(book.pages, o))
    #expect(shownLetters(book.pages) == "XXxxX")
  }

  /// Fuzz crash-c1f10adb…: bold small caps at 1.8 em joined by soft hyphens, then zero-width
  /// spaces, ragged Knuth–Plass with `--hyphenate off` and a 2.5 rem indent. The breaker skips
  /// soft hyphens then, so the run had no break it could use, yet counted as broken: the line
  /// was set 500.3 px wide on a 488.1 px measure. Soft hyphens or not, every line fits.
  @Test(arguments: [LayoutOptions.Hyphenation.off, .auto])
  func fuzzCrashSoftHyphensTheBreakerSkipsStillFit(_ hyphenate: LayoutOptions.Hyphenation)
    throws
  {
    var o = LayoutOptions()
    o.width = 570
    o.height = 650
    o.fontSize = 24.75
    o.align = .start
    o.hyphenate = hyphenate
    o.margins = .init(top: 10, right: 10, bottom: 10, left: 10)
    var b = DocumentBuilder()
    let para = b.style { $0.textIndent = .rem(2.5) }
    var run = para
    run.fontWeight = 700
    run.smallCaps = true
    run.fontSize = 1.8
    let shy = "\u{AD}"
    let zwsp = "\u{200B}"
    let texts = [
      "a" + shy + shy + "aaaaaaa" + shy + shy,
      "aaaaaaa" + String(repeating: shy, count: 4) + "a" + String(repeating: shy, count: 7)
        + String(repeating: zwsp, count: 4),
      String(repeating: zwsp, count: 12) + String(repeating: shy, count: 4) + "b",
    ]
    let inlines = texts.map { b.run($0, run) }
    b.add(b.block(.paragraph, para, inlines: inlines))
    b.endChapter()
    let book = try layout(b.document(), o)
    #expect(linesStayInMeasure(book.pages, o))
    #expect(shownLetters(book.pages).filter(\.isLetter) == String(repeating: "a", count: 16) + "b")
  }

  /// An enormous paragraph is laid out in parts of `maxParagraphScalars`, cut at spaces,
  /// with every character kept and its offsets continuing.
  @Test func enormousParagraphIsSplitIntoPartsAtSpaces() throws {
    let words = (0..<30_000).map { "w\($0 % 97)" }.joined(separator: " ")
    var b = DocumentBuilder()
    let plain = b.style { $0.textIndent = .rem(2) }
    let run = b.run(words, plain)
    let block = b.block(.paragraph, plain, inlines: [run, b.run(" tail", plain)])
    let parts = ParagraphParts.split(block, limit: 50_000)
    #expect(parts.count == 3)
    var next = block.location.offset
    var joined = ""
    for (k, part) in parts.enumerated() {
      #expect(part.location.offset == next)
      #expect(k == 0 || part.style.textIndent == .zero)
      for case .text(let r) in part.inlines {
        #expect(r.location.offset == next)
        next += r.text.unicodeScalars.count
        joined += r.text
        #expect(k == parts.count - 1 || r.text.unicodeScalars.count <= 50_000)
      }
      if k < parts.count - 1, case .text(let r) = part.inlines.last {
        #expect(r.text.hasSuffix(" "))
      }
    }
    #expect(joined == words + " tail")
    #expect(ParagraphParts.split(block, limit: 1_000_000).count == 1)
    // `fits` (the paragraph's fast path) says exactly when `split` keeps the block whole,
    // at the limit too: the inlines hold the words, " tail", and nothing else.
    let bytes = words.utf8.count + " tail".utf8.count
    for limit in [50_000, bytes - 1, bytes, bytes + 1, 1_000_000] {
      #expect(
        ParagraphParts.fits(block, limit: limit)
          == (ParagraphParts.split(block, limit: limit).count == 1))
    }
    #expect(ParagraphParts.fits(block, limit: bytes))
    #expect(!ParagraphParts.fits(block, limit: bytes - 1))
  }

  @Test func windowEndIsALegalBreak() {
    let items: [BreakItem] =
      Array(
        repeating: [BreakItem.box(width: 5), .glue(width: 2, stretch: 1, shrink: 1)], count: 50
      )
      .flatMap { $0 } + BreakItem.paragraphEnd
    let end = InlineBreaking.windowEnd(items, from: 0, reach: 20)
    #expect(end < 20 && ParagraphMeasure.isLegalBreak(end, in: items))
    #expect(InlineBreaking.windowEnd(items, from: 0, reach: 500) == items.count)
    // A run of boxes with no break: the window reaches past it to the next break.
    let solid: [BreakItem] =
      Array(repeating: BreakItem.box(width: 1), count: 40) + [
        .glue(width: 2, stretch: 1, shrink: 1)
      ]
      + [.box(width: 1)] + BreakItem.paragraphEnd
    #expect(InlineBreaking.windowEnd(solid, from: 0, reach: 10) == 40)
  }
}

/// Consecutive `<br/>`s (stanza breaks) keep their blank line; a last `<br/>` adds none.
@Suite struct BlankLineTests {
  func lines(_ inlines: (inout DocumentBuilder) -> [Inline]) throws -> [LineBox] {
    var b = DocumentBuilder()
    let st = b.style()
    let content = inlines(&b)
    b.add(b.block(.paragraph, st, inlines: content))
    b.endChapter()
    return try Typesetter(document: b.document(), options: LayoutOptions()).layoutBook(threads: 1)
      .pages.flatMap(\.lines)
  }

  @Test func twoBreaksMakeABlankLine() throws {
    let got = try lines { b in [b.run("one"), b.lineBreak(), b.lineBreak(), b.run("two")] }
    #expect(got.map(\.text) == ["one", "", "two"])
    #expect(got[1].rect.y > got[0].rect.y && got[2].rect.y > got[1].rect.y)
    #expect(abs((got[2].rect.y - got[1].rect.y) - (got[1].rect.y - got[0].rect.y)) < 0.5)
  }

  @Test func oneBreakMakesNone() throws {
    #expect(
      try lines { b in [b.run("one"), b.lineBreak(), b.run("two")] }.map(\.text) == ["one", "two"])
    #expect(try lines { b in [b.run("one"), b.lineBreak()] }.map(\.text) == ["one"])
  }
}
