import Foundation
import QuireCore
import QuireIngest
import QuireRaster
import QuireTestSupport
import QuireTypeset
import Testing

@testable import Quire

/// MathML laid out with STIX Two Math's MATH table (issue #15), end to end on the fixture
/// made by scripts/make-mathml-fixture.py: PNG and math-dump goldens (reviewed against
/// headless Chromium's rendering, Benchmarks/mathml.md), the manifest's `math` list, and
/// invariants — every formula inside the content box, no math characters in `lines`, ink
/// above and below every fraction rule, bounded work on hostile formulas.
@Suite("MathML", .serialized)
struct MathMLTests {
  static let width = 600
  static let height = 800
  static var fixture: String {
    packageRoot.appendingPathComponent("Tests/QuireTests/Fixtures/mathml/equations.xhtml").path
  }

  static func book(_ path: String = fixture) throws -> EagerBook {
    try EagerBook(path, settings: LayoutSettings(pageWidth: width, pageHeight: height))
  }

  /// Formulas with their boxes and the ink each contributes: glyph runs (count, size) and
  /// rules, page pixels.
  static func mathDump(_ b: EagerBook) -> String {
    var s = ""
    for page in b.layout.pages {
      for m in page.math {
        s += String(
          format: "page %d %@ %.1f %.1f %.1f×%.1f  %@\n", page.number,
          m.display ? "display" : "inline ", m.rect.x, m.rect.y, m.rect.width, m.rect.height,
          m.text)
        for item in page.items {
          switch item {
          case .glyphs(let run) where run.font == mathFont(b) && inside(run, m.rect):
            s += String(format: "  glyphs %2d at %.2f px\n", run.glyphs.count, run.size)
          case .fill(let r, _) where contains(m.rect, r):
            s += String(format: "  rule %.1f %.1f %.1f×%.2f\n", r.x, r.y, r.width, r.height)
          default: break
          }
        }
      }
    }
    return s
  }

  /// The page's content box (inside the margins), px.
  static var contentBox: Rect {
    let m = LayoutSettings(pageWidth: width, pageHeight: height).effectiveMargins
    return Rect(
      x: Double(m.left), y: Double(m.top), width: Double(width) - Double(m.left) - Double(m.right),
      height: Double(height) - Double(m.top) - Double(m.bottom))
  }

  static func mathFont(_ b: EagerBook) -> Int {
    b.layout.fonts.faces.firstIndex { $0.origin.hasSuffix("STIXTwoMath-Regular.ttf") } ?? -1
  }

  static func inside(_ run: GlyphRun, _ r: Rect) -> Bool {
    guard let x = run.x.first, let y = run.y.first else { return false }
    return Double(x) >= r.x - 0.5 && Double(x) <= r.maxX && Double(y) >= r.y - 0.5
      && Double(y) <= r.y + r.height + 0.5
  }

  static func contains(_ outer: Rect, _ r: Rect) -> Bool {
    r.x >= outer.x - 0.5 && r.maxX <= outer.maxX + 0.5 && r.y >= outer.y - 0.5
      && r.y + r.height <= outer.y + outer.height + 0.5
  }

  @Test func pageGoldens() throws {
    let b = try Self.book()
    #expect(b.layout.pages.count == 2)
    try checkGolden(Data(Self.mathDump(b).utf8), "mathml-equations.math.txt")
    for page in b.layout.pages {
      let image = b.makeRenderer().render(
        page, width: Self.width, height: Self.height, format: .gray8)
      try checkGolden(Data(PNGCodec.encode(image)), "mathml-equations-\(page.number).png")
    }
  }

  @Test func everyFormulaIsReadAndPlacedInsideTheContentBox() throws {
    let b = try Self.book()
    let math = b.layout.pages.flatMap(\.math)
    #expect(math.count == 13)
    #expect(math.filter(\.display).count == 6)
    let c = Self.contentBox
    for f in math {
      #expect(Self.contains(c, f.rect), "\(f.text) \(f.rect)")
      #expect(f.rect.width > 5 && f.rect.height > 5, "\(f.text)")
    }
    // Display formulas are centred in the measure.
    for f in math where f.display {
      let centre = f.rect.x + f.rect.width / 2
      #expect(abs(centre - Double(Self.width) / 2) < 1, "\(f.text)")
    }
    #expect(math.contains { $0.text == "a/b+1/2" })
    #expect(math.contains { $0.text == "√(a^2+b^2)=√[3](x+1)" })
    #expect(b.warnings.isEmpty, "\(b.warnings)")
  }

  @Test func mathCharactersStayOutOfLines() throws {
    let b = try Self.book()
    let lines = b.layout.pages.flatMap(\.lines).map(\.text)
    let objects = lines.map { $0.unicodeScalars.filter { $0 == "\u{FFFC}" }.count }.reduce(0, +)
    #expect(objects == 13)
    let mathOnly = CharacterSet(charactersIn: "∑∫√∞π±×−≤→⏞⏟⋯^‾=+")
    for l in lines {
      #expect(l.unicodeScalars.allSatisfy { !mathOnly.contains($0) }, "\(l)")
    }
    #expect(lines.contains("A fraction in running text, \u{FFFC} and text after."))
    #expect(lines.filter { $0 == "\u{FFFC}" }.count == 6)
  }

  @Test func fractionRulesHaveInkAboveAndBelow() throws {
    let b = try Self.book()
    let page = try #require(b.layout.pages.first)
    let image = b.makeRenderer().render(
      page, width: Self.width, height: Self.height, format: .gray8)
    let rules: [Rect] = page.items.compactMap {
      guard case .fill(let r, _) = $0, r.height < 3, r.width > 4 else { return nil }
      return page.math.contains { Self.contains($0.rect, r) } ? r : nil
    }
    #expect(rules.count >= 8)
    func dark(_ x0: Double, _ x1: Double, _ y0: Double, _ y1: Double) -> Bool {
      for y in max(0, Int(y0))..<min(image.height, Int(y1.rounded(.up))) {
        for x in max(0, Int(x0))..<min(image.width, Int(x1.rounded(.up)))
        where image.pixels[y * image.width + x] < 128 {
          return true
        }
      }
      return false
    }
    // Every rule has ink below it (a denominator, or a radical's base); fraction bars also
    // have their numerator above, radical bars nothing (the fixture has 10 fraction bars
    // and 3 radicals).
    let above = rules.filter { dark($0.x, $0.maxX, $0.y - 14, $0.y - 1) }
    for r in rules { #expect(dark(r.x, r.maxX, r.maxY + 1, r.maxY + 14), "no ink below rule \(r)") }
    #expect(above.count == 10)
    #expect(rules.count - above.count == 3)
  }

  @Test func manifestListsFormulasWithBoxes() throws {
    let b = try Self.book()
    let data = b.manifest(
      book: Self.fixture, settings: LayoutSettings(pageWidth: Self.width, pageHeight: Self.height),
      files: [:], boxes: true)
    let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    let pages = try #require(json["pages"] as? [[String: Any]])
    let math = pages.flatMap { ($0["math"] as? [[String: Any]]) ?? [] }
    #expect(math.count == 13)
    #expect(math.first?["text"] as? String == "a/b+1/2")
    #expect(math.first?["display"] as? Bool == false)
    #expect(math.allSatisfy { ($0["width"] as? Double ?? 0) > 0 })
  }

  @Test func documentDumpShowsFormulasAsObjects() throws {
    let doc = try Book.open(URL(fileURLWithPath: Self.fixture))
    let dump = doc.textDump()
    #expect(dump.contains("math @28 \"a/b+1/2\""))
    #expect(dump.contains("paragraph <math>"))
    #expect(dump.contains("display \"(1+1/x)/(1−1/(x^2))\""))
  }

  /// One formula per element family the fixture page does not show, in its own paragraph.
  static func formulas(_ bodies: [String]) throws -> [MathPlacement] {
    let ns = "xmlns=\"http://www.w3.org/1998/Math/MathML\""
    let body = bodies.map { "<p><math \(ns)>\($0)</math></p>" }.joined(separator: "\n")
    let folder = temporaryFolder("mathml-elements")
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let path = folder + "/elements.xhtml"
    let xhtml = """
      <?xml version="1.0" encoding="UTF-8"?>
      <html xmlns="http://www.w3.org/1999/xhtml"><head><title>e</title></head><body>
      \(body)
      </body></html>
      """
    try Data(xhtml.utf8).write(to: URL(fileURLWithPath: path))
    return try Self.book(path).layout.pages.flatMap(\.math)
  }

  @Test func spacesPhantomsEnclosuresAndTables() throws {
    let m = try Self.formulas([
      "<mspace width=\"2em\" height=\"1em\" depth=\"0.5em\"/>",
      "<mphantom><mi>x</mi></mphantom><mi>x</mi>",
      "<mi>x</mi>",
      "<menclose notation=\"box\"><mi>x</mi></menclose>",
      "<mmultiscripts><mi>R</mi><mi>i</mi><none/><mprescripts/><mn>1</mn><mn>2</mn></mmultiscripts>",
      "<mtable><mtr><mtd columnspan=\"2\"><mn>12345</mn></mtd></mtr><mtr><mtd><mn>1</mn></mtd><mtd><mn>2</mn></mtd></mtr></mtable>",
      "<mtable><mlabeledtr><mtd><mtext>(1)</mtext></mtd><mtd><mi>x</mi></mtd></mlabeledtr></mtable>",
      "<mpadded width=\"+1em\"><mi>x</mi></mpadded>",
    ])
    try #require(m.count == 8)
    // 2em × 1.5em at 16 px.
    #expect(abs(m[0].rect.width - 32) < 0.01 && abs(m[0].rect.height - 24) < 0.01)
    // A phantom takes its content's room: two x wide.
    #expect(abs(m[1].rect.width - 2 * m[2].rect.width) < 0.01)
    // An enclosure pads its content on every side.
    #expect(m[3].rect.width > m[2].rect.width + 2 && m[3].rect.height > m[2].rect.height + 2)
    // Prescripts stand before the base: wider than R with one column of scripts.
    #expect(m[4].rect.width > 14)
    // A spanning cell is no narrower than the two cells below it together.
    #expect(m[5].rect.height > 30)
    // The label follows its row, an em away.
    #expect(m[6].rect.width > m[2].rect.width + 16)
    #expect(abs(m[7].rect.width - (m[2].rect.width + 16)) < 0.01)
  }

  /// Deep nesting, a huge mspace, a 100,000-column table, unknown elements: bounded, warned.
  @Test func hostileFormulasAreBounded() throws {
    let ns = "xmlns=\"http://www.w3.org/1998/Math/MathML\""
    let deep =
      String(repeating: "<mrow>", count: 10_000) + "<mi>x</mi>"
      + String(repeating: "</mrow>", count: 10_000)
    let fracs =
      String(repeating: "<mfrac>", count: 3_000) + "<mn>1</mn><mn>2</mn>"
      + String(repeating: "</mfrac>", count: 3_000)
    let wide =
      "<mtable><mtr>" + String(repeating: "<mtd><mn>1</mn></mtd>", count: 100_000)
      + "</mtr></mtable>"
    let body = [
      deep, fracs, "<mspace width=\"100000000em\" height=\"1e9px\"/><mi>y</mi>", wide,
      "<mfoo><mi>z</mi></mfoo><semantics><mi>w</mi><annotation>w-tex</annotation></semantics>",
    ].map { "<p>x <math \(ns)>\($0)</math> y</p>" }.joined(separator: "\n")
    let xhtml = """
      <?xml version="1.0" encoding="UTF-8"?>
      <html xmlns="http://www.w3.org/1999/xhtml"><head><title>h</title></head><body>
      \(body)
      </body></html>
      """
    let folder = temporaryFolder("mathml-hostile")
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let path = folder + "/hostile.xhtml"
    try Data(xhtml.utf8).write(to: URL(fileURLWithPath: path))
    let start = Date()
    let b = try Self.book(path)
    let seconds = Date().timeIntervalSince(start)
    let math = b.layout.pages.flatMap(\.math)
    #expect(math.count == 5)
    for f in math { #expect(Self.contains(Self.contentBox, f.rect), "\(f.text) \(f.rect)") }
    #expect(b.layout.pages.count <= 5)
    #expect(b.warnings.contains { $0.contains("<mfoo> is not supported") })
    #expect(b.warnings.contains { $0.contains("wider than the line scaled down") })
    #expect(math.contains { $0.text == "z w" })
    #expect(seconds < 120)
  }
}
