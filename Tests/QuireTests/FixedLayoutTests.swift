// Fixed-layout books and spreads (issue #12): rendition properties and viewports, one page
// per pre-paginated spine item at its ICB, the fit into the output page, spreads, and the
// generated fixture (scripts/make-fixed-layout-fixture.py) against goldens and Chromium.

import Foundation
import QuireCore
import QuireMotion
import QuireTestSupport
import QuireTypeset
import Testing

@testable import Quire
@testable import QuireIngest
@testable import QuireRaster

enum FixedLayoutFixture {
  static let book = packageRoot.appendingPathComponent("Tests/Fixtures/fixed-layout.epub").path
  static let oracle = packageRoot.appendingPathComponent("scripts/fixed-layout-oracle.py").path

  /// Renders `book` with `args` into a temporary folder; returns the folder and manifest.
  static func render(_ book: String, _ name: String, _ args: [String]) throws -> (
    String, [String: Any]
  ) {
    let out = temporaryFolder("fixed-\(name)")
    let r = try runQuire(["render", book, "-o", out] + args)
    #expect(r.status == 0, "\(r.stderr)")
    let data = try Data(contentsOf: URL(fileURLWithPath: out + "/manifest.json"))
    let manifest = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    return (out, manifest)
  }
}

@Suite struct RenditionTests {
  @Test func viewportForms() {
    func parse(_ s: String) -> (ViewportSize?, [String]) {
      var problems: [String] = []
      return (ViewportSize.parse(s, problems: &problems), problems)
    }
    let good = [
      "width=1200, height=1600", "width = 1200 ; height = 1600", "width=1200 height=1600",
      "HEIGHT=1600,WIDTH=1200,initial-scale=1", " width=1200,height=1600, ",
    ]
    for s in good {
      let (v, problems) = parse(s)
      #expect(v == ViewportSize(width: 1200, height: 1600), "\(s)")
      #expect(problems.isEmpty, "\(s): \(problems)")
    }
    #expect(parse("width=600.5,height=800").0 == ViewportSize(width: 600.5, height: 800))
    // Tolerated with a warning: a unit, a repeated width (the first counts).
    let px = parse("width=600px, height=800px")
    #expect(px.0 == ViewportSize(width: 600, height: 800) && !px.1.isEmpty)
    let twice = parse("width=600, width=700, height=800")
    #expect(twice.0 == ViewportSize(width: 600, height: 800) && !twice.1.isEmpty)
    // Unusable: no size.
    for s in [
      "", "width=device-width, height=800", "width=600", "width=0, height=800",
      "width=-5, height=800", "width=1e9, height=800", "width=, height=", "width=600, height=abc",
    ] {
      let (v, problems) = parse(s)
      #expect(v == nil, "\(s)")
      #expect(!problems.isEmpty, "\(s)")
    }
  }

  @Test func fixtureRenditionsOverrideBothWays() throws {
    let doc = try Book.open(URL(fileURLWithPath: FixedLayoutFixture.book))
    let r = doc.chapters.map(\.rendition)
    #expect(r.count == 3)
    #expect(r[0]?.layout == .prePaginated && r[0]?.spread == RenditionSpread.none)
    #expect(r[0]?.viewport == ViewportSize(width: 1024, height: 768))
    #expect(r[0]?.overrides == ["rendition:spread-none"])
    #expect(r[1]?.layout == .prePaginated && r[1]?.pageSpread == .right)
    #expect(r[1]?.viewport == ViewportSize(width: 600, height: 800))
    #expect(r[2]?.layout == .reflowable && r[2]?.overrides == ["rendition:layout-reflowable"])
    #expect(doc.warnings.isEmpty, "\(doc.warnings)")
  }

  @Test func packageValuesAndUnknownProperties() throws {
    var warnings: [Diagnostic] = []
    let meta = XMLElement(
      name: "metadata", namespace: "", attributes: [:],
      children: [
        .element(
          XMLElement(
            name: "meta", namespace: "", attributes: ["property": "rendition:layout"],
            children: [.text("pre-paginated")])),
        .element(
          XMLElement(
            name: "meta", namespace: "", attributes: ["property": "rendition:spread"],
            children: [.text("portrait")])),
        .element(
          XMLElement(
            name: "meta", namespace: "", attributes: ["property": "rendition:orientation"],
            children: [.text("sideways")])),
      ])
    let package = Rendition.package(meta, file: "p.opf", warnings: &warnings)
    #expect(package.layout == .prePaginated)
    #expect(package.spread == .both)  // deprecated portrait reads as both
    #expect(package.orientation == .auto && warnings.count == 1)
    let item = package.applying(
      ["rendition:layout-reflowable", "rendition:page-spread-center", "rendition:bogus", "x"],
      file: "p.opf", warnings: &warnings)
    #expect(item.layout == .reflowable && item.pageSpread == .center)
    #expect(warnings.count == 2)
  }
}

@Suite struct SpreadPlanTests {
  typealias R = PageRendition
  static func fixed(_ side: PageSpread?) -> R? { R(layout: .prePaginated, pageSpread: side) }

  @Test func rightToLeftPairsRightThenLeft() {
    let pages = [(1, Self.fixed(.left)), (2, Self.fixed(.right)), (3, Self.fixed(.left))]
      .map { (number: $0.0, rendition: $0.1) }
    let s = SpreadPlan.pair(pages, direction: .rtl)
    #expect(s.map(\.left) == [1, 3])
    #expect(s.map(\.right) == [nil, 2])
  }

  @Test func leftToRightOpensOnTheRightAndAlternates() {
    let pages = (1...5).map { (number: $0, rendition: Self.fixed(nil)) }
    let s = SpreadPlan.pair(pages, direction: .ltr)
    #expect(s.map(\.left) == [nil, 2, 4])
    #expect(s.map(\.right) == [1, 3, 5])
  }

  @Test func centreAndSpreadNoneStandAlone() {
    var none = R(layout: .prePaginated)
    none.spread = .none
    let pages = [
      (number: 1, rendition: Self.fixed(.left)), (number: 2, rendition: Self.fixed(.center)),
      (number: 3, rendition: none), (number: 4, rendition: Self.fixed(.right)),
    ]
    let s = SpreadPlan.pair(pages, direction: .ltr)
    #expect(s.map(\.left) == [1, 2, 3, nil])
    #expect(s.map(\.right) == [nil, nil, nil, 4])
  }
}

@Suite struct FixedPageFitTests {
  /// A solid `fill` ICB scaled into a page: the covered area and the letterbox bands.
  static func scaled(_ fit: FixedFit, _ w: Int, _ h: Int, into ow: Int, _ oh: Int) -> PixelBuffer {
    let source = PixelBuffer(width: w, height: h, format: .gray8, fill: 0)
    return FixedPageScaler(source: source, fit: fit).scaled(
      width: ow, height: oh, paper: Ink(RGBA(r: 200, g: 200, b: 200, a: 255), format: .gray8))
  }

  @Test func containLetterboxesCoverFills() {
    // 600x837 into 600x800: 573.4 px wide, centred: bands of 13 px each side.
    let contain = Self.scaled(.contain, 600, 837, into: 600, 800)
    let row = Array(contain.pixels[(400 * 600)..<(401 * 600)])
    #expect(row[0] == 200 && row[12] == 200)
    #expect(row[14...585].allSatisfy { $0 == 0 })
    #expect(row[587] == 200 && row[599] == 200)
    let cover = Self.scaled(.cover, 600, 837, into: 600, 800)
    #expect(cover.pixels.allSatisfy { $0 == 0 })
    // A landscape ICB into a portrait page: bands above and below.
    let land = Self.scaled(.contain, 1024, 768, into: 600, 800)
    // 1024x768 at 600/1024: 450 px tall, rows 175..<625.
    #expect(land.pixels[100 * 600 + 300] == 200 && land.pixels[400 * 600 + 300] == 0)
  }
}

@Suite struct FixedLayoutBookTests {
  /// One page per pre-paginated spine item, laid out at its ICB, the layout in the manifest.
  @Test(
    .enabled(if: Corpus.available, "the corpus is missing"),
    arguments: [
      ("haruko-html-jpeg.epub", 12, 600.0 / 837.0), ("page-blanche.epub", 10, 1200.0 / 1577.0),
      ("svg-in-spine.epub", 6, 0),
    ])
  func onePagePerFixedItem(book: String, fixedItems: Int, aspect: Double) throws {
    let eager = try EagerBook(corpusBook(book))
    let fixed = eager.layout.pages.filter { $0.rendition?.layout == .prePaginated }
    #expect(fixed.count == fixedItems)
    #expect(Set(fixed.map(\.spine)).count == fixedItems)
    for page in fixed {
      let v = try #require(page.rendition?.viewport)
      if aspect > 0 { #expect(abs(v.width / v.height - aspect) < 0.001, "\(page.href)") }
      // Something is drawn on every page but page-blanche's deliberately blank one.
      if !page.href.hasSuffix("_000.xhtml") {
        #expect(!page.items.isEmpty || page.background != nil, "\(page.href)")
      }
    }
  }

  /// svg-in-spine's pages take the SVG viewBoxes' sizes.
  @Test(.enabled(if: Corpus.available, "the corpus is missing"))
  func svgPagesTakeTheirViewBox() throws {
    let eager = try EagerBook(corpusBook("svg-in-spine.epub"))
    let sizes = eager.layout.pages.compactMap(\.rendition?.viewport)
    #expect(sizes.first == ViewportSize(width: 1571, height: 2068))
    #expect(sizes.dropFirst().first == ViewportSize(width: 1100, height: 1700))
  }

  @Test(.enabled(if: Corpus.available, "the corpus is missing"))
  func harukoSpreadsPairRightToLeft() throws {
    let (out, manifest) = try FixedLayoutFixture.render(
      corpusBook("haruko-html-jpeg.epub"), "haruko", ["--spreads", "--pages", "1-4"])
    defer { try? FileManager.default.removeItem(atPath: out) }
    let pages = try #require(manifest["pages"] as? [[String: Any]])
    #expect(pages.prefix(12).allSatisfy { $0["layout"] as? String == "pre-paginated" })
    #expect(pages[0]["spread"] as? String == "left" && pages[1]["spread"] as? String == "right")
    #expect(pages[12]["layout"] as? String == "reflowable")
    let spreads = try #require(manifest["spreads"] as? [[String: Any]])
    // Page 1 alone on the left; then 2 on the right of 3.
    #expect(spreads[0]["left"] as? Int == 1 && spreads[0]["right"] == nil)
    #expect(spreads[1]["right"] as? Int == 2 && spreads[1]["left"] as? Int == 3)
    let image = try PNGCodec.decode(
      Data(contentsOf: URL(fileURLWithPath: out + "/" + (spreads[1]["file"] as? String ?? ""))))
    #expect(image.width == 1200 && image.height == 800)
  }

  /// `flip --spread` on a right-to-left fixed-layout book turns the spreads `--spreads`
  /// pairs: (1), (3 | 2), (5 | 4)…, and frame 0 shows the current spread, the earlier page
  /// on the right.
  @Test(.enabled(if: Corpus.available, "the corpus is missing"))
  func harukoFlipTurnsPairedSpreads() throws {
    let book = try PagedBook(
      corpusBook("haruko-html-jpeg.epub"), layout: LayoutSettings(), threads: 2, through: 6)
    let first = try #require(book.spreadTurn(from: 1, direction: .next))
    #expect(first.current.left == 1 && first.current.right == nil)
    #expect(first.target.left == 3 && first.target.right == 2)
    let second = try #require(book.spreadTurn(from: 3, direction: .next))
    #expect(second.current.right == 2 && second.target.left == 5 && second.target.right == 4)
    let back = try #require(book.spreadTurn(from: 2, direction: .prev))
    #expect(back.target.left == 1 && back.target.right == nil)
    var turn = PageTurn()
    turn.spread = true
    turn.timing.frames = 3
    let animation = try book.turn(from: 2, turn)
    #expect(animation.width == 1200 && animation.height == 800)
    let frame = animation.frame(0)
    let (left, right) = (try book.page(3), try book.page(2))
    // The still spread: page 3 on the left, 2 on the right, with the gutter shadow.
    var spread = PixelBuffer(width: 1200, height: 800, format: .rgba8)
    for y in 0..<800 {
      spread.pixels.replaceSubrange(
        (y * 1200) * 4..<(y * 1200 + 600) * 4, with: left.pixels[(y * 600) * 4..<(y + 1) * 600 * 4])
      spread.pixels.replaceSubrange(
        (y * 1200 + 600) * 4..<(y + 1) * 1200 * 4,
        with: right.pixels[(y * 600) * 4..<(y + 1) * 600 * 4])
    }
    SpineShading.apply(to: &spread, spine: 600, leftWidth: 600, rightWidth: 600)
    func half(_ image: [UInt8], _ x0: Int) -> [UInt8] {
      (0..<800).flatMap { y in image[(y * 1200 + x0) * 4..<(y * 1200 + x0 + 600) * 4] }
    }
    let leftSame = half(frame.pixels, 0) == half(spread.pixels, 0)
    let rightSame = half(frame.pixels, 600) == half(spread.pixels, 600)
    #expect(leftSame && rightSame)
  }

  /// The fixture's pages: goldens at the ICB (--size native) and fitted into 600x800.
  @Test func fixtureGoldens() throws {
    let (out, manifest) = try FixedLayoutFixture.render(
      FixedLayoutFixture.book, "goldens", ["--size", "native", "--color", "rgb", "--boxes"])
    defer { try? FileManager.default.removeItem(atPath: out) }
    let pages = try #require(manifest["pages"] as? [[String: Any]])
    #expect(
      pages.map { $0["layout"] as? String } == [
        "pre-paginated", "pre-paginated", "reflowable", "reflowable",
      ])
    let p1 = try Data(contentsOf: URL(fileURLWithPath: out + "/page-0001.png"))
    let p2 = try Data(contentsOf: URL(fileURLWithPath: out + "/page-0002.png"))
    #expect(try PNGCodec.decode(p1).width == 1024)
    #expect(try PNGCodec.decode(p2).height == 800)
    try checkGolden(p1, "fixed-layout-p1-native.png")
    try checkGolden(p2, "fixed-layout-p2-native.png")
    // Positioned boxes where the CSS puts them (the manifest's block fragments).
    let boxes = try #require(pages[0]["boxes"] as? [[String: Any]])
    func at(_ x: Double, _ y: Double) -> Bool {
      boxes.contains { $0["x"] as? Double == x && $0["y"] as? Double == y }
    }
    #expect(at(60, 40) && at(560, 300) && at(700, 60) && at(750, 620))
    // Transformed boxes report the bounding box of their mapped border box: #grow is
    // scale(1.5, 0.75) about its top-left corner, #spin rotate(10deg) about its centre
    // (120, 640) with half-extents 80·cos + 40·sin by 80·sin + 40·cos.
    func box(_ x: Double, _ y: Double) -> [String: Any]? {
      boxes.first { $0["x"] as? Double == x && $0["y"] as? Double == y }
    }
    let grow = try #require(box(260, 610))
    #expect(grow["width"] as? Double == 150 && grow["height"] as? Double == 45)
    let a = 10 * Double.pi / 180
    let (hw, hh) = (80 * cos(a) + 40 * sin(a), 80 * sin(a) + 40 * cos(a))
    let spin = try #require(box(Manifest.r(120 - hw), Manifest.r(640 - hh)))
    #expect(abs((spin["width"] as? Double ?? 0) - 2 * hw) < 0.011)
    // Shrink-to-fit absolute boxes (CSS 2.1 §10.3.7): as wide as their text plus padding,
    // at `left: 40px`, and against `right: 30px` of the 600 px viewport.
    let boxes2 = try #require(pages[1]["boxes"] as? [[String: Any]])
    let tag = try #require(boxes2.first { $0["x"] as? Double == 40 && $0["y"] as? Double == 700 })
    let tagWidth = try #require(tag["width"] as? Double)
    #expect(tagWidth > 100 && tagWidth < 160 && tag["height"] as? Double == 36)
    let tag2 = try #require(
      boxes2.first {
        $0["y"] as? Double == 420 && $0["tag"] as? String == "div"
          && ($0["x"] as? Double ?? 0) > 300
      })
    let right = (tag2["x"] as? Double ?? 0) + (tag2["width"] as? Double ?? 0)
    #expect(abs(right - 570) < 0.02 && (tag2["width"] as? Double ?? 600) < 200)
    let (fitted, _) = try FixedLayoutFixture.render(
      FixedLayoutFixture.book, "fitted", ["--color", "rgb", "--pages", "1"])
    defer { try? FileManager.default.removeItem(atPath: fitted) }
    try checkGolden(
      Data(contentsOf: URL(fileURLWithPath: fitted + "/page-0001.png")),
      "fixed-layout-p1-contain.png")
  }

  /// Hostile fixed pages: an absurd viewport, positioned boxes nested 300 deep.
  @Test func hostileFixedPageStaysOnePage() throws {
    let nested =
      String(repeating: "<div style=\"position:absolute;top:1px;left:1px\">x", count: 300)
      + String(repeating: "</div>", count: 300)
    let dir = try PackagePagesTests.book(
      "fixed-hostile",
      manifest: "<item id=\"a\" href=\"a.xhtml\" media-type=\"application/xhtml+xml\"/>",
      spine: ["a"], metadata: "<meta property=\"rendition:layout\">pre-paginated</meta>",
      files: [
        "a.xhtml": Data(
          """
          <?xml version="1.0" encoding="utf-8"?>
          <html xmlns="http://www.w3.org/1999/xhtml"><head><title>a</title>
          <meta name="viewport" content="width=99999999, height=-5"/></head><body>\(nested)</body></html>
          """.utf8)
      ])
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let eager = try EagerBook(dir)
    #expect(eager.layout.pages.count == 1)
    #expect(eager.warnings.contains { $0.contains("viewport meta") })
    let image = eager.makeRenderer().render(
      eager.layout.pages[0], width: 60, height: 80, format: .gray8)
    #expect(image.width == 60 && image.height == 80)
  }
}

@Suite(.serialized) struct FixedLayoutOracleTests {
  /// Each pre-paginated page of the fixture at --size native against Chromium's screenshot
  /// at the same viewport: every solid box within 2 px (scripts/fixed-layout-oracle.py).
  @Test(
    .enabled(if: BrowserOracle.runnable, BrowserOracle.missing), .timeLimit(.minutes(5)))
  func fixturePagesMatchChromium() throws {
    let r = try BrowserOracle.run(
      FixedLayoutFixture.oracle, [FixedLayoutFixture.book], report: "fixed-oracle")
    #expect(r.status == 0, "fixed-layout-oracle.py exited \(r.status): \(r.output)")
    let pages = try #require(r.report as? [[String: Any]])
    #expect(pages.count == 2)
    let boxes = pages.flatMap { ($0["boxes"] as? [[String: Any]]) ?? [] }
    #expect(boxes.count >= 16)
    // The transformed boxes (rotate with text, scale about a corner, skewX, matrix(), a turn
    // about the bottom-left corner, a rotated box in a rotated box) and the shrink-to-fit
    // ones are among the boxes compared.
    let colours = Set(boxes.compactMap { $0["colour"] as? String })
    for c in [
      "#d81b60", "#1f618d", "#196f3d", "#7d3c98", "#117a65", "#f1c40f", "#000080", "#d4ac0d",
      "#a04000",
    ] {
      #expect(colours.contains(c), "\(c) was not compared")
    }
  }
}
