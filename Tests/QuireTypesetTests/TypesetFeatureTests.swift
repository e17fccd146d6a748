import Foundation
import QuireIngest
import Testing

@testable import QuireTypeset

@Suite struct TypesetFeatureTests {
  /// One chapter using every block kind the typesetter knows.
  static func features() -> Document {
    var b = DocumentBuilder()
    b.heading("Features", level: 1)
    let plain = b.style()
    var bold = plain
    bold.fontWeight = 700
    var italic = plain
    italic.italic = true
    var sup = plain
    sup.verticalAlign = .super
    sup.fontSize = plain.fontSize / 1.2  // the user-agent sheet's `font-size: smaller`
    var caps = plain
    caps.smallCaps = true
    var under = plain
    under.underline = true
    let p1 = [
      b.run("Plain, ", plain), b.run("bold, ", bold), b.run("italic", italic),
      b.run(" and a note", plain),
      b.run("12", sup), b.run(" with ", plain), b.run("Small Caps", caps), b.run(" and ", plain),
      b.run("underlined", under),
      b.run(
        " words; a soft-hy\u{AD}phen\u{AD}ated in\u{AD}com\u{AD}pre\u{AD}hen\u{AD}si\u{AD}bil\u{AD}i\u{AD}ty.",
        plain),
    ]
    b.add(b.block(.paragraph, plain, inlines: p1))
    let brs = [
      b.run("First line", plain), b.lineBreak(), b.run("second line after a break.", plain),
    ]
    b.add(b.block(.paragraph, plain, inlines: brs))
    // An ordered list.
    var items: [Block] = []
    for (k, t) in [
      "Apples", "Pears, which are longer than apples and wrap onto a second line of the item",
    ].enumerated() {
      let r = b.run(t, plain)
      items.append(b.block(.listItem(marker: "\(k + 1)."), plain, inlines: [r], element: "li"))
    }
    b.add(
      Block(
        kind: .list(ordered: true, start: 1), style: plain, children: items,
        location: items[0].location, element: "ol"))
    // A blockquote and a rule.
    let q = b.run("A quoted passage, indented on both sides by its margins of 1.5 em.", italic)
    let quoteP = b.block(.paragraph, italic, inlines: [q])
    var quote = plain
    quote.margin.left = .rem(1.5)
    quote.margin.right = .rem(1.5)
    b.add(
      Block(
        kind: .blockquote, style: quote, children: [quoteP], location: quoteP.location,
        element: "blockquote"))
    b.add(Block(kind: .rule, style: plain, location: quoteP.location, element: "hr"))
    // Preformatted text with a line too long for the page.
    var mono = plain
    mono.fontFamilies = ["monospace"]
    mono.whiteSpace = .pre
    let code = b.run(
      "let x = 1\n    indented()\n" + String(repeating: "abcdefghij", count: 8), mono)
    b.add(b.block(.preformatted, mono, inlines: [code], element: "pre"))
    // A two-cell table.
    var cells: [Block] = []
    for t in ["Left cell", "Right cell with more words"] {
      let r = b.run(t, plain)
      cells.append(b.block(.tableCell(header: false), plain, inlines: [r], element: "td"))
    }
    let row = Block(
      kind: .tableRow, style: plain, children: cells, location: cells[0].location, element: "tr")
    b.add(
      Block(kind: .table, style: plain, children: [row], location: row.location, element: "table"))
    // A block image bigger than the page: scaled to fit.
    b.add(
      Block(
        kind: .image(ImageRef(href: "big.png", alt: "", width: 1000, height: 3000)), style: plain,
        location: row.location, element: "img"))
    // Other scripts and a character no font has.
    var arabic = plain
    arabic.direction = .rtl
    let ar = b.run("السلام عليكم ورحمة الله", arabic)
    var arBlock = b.block(.paragraph, arabic, inlines: [ar])
    arBlock.dir = .rtl
    arBlock.lang = "ar"
    b.add(arBlock)
    b.paragraph("中文段落，测试换行。日本語のテキスト「引用」も。Latin mixed in \u{10FFFD}.", plain)
    b.endChapter()
    return b.document(title: "features")
  }

  @Test func featuresGolden() throws {
    let doc = TypesetFeatureTests.features()
    let t = try Typesetter(document: doc, options: .small)
    let book = t.layoutBook(threads: 1)
    var out = dump(book.pages)
    out += "fonts: " + book.fonts.faces.map(\.origin).joined(separator: ", ") + "\n"
    out += book.warnings.map(\.description).joined(separator: "\n") + "\n"
    #expect(matchesGolden("features.txt", out))
    #expect(book.warnings.contains { $0.message.contains("U+10FFFD") && $0.kind == .missingGlyph })
    #expect(shownText(book.pages).contains(normalize(sourceText(doc)).prefix(20)))
  }

  @Test func sizesAndStyles() throws {
    let doc = TypesetFeatureTests.features()
    let book = try Typesetter(document: doc, options: .small).layoutBook(threads: 1)
    let runs = book.pages.flatMap(\.items).compactMap { item -> GlyphRun? in
      if case .glyphs(let r) = item { return r }
      return nil
    }
    // Monospace has no italic face and Noto Serif bold exists: no synthetic bold on serif.
    #expect(runs.contains { book.fonts.faces[$0.font].origin.contains("NotoSerif-Bold") })
    #expect(runs.contains { book.fonts.faces[$0.font].origin.contains("NotoSansMono") })
    #expect(runs.contains { book.fonts.faces[$0.font].origin.contains("NotoNaskhArabic") })
    #expect(runs.contains { book.fonts.faces[$0.font].origin.contains("NotoSerifCJK") })
    // The superscript is `smaller` than the text, and no smaller: `vertical-align` moves
    // a run, it does not resize it.
    #expect(runs.contains { abs($0.size - 14 / 1.2) < 0.01 })
    #expect(!runs.contains { abs($0.size - 14 / 1.2 * 0.8) < 0.01 })
    // The big image fits the text area.
    let image = try #require(book.pages.flatMap(\.images).first)
    let o = LayoutOptions.small
    #expect(image.rect.height <= Double(o.height) - o.margins.top - o.margins.bottom + 0.001)
    #expect(image.rect.width <= Double(o.width) - o.margins.left - o.margins.right + 0.001)
    // Pre lines never exceed the text area: the long line does not wrap (white-space: pre)
    // but is clipped at the edge, with one warning.
    let pre = book.pages.flatMap(\.lines).filter { $0.text.contains("abcdefgh") }
    #expect(pre.count == 1)
    #expect(book.warnings.filter { $0.kind == .clippedLine }.count == 1)
    #expect(pre.allSatisfy { $0.rect.maxX <= Double(o.width) - o.margins.right + 0.5 })
    // The underline and the rule are fills.
    let fills = book.pages.flatMap(\.items).filter {
      if case .fill = $0 { return true } else { return false }
    }
    #expect(fills.count >= 2)
  }
}
