import Foundation
import QuireTestSupport
import Testing

@testable import QuireIngest

private let corpus = Corpus.root.path
private func corpusData(_ name: String) -> Data? {
  FileManager.default.contents(atPath: "\(corpus)/\(name)")
}
private func paragraphs(_ doc: Document) -> [String] {
  doc.chapters.flatMap { c in
    c.blocks.map { b in b.inlines.map { if case .text(let r) = $0 { r.text } else { "" } }.joined()
    }
  }
}

@Suite struct PlainTextTests {
  @Test func gb18030YieldsTheUTF8Characters() throws {
    guard let gb = corpusData("xiyouji-journey-to-the-west.gb18030.txt"),
      let utf8 = corpusData("xiyouji-journey-to-the-west.utf8.txt")
    else {
      print(Corpus.missing)
      return
    }
    let decoded = try TextDecoding.decode(gb, forced: nil, file: "x")
    #expect(decoded.encoding == "GB18030")
    #expect(decoded.replacements == 0)
    let reference = String(decoding: utf8, as: UTF8.self)
    #expect(decoded.text == reference)
    #expect(decoded.text.unicodeScalars.count == reference.unicodeScalars.count)

    let a = try PlainTextBook.document(
      from: gb, path: "\(corpus)/xiyouji-journey-to-the-west.gb18030.txt", options: IngestOptions())
    let b = try PlainTextBook.document(
      from: utf8, path: "\(corpus)/xiyouji-journey-to-the-west.utf8.txt", options: IngestOptions())
    #expect(paragraphs(a) == paragraphs(b))
    #expect(a.warnings.isEmpty)
    #expect(a.metadata.title == "xiyouji-journey-to-the-west")
    #expect(a.metadata.language == "zh")
    // 100 回 (the text has 99 chapter lines starting with 第…回 plus the front matter).
    #expect(a.toc.count == 100)
    #expect(a.toc.first?.title.hasPrefix("第一回") == true)
    #expect(a.chapters.count >= 100)
    #expect(a.chapters.allSatisfy { $0.length <= PlainTextBook.maxChapterScalars + 20_000 })
    // Hard-wrapped CJK lines are joined without a space; verse lines keep their U+3000 indent.
    let ps = paragraphs(b)
    #expect(ps.contains { $0.hasPrefix("蓋聞天地之數") && $0.contains("乃子、丑、寅、卯") })
    #expect(ps.contains("　　　　混沌未分天地亂，茫茫渺渺無人見。"))
  }

  @Test func forcedEncodingAndInvalidBytes() throws {
    let gb = Data([0xC4, 0xE3, 0xBA, 0xC3])  // 你好 in GB18030
    var options = IngestOptions()
    options.encoding = "GB18030"
    let doc = try PlainTextBook.document(from: gb, path: "a.txt", options: options)
    #expect(paragraphs(doc) == ["你好"])

    options.encoding = "no-such-encoding"
    #expect(throws: IngestError.self) {
      try PlainTextBook.document(from: gb, path: "a.txt", options: options)
    }

    // Forced UTF-8 with a bad byte: U+FFFD and one warning.
    options.encoding = "UTF-8"
    let bad = try PlainTextBook.document(
      from: Data([0x61, 0xFF, 0x62]), path: "b.txt", options: options)
    #expect(paragraphs(bad) == ["a\u{FFFD}b"])
    #expect(bad.warnings.count == 1)
  }

  @Test func byteOrderMarks() throws {
    let le = Data([0xFF, 0xFE, 0x41, 0x00, 0x2D, 0x4E])  // "A中"
    let be = Data([0xFE, 0xFF, 0x00, 0x41, 0x4E, 0x2D])
    let u8 = Data([0xEF, 0xBB, 0xBF, 0x41])
    #expect(try TextDecoding.decode(le, forced: nil, file: "x").text == "A中")
    #expect(try TextDecoding.decode(be, forced: nil, file: "x").text == "A中")
    #expect(try TextDecoding.decode(u8, forced: nil, file: "x").text == "A")
  }

  @Test func paragraphsAndHeadings() throws {
    let text = """
      CHAPTER I.

      It is a truth universally
      acknowledged, that a single man.

                    A centred line
        An indented line
      Joined? No: after an indented line a new paragraph starts
      and this line joins it.

      第二回 標題

      漢字的
      行連接
      　　縮進的行
      """
    let doc = try PlainTextBook.document(
      from: Data(text.utf8), path: "/x/book.txt", options: IngestOptions())
    #expect(doc.chapters.count == 2)
    #expect(doc.toc.map(\.title) == ["CHAPTER I.", "第二回 標題"])
    let ps = paragraphs(doc)
    #expect(
      ps == [
        "CHAPTER I.", "It is a truth universally acknowledged, that a single man.",
        "A centred line",
        "An indented line",
        "Joined? No: after an indented line a new paragraph starts and this line joins it.",
        "第二回 標題", "漢字的行連接", "　　縮進的行",
      ])
    let blocks = doc.chapters[0].blocks
    #expect(blocks[0].kind == .heading(level: 2))
    #expect(blocks[2].style.textAlign == .center)
    #expect(doc.chapters[1].spineIndex == 1)
    #expect(doc.chapters[1].blocks[0].location == Location(spine: 1, offset: 0))
    #expect(doc.metadata.title == "book")
  }

  @Test func prideAndPrejudiceParagraphs() throws {
    guard let data = corpusData("pride-and-prejudice.txt") else {
      print(Corpus.missing)
      return
    }
    let doc = try PlainTextBook.document(
      from: data, path: "\(corpus)/pride-and-prejudice.txt", options: IngestOptions())
    let ps = paragraphs(doc)
    #expect(
      ps.contains(
        "It is a truth universally acknowledged, that a single man in possession of a good fortune must be in want of a wife."
      ))
    #expect(
      ps.contains {
        $0.hasPrefix(
          "However little known the feelings or views of such a man may be on his first entering a neighbourhood,"
        )
          && $0.hasSuffix("property of some one or other of their daughters.")
      })
    #expect(!ps.contains { $0.contains("\n") })
    // Title-page lines indented with spaces stay their own (centred) paragraphs.
    #expect(ps.contains("GEORGE ALLEN"))
    #expect(doc.metadata.language == "en")
    let chapterHeadings = doc.toc.filter { $0.title.uppercased().hasPrefix("CHAPTER") }
    #expect(chapterHeadings.count == 61)
    // Locations are consistent: each chapter's length is the sum of its text.
    for c in doc.chapters { #expect(c.plainText.unicodeScalars.count == c.length) }
  }

  @Test(arguments: ["\r\n", "\r", "\n", "\u{2028}", "\u{85}"])
  func lineEndsSplitParagraphs(_ end: String) throws {
    let text = ["It is a truth universally", "acknowledged.", "", "Second", "paragraph.", ""]
      .joined(separator: end)
    let doc = try PlainTextBook.document(
      from: Data(text.utf8), path: "crlf.txt", options: IngestOptions())
    #expect(paragraphs(doc) == ["It is a truth universally acknowledged.", "Second paragraph."])
    #expect(!paragraphs(doc).joined().contains("\r"))
  }

  @Test func mixedLineEndsAndParagraphSeparator() {
    let ps = TextParagraphs.split("one\r\ntwo\rthree\n\r\nfour\u{2029}five")
    #expect(ps.map(\.text) == ["one two three", "four", "five"])
  }

  /// Hard-wrapped CJK text cut before closing punctuation (a wrapper without kinsoku): the
  /// line that begins with it continues the previous one, even where a line would otherwise
  /// start a paragraph (after an indented line, or one that looks like a paragraph start).
  @Test func lineStartingWithClosingPunctuationJoinsThePreviousLine() {
    let text = """
      　　話說天下大勢，分久必合，合久必分。周末七國分爭，並入於秦
      。及秦滅之後，楚、漢分爭，又並入於漢。他說：「天下
      」
      ……於是眾人都笑了
      ！
      　　第二段從這裡開始。

          日本語の文章はちょ
      っと変わっている
      ー例えば、こういう行
      、そして
      』で始まる行も
      ）前の行に続く。
      """
    let ps = TextParagraphs.split(text).map(\.text)
    #expect(
      ps == [
        "　　話說天下大勢，分久必合，合久必分。周末七國分爭，並入於秦。及秦滅之後，楚、漢分爭，又並入於漢。他說：「天下」……於是眾人都笑了！",
        "　　第二段從這裡開始。",
        "日本語の文章はちょっと変わっているー例えば、こういう行、そして』で始まる行も）前の行に続く。",
      ])
    // Western text keeps its rules: a line starting with ")" is an ordinary line.
    #expect(TextParagraphs.split("a note (see\n) here").map(\.text) == ["a note (see ) here"])
  }

  @Test func lineBreakClassesThatMayNotStartALine() {
    for c in "」』）】》〕〉、。，．！？…‥ー々・：；ぁっゃァッャ゛〜’”)]!?" {
      for s in c.unicodeScalars { #expect(TextParagraphs.forbidsLineStart(s), "\(c)") }
    }
    for c in "「『（【《〈天一あアA1 “‘(" {
      for s in c.unicodeScalars { #expect(!TextParagraphs.forbidsLineStart(s), "\(c)") }
    }
  }
}
