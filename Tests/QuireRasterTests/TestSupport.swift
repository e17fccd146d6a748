import CFreeType
import Foundation
import QuireCore
import QuireIngest
import QuireTypeset
import Testing

@testable import QuireRaster

/// Paths in the checkout, found from this file (CI clones run the tests in place).
enum Checkout {
  static let testsDir = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  static let goldens = testsDir.appendingPathComponent("Goldens")
  static let root = testsDir.deletingLastPathComponent().deletingLastPathComponent()
  static let fonts = root.appendingPathComponent("fonts")

  static func font(_ file: String) -> FontFace {
    let url = fonts.appendingPathComponent(file)
    let data = (try? Data(contentsOf: url)) ?? Data()
    return FontFace(name: file, origin: "fonts/\(file)", data: data)
  }

  static func fixture(_ name: String) -> Data {
    (try? Data(contentsOf: goldens.appendingPathComponent(name))) ?? Data()
  }
}

/// A stand-in for the typesetter: maps characters to glyphs with FreeType's cmap and places
/// them by their unhinted advances (no kerning or ligatures; enough to draw real text).
final class TestShaper {
  private var library: OpaquePointer?
  private var faces: [FT_Face] = []
  private var buffers: [UnsafeMutableRawPointer] = []
  let table: FontTable

  init(_ files: [String]) {
    table = FontTable(faces: files.map(Checkout.font))
    FT_Init_FreeType(&library)
    for face in table.faces {
      let p = UnsafeMutableRawPointer.allocate(byteCount: face.data.count, alignment: 16)
      face.data.withUnsafeBytes { p.copyMemory(from: $0.baseAddress!, byteCount: face.data.count) }
      buffers.append(p)
      var f: FT_Face?
      FT_New_Memory_Face(
        library, p.assumingMemoryBound(to: FT_Byte.self), FT_Long(face.data.count), 0, &f)
      faces.append(f!)
    }
  }

  deinit {
    for f in faces { FT_Done_Face(f) }
    FT_Done_FreeType(library)
    for b in buffers { b.deallocate() }
  }

  func glyphID(_ font: FontID, _ c: Unicode.Scalar) -> UInt32 {
    UInt32(FT_Get_Char_Index(faces[font], FT_ULong(c.value)))
  }

  /// Advance in px of a glyph at `size` px per em, unhinted.
  func advance(_ font: FontID, _ glyph: UInt32, size: Double) -> Double {
    let face = faces[font]
    let upem = Double(face.pointee.units_per_EM)
    guard FT_Load_Glyph(face, FT_UInt(glyph), FT_Int32(FT_LOAD_NO_SCALE)) == 0 else { return 0 }
    return Double(face.pointee.glyph.pointee.advance.x) * size / upem
  }

  /// One run of `text` starting at pen (x, baseline).
  func run(
    _ text: String, font: FontID, size: Double = 16, x: Double, baseline: Double,
    color: RGBA = .black, bold: Bool = false, italic: Bool = false, letterSpacing: Double = 0
  ) -> GlyphRun {
    var glyphs: [UInt32] = []
    var xs: [Float] = []
    var pen = x
    for c in text.unicodeScalars {
      let g = glyphID(font, c)
      glyphs.append(g)
      xs.append(Float(pen))
      pen += advance(font, g, size: size) + letterSpacing
    }
    return GlyphRun(
      font: font, size: size, color: color, glyphs: glyphs, x: xs,
      y: [Float](repeating: Float(baseline), count: glyphs.count), syntheticBold: bold,
      syntheticItalic: italic)
  }

  func width(_ text: String, font: FontID, size: Double) -> Double {
    text.unicodeScalars.reduce(0) { $0 + advance(font, glyphID(font, $1), size: size) }
  }

  /// Greedy-wrapped lines of `words` into a page box; returns the runs and the words used.
  func page(
    words: ArraySlice<Substring>, font: FontID, size: Double, width: Double, height: Double,
    margin: Double, lineHeight: Double
  ) -> (items: [DisplayItem], used: Int) {
    var items: [DisplayItem] = []
    var i = words.startIndex
    var baseline = margin + size
    let space = advance(font, glyphID(font, " "), size: size)
    while baseline <= height - margin, i < words.endIndex {
      var line: [Substring] = []
      var w = 0.0
      while i < words.endIndex {
        let ww = self.width(String(words[i]), font: font, size: size)
        if !line.isEmpty && w + space + ww > width - 2 * margin { break }
        w += (line.isEmpty ? 0 : space) + ww
        line.append(words[i])
        i += 1
      }
      items.append(
        .glyphs(
          run(line.joined(separator: " "), font: font, size: size, x: margin, baseline: baseline)))
      baseline += lineHeight
    }
    return (items, i - words.startIndex)
  }
}

func makePage(_ items: [DisplayItem]) -> Page {
  let loc = Location(spine: 0, offset: 0)
  return Page(number: 1, spine: 0, href: "test.xhtml", start: loc, end: loc, items: items)
}

/// Compares the PNG encoding of `buffer` with Goldens/`name`; QUIRE_BLESS=1 rewrites it.
/// Pixels must match exactly; on a mismatch the actual PNG is written to the temp dir and named in the failure.
func expectGolden(
  _ buffer: PixelBuffer, _ name: String, sourceLocation: SourceLocation = #_sourceLocation
) {
  let actual = Data(PNGCodec.encode(buffer))
  let url = Checkout.goldens.appendingPathComponent(name)
  if ProcessInfo.processInfo.environment["QUIRE_BLESS"] == "1" {
    try? actual.write(to: url)
    return
  }
  guard let expected = try? Data(contentsOf: url) else {
    Issue.record("missing golden \(name); run with QUIRE_BLESS=1", sourceLocation: sourceLocation)
    return
  }
  if expected == actual { return }
  // Exact pixels are the contract; the bytes may differ after an encoder tuning.
  let decoded = try? PNGCodec.decode(expected)
  if decoded == buffer { return }
  let out = FileManager.default.temporaryDirectory.appendingPathComponent("actual-\(name)")
  try? actual.write(to: out)
  var detail = ""
  if let e = decoded, e.width == buffer.width, e.height == buffer.height, e.format == buffer.format
  {
    let diff = zip(e.pixels, buffer.pixels).filter { $0 != $1 }.count
    detail = "; \(diff) bytes of pixels differ"
  } else {
    detail = "; size or format differs"
  }
  Issue.record(
    "golden \(name) differs\(detail); actual written to \(out.path)",
    sourceLocation: sourceLocation)
}
