import CLibXML2
import Foundation
import QuireCore
import Testing

@testable import QuireIngest

struct PackageTests {
  static func parse(_ xml: String, path: String = "OEBPS/content.opf") throws -> PackageDocument {
    try PackageDocument(data: Data(xml.utf8), path: path, book: "test.epub", limits: IngestLimits())
  }

  @Test func sha1KnownVectors() {
    func hex(_ s: String) -> String {
      SHA1.digest(Array(s.utf8)).map { String(format: "%02x", $0) }.joined()
    }
    #expect(hex("abc") == "a9993e364706816aba3e25717850c26c9cd0d89d")
    #expect(hex("") == "da39a3ee5e6b4b0d3255bfef95601890afd80709")
    #expect(
      hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
        == "84983e441c3bd26ebaae4aa1f95129e5e54670f1")
    // FIPS 180-4's million "a"s (15,625 blocks).
    let million = Data(repeating: UInt8(ascii: "a"), count: 1_000_000)
    #expect(
      SHA1.digest(million).map { String(format: "%02x", $0) }.joined()
        == "34aa973cd4c4daa4f61eeb2bdbad27316534016f")
    // Lengths around the block and padding boundaries, from an array, a Data and a slice
    // alike; the digests are Python's hashlib.sha1 of the same bytes.
    let letters = Array("abcdefghijklmnopqrstuvwxyz".utf8)
    let expected = [
      55: "a617d006d1ca12671785098a19a87fe58443bde9",
      56: "4ad5bb7ae3c4024768d364b77c52128ea3cffebe",
      63: "fc8a5ab77259625085ead3ec96515b3b8d933fad",
      64: "93249d4c2f8903ebf41ac358473148ae6ddd7042",
      65: "cf2a63cc308225cf07b498d2309a01dd0df52f67",
      119: "edd0f1133d0e4ca5f3e98bb7e0295f31d20d2cdb",
      120: "23a58eee587aa1f50d19a969ab36a3fe3e88c393",
      1000: "0c1e754ad8a0130e18bf2d3b0a57e29ad95e75cd",
    ]
    for (n, digest) in expected {
      let bytes = (0..<n).map { letters[$0 % 26] }
      let whole = SHA1.digest(bytes)
      #expect(whole.map { String(format: "%02x", $0) }.joined() == digest)
      #expect(SHA1.digest(Data(bytes)) == whole)
      #expect(SHA1.digest(([0] + bytes)[1...]) == whole)
    }
  }

  @Test func idpfKeyIgnoresWhitespace() {
    let a = EncryptionMap.key(.idpf, identifier: " urn:uuid:1234\n abcd ")
    let b = EncryptionMap.key(.idpf, identifier: "urn:uuid:1234abcd")
    #expect(a == b)
    #expect(a?.count == 20)
  }

  @Test func adobeKeyFromUUID() {
    let key = EncryptionMap.key(.adobe, identifier: "urn:uuid:0123ABCD-4567-89ab-cdef-0123456789AB")
    #expect(
      key == [
        0x01, 0x23, 0xAB, 0xCD, 0x45, 0x67, 0x89, 0xAB, 0xCD, 0xEF, 0x01, 0x23, 0x45, 0x67, 0x89,
        0xAB,
      ])
    #expect(EncryptionMap.key(.adobe, identifier: "isbn:123") == nil)
    // XOR is its own inverse over the first 1024 bytes only.
    let font = Data((0..<2000).map { UInt8($0 % 251) })
    let once = EncryptionMap.deobfuscate(font, method: .adobe, key: key!)
    #expect(once[1024...] == font[1024...])
    #expect(once.prefix(1024) != font.prefix(1024))
    #expect(EncryptionMap.deobfuscate(once, method: .adobe, key: key!) == font)
  }

  @Test func epub2MetadataCoverAndGuide() throws {
    let opf = try Self.parse(
      """
      <?xml version="1.0"?>
      <package xmlns="http://www.idpf.org/2007/opf" xmlns:opf="http://www.idpf.org/2007/opf" version="2.0" unique-identifier="id2">
        <metadata xmlns:dc="http://purl.org/dc/elements/1.1/">
          <dc:title>  A   Title </dc:title>
          <dc:creator opf:role="aut">First Author</dc:creator>
          <dc:creator opf:role="aut">Second Author</dc:creator>
          <dc:identifier id="id1">isbn:000</dc:identifier>
          <dc:identifier id="id2" opf:scheme="uuid">urn:uuid:abc</dc:identifier>
          <dc:language>he</dc:language>
          <dc:date>1818</dc:date><dc:publisher>Pub</dc:publisher><dc:description>Desc</dc:description>
          <meta name="cover" content="cov"/>
        </metadata>
        <manifest>
          <item id="cov" href="images/My%20Cover.jpg" media-type="image/jpeg"/>
          <item id="c1" href="text/c1.html" media-type="application/xhtml+xml"/>
          <item id="ncx" href="toc.ncx" media-type="application/x-dtbncx+xml"/>
        </manifest>
        <spine toc="ncx"><itemref idref="c1" linear="no"/></spine>
        <guide><reference type="text" title="Start" href="text/c1.html#s"/></guide>
      </package>
      """)
    #expect(opf.version == "2.0")
    #expect(opf.metadata.title == "A Title")
    #expect(opf.metadata.creators == ["First Author", "Second Author"])
    #expect(opf.uniqueIdentifier == "urn:uuid:abc")
    #expect(opf.metadata.identifier == "urn:uuid:abc")
    #expect(opf.metadata.date == "1818")
    #expect(opf.metadata.publisher == "Pub")
    #expect(opf.metadata.description == "Desc")
    #expect(opf.metadata.coverHref == "OEBPS/images/My Cover.jpg")
    #expect(opf.metadata.direction == .rtl)  // Hebrew, no page-progression-direction
    #expect(opf.spine == [SpineItem(idref: "c1", linear: false)])
    #expect(opf.ncxID == "ncx")
    #expect(
      opf.guide == [GuideReference(type: "text", title: "Start", href: "OEBPS/text/c1.html#s")])
  }

  @Test func epub3CoverImageAndProgression() throws {
    let opf = try Self.parse(
      """
      <package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="u">
        <metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:identifier id="u">x</dc:identifier>
          <dc:title>T</dc:title><dc:language>ar</dc:language></metadata>
        <manifest>
          <item id="img" href="c.png" media-type="image/png" properties="cover-image"/>
          <item id="c1" href="c1.xhtml" media-type="application/xhtml+xml" properties="svg scripted"/>
        </manifest>
        <spine page-progression-direction="ltr"><itemref idref="c1"/></spine>
      </package>
      """, path: "content.opf")
    #expect(opf.metadata.coverHref == "c.png")
    #expect(opf.byID["c1"]?.properties == ["svg", "scripted"])
    // The spine's explicit direction wins over the Arabic language.
    #expect(opf.metadata.direction == .ltr)
  }

  @Test func epub3MainTitleWins() throws {
    let opf = try Self.parse(
      """
      <package xmlns="http://www.idpf.org/2007/opf" version="3.0">
        <metadata xmlns:dc="http://purl.org/dc/elements/1.1/">
          <dc:title id="t1">A Collection</dc:title>
          <dc:title id="t2">The Real Title</dc:title>
          <meta refines="#t1" property="title-type">collection</meta>
          <meta refines="#t2" property="title-type">main</meta>
        </metadata>
        <manifest/><spine/>
      </package>
      """)
    #expect(opf.metadata.title == "The Real Title")
  }

  @Test(arguments: [
    ("ar", TextDirection.rtl), ("he-IL", .rtl), ("fa", .rtl), ("ur", .rtl), ("en", .ltr),
    ("ja", .ltr),
    ("arn", .ltr),
  ])
  func directionFromLanguage(_ lang: String, _ dir: TextDirection) {
    #expect(PackageDocument.direction(nil, language: lang) == dir)
  }

  @Test func fallbackChainsFindContentAndStopOnCycles() throws {
    let opf = try Self.parse(
      """
      <package xmlns="http://www.idpf.org/2007/opf" version="3.0">
        <metadata/>
        <manifest>
          <item id="svg" href="a.svg" media-type="image/svg+xml" fallback="pdf"/>
          <item id="pdf" href="a.pdf" media-type="application/pdf" fallback="html"/>
          <item id="html" href="a.xhtml" media-type="application/xhtml+xml"/>
          <item id="x" href="x.bin" media-type="x/x" fallback="y"/>
          <item id="y" href="y.bin" media-type="x/y" fallback="x"/>
          <item id="z" href="z.bin" media-type="x/z" fallback="nowhere"/>
        </manifest>
        <spine/>
      </package>
      """)
    var warnings: [Diagnostic] = []
    // An image (SVG included) is a page of its own, taken before its fallback (issue #11).
    #expect(opf.contentItem(for: opf.byID["svg"]!, warnings: &warnings)?.id == "svg")
    #expect(warnings.isEmpty)
    #expect(opf.contentItem(for: opf.byID["x"]!, warnings: &warnings) == nil)
    #expect(opf.contentItem(for: opf.byID["z"]!, warnings: &warnings) == nil)
    #expect(warnings.count == 2)
  }

  @Test func navTOCNestedAndSpans() throws {
    let tree = try XMLTree.parse(
      Data(
        """
        <html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><body>
        <nav epub:type="landmarks"><ol><li><a href="cover.xhtml">Cover</a></li></ol></nav>
        <nav epub:type="toc"><ol>
          <li><a href="text/one.xhtml">One</a>
            <ol><li><a href="text/one.xhtml#s1"> Section <em>1</em></a></li></ol></li>
          <li><span>Part Two</span><ol><li><a href="text/two.xhtml">Two</a></li></ol></li>
        </ol></nav></body></html>
        """.utf8), file: "nav", limits: IngestLimits())
    let toc = TableOfContents.fromNav(tree, base: "EPUB/nav.xhtml", limit: 10)
    #expect(toc.map(\.title) == ["One", "Part Two"])
    #expect(toc[0].path == "EPUB/text/one.xhtml")
    #expect(toc[0].children.map(\.title) == ["Section 1"])
    #expect(toc[0].children[0].fragment == "s1")
    #expect(toc[1].path == nil)
    #expect(toc[1].children[0].path == "EPUB/text/two.xhtml")
  }

  @Test func ncxNestedPointsInPlayOrder() throws {
    let tree = try XMLTree.parse(
      Data(
        """
        <ncx xmlns="http://www.daisy.org/z3986/2005/ncx/" version="2005-1"><navMap>
          <navPoint id="b" playOrder="3"><navLabel><text>Second</text></navLabel><content src="text/b.html"/></navPoint>
          <navPoint id="a" playOrder="1"><navLabel><text> First </text></navLabel><content src="text/a.html#top"/>
            <navPoint id="a1" playOrder="2"><navLabel><text>First.1</text></navLabel><content src="text/a.html#s%201"/></navPoint>
          </navPoint>
        </navMap></ncx>
        """.utf8), file: "ncx", limits: IngestLimits())
    let navMap = try #require(tree.first("navMap"))
    let toc = TableOfContents.fromNCX(navMap, base: "OEBPS/toc.ncx", depth: 0, limit: 10)
    #expect(toc.map(\.title) == ["First", "Second"])
    #expect(toc[0].path == "OEBPS/text/a.html")
    #expect(toc[0].fragment == "top")
    #expect(toc[0].children.map(\.fragment) == ["s 1"])
    #expect(
      TableOfContents.fromNCX(navMap, base: "OEBPS/toc.ncx", depth: 0, limit: 1)[0].children.isEmpty
    )
  }

  @Test func xmlTreeNeverExpandsExternalEntities() throws {
    let xml = """
      <?xml version="1.0"?>
      <!DOCTYPE r [ <!ENTITY xxe SYSTEM "file:///etc/passwd"> <!ENTITY ok "fine"> ]>
      <r>a&xxe;b&ok;c</r>
      """
    let tree = try XMLTree.parse(Data(xml.utf8), file: "x", limits: IngestLimits())
    #expect(!tree.text.contains("root:"))
    #expect(tree.text.hasPrefix("ab"))
  }

  @Test func xmlTreeDepthIsBounded() throws {
    var limits = IngestLimits()
    limits.maxDepth = 20
    let xml = String(repeating: "<a>", count: 100) + String(repeating: "</a>", count: 100)
    let tree = try XMLTree.parse(Data(xml.utf8), file: "x", limits: limits)
    var depth = 0
    var e: XMLElement? = tree
    while let cur = e {
      depth += 1
      e = cur.elements.first
    }
    #expect(depth == 20)
  }

  /// Package files and chapters share one libxml2 front end: entity references are never
  /// expanded through their declaration (an HTML name gives its character, others vanish),
  /// in attribute values too; malformed XML names libxml2's first error.
  @Test func packageXMLGoesThroughTheOneFrontEnd() throws {
    let xml = """
      <?xml version="1.0"?>
      <!DOCTYPE r [ <!ENTITY ok "fine"> <!ENTITY nbsp "&#160;"> ]>
      <r xmlns:opf="http://www.idpf.org/2007/opf" opf:role="a&ok;b"><navPoint playOrder="2">x&nbsp;y</navPoint></r>
      """
    let tree = try XMLTree.parse(Data(xml.utf8), file: "x", limits: IngestLimits())
    #expect(tree.attribute("opf:role") == "ab")
    #expect(tree.attribute("role") == "ab")
    #expect(tree.first("navPoint")?.attribute("playOrder") == "2")
    let raw = tree.first("navPoint")?.children.compactMap {
      if case .text(let t) = $0 { t } else { nil }
    }
    #expect(raw?.joined() == "x\u{A0}y")

    let error = #expect(throws: IngestError.self) {
      try XMLTree.parse(Data("<a></b>".utf8), file: "bad.opf", limits: IngestLimits())
    }
    #expect(error?.isBadData == true)
    #expect(
      error?.description.hasPrefix("bad.opf: malformed XML (line 1: ") == true,
      "\(String(describing: error))")
  }

  @Test func parserPolicyNeverLoadsOrExpands() {
    let forbidden = [
      XML_PARSE_NOENT, XML_PARSE_DTDLOAD, XML_PARSE_DTDATTR, XML_PARSE_DTDVALID, XML_PARSE_HUGE,
      XML_PARSE_XINCLUDE,
    ]
    for option in forbidden {
      #expect(MarkupParser.Policy.xmlOptions & Int32(option.rawValue) == 0)
    }
    #expect(MarkupParser.Policy.xmlOptions & Int32(XML_PARSE_NONET.rawValue) != 0)
    #expect(MarkupParser.Policy.htmlOptions & Int32(HTML_PARSE_NONET.rawValue) != 0)
  }
}
