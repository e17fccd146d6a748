import Foundation
import QuireTestSupport
import Testing

@testable import QuireIngest

@Suite struct DumpTests {
  /// Two chapters of each corpus text as a golden: headings, joined paragraphs, Locations.
  @Test(arguments: [
    ("pride-and-prejudice.txt", "Chapter I.]", "pride-and-prejudice-chapters-1-2.txt"),
    ("xiyouji-journey-to-the-west.utf8.txt", "第一回", "xiyouji-chapters-1-2.txt"),
  ])
  func plainTextGolden(_ file: String, _ firstHeading: String, _ golden: String) throws {
    let path = Corpus.path(file)
    guard let data = FileManager.default.contents(atPath: path) else {
      print(Corpus.missing)
      return
    }
    var doc = try PlainTextBook.document(from: data, path: path, options: IngestOptions())
    let start = try #require(doc.toc.firstIndex { $0.title.hasPrefix(firstHeading) })
    let spine = try #require(doc.toc[start].location?.spine)
    doc.toc = Array(doc.toc[start..<(start + 2)])
    doc.chapters = Array(doc.chapters[spine..<(spine + 2)])
    try ContentFixtures.checkGolden(golden, doc.textDump())
  }

  /// Also: the converter's book language (`dc:language`, "en" here) is not the content's —
  /// a document that names no language has none (`lang=-`; EPUB 3.3, issue #13).
  @Test func dumpEscapesAndStyleDiffs() {
    let c = ContentFixtures.convert(
      """
      <html xmlns="http://www.w3.org/1999/xhtml"><body><h3 style="color: #336699; text-align: center">A "q" \\ b&#xA0;c&#x200B;</h3>
      <p style="line-height: 2; hyphens: auto"><s>x</s><u>y</u></p></body></html>
      """
    ).chapter
    #expect(
      c.textDump() == """
        chapter spine=0 href=OPS/c.xhtml lang=- dir=- linear=true length=14
          container <body> @0
            heading(3) <h3> @0 {size=1.17 weight=700 align=center margin=1.17rem,0,1.17rem,0 hyphens=none color=#336699}
              text @0 "A \\"q\\" \\\\ b\\u{A0}c\\u{200B}"
            paragraph <p> @12 {margin=1rem,0,1rem,0 line-height=2 hyphens=auto}
              text @12 {line-through} "x"
              text @13 {underline} "y"

        """)
  }
}
