import CHarfBuzz
import Foundation
import QuireIngest
import Testing

@testable import QuireTypeset

/// Upright shaping in vertical text against hb-shape (the reference): the same glyphs
/// (`vert` alternates for 、。「」ー) and advances as `hb-shape --direction=ttb`, stored in the
/// logical frame of Vertical/VerticalShaping.swift; tate-chu-yoko in one em; UAX #50.
@Suite struct VerticalShapingTests {
  static let text = "日本、。「」ー"
  /// `hb-shape --direction=ttb --no-glyph-names fonts/NotoSerifCJK-Regular.otf 日本、。「」ー`.
  static let reference =
    "[19747=0@-500,-880+0,-1000|20275=1@-500,-880+0,-1000|47161=2@-500,-880+0,-1000"
    + "|47162=3@-500,-880+0,-1000|47187=4@-500,-880+0,-1000|47188=5@-500,-880+0,-1000"
    + "|50824=6@-500,-880+0,-1000]"

  static func cjk() -> (FontSet, Int) {
    let set = FontTests.set
    let face = set.face(
      for: 0x65E5, choice: set.match(family: set.bodyFamily, weight: 400, italic: false),
      script: HB_SCRIPT_HAN)!
    return (set, face)
  }

  /// (glyph, x_offset, y_offset, y_advance) from hb-shape's text output.
  static func parse(_ s: String) -> [(UInt32, Int, Int, Int)] {
    s.trimmingCharacters(in: CharacterSet(charactersIn: "[]\n")).split(separator: "|").map {
      let parts = $0.split(whereSeparator: { "=@,+".contains($0) })
      return (UInt32(parts[0])!, Int(parts[2])!, Int(parts[3])!, Int(parts[5])!)
    }
  }

  @Test func uprightMatchesHarfBuzzTopToBottom() {
    let (set, face) = Self.cjk()
    var shaper = Shaper(fonts: set, shared: ShapeCache())
    var key = ShapeKey(
      text: Self.text.unicodeScalars.map(\.value), face: face, smallCaps: false, rtl: false,
      script: HB_SCRIPT_HAN.rawValue, language: "ja")
    let horizontal = shaper.shape(key)
    key.style.vertical = .upright
    let upright = shaper.shape(key)
    let centre = Float(VerticalShaping.emBox(set.faces[face]).centre)
    #expect(centre == 380)  // (880 + −120) / 2: the ideographic em box of Noto Serif CJK
    let expected = Self.parse(Self.reference)
    #expect(upright.glyphs.count == expected.count)
    for (g, e) in zip(upright.glyphs, expected) {
      #expect(g.glyph == e.0)
      #expect(g.advance == Float(-e.3))
      #expect(g.dx == Float(-e.2))
      #expect(g.dy == Float(e.1) + centre)
    }
    // The punctuation takes its vertical alternates; the ideographs do not change.
    #expect(horizontal.glyphs[0].glyph == upright.glyphs[0].glyph)
    #expect(horizontal.glyphs[2].glyph != upright.glyphs[2].glyph)
  }

  @Test func liveHBShapeAgrees() throws {
    let tool = "/usr/bin/hb-shape"
    guard FileManager.default.isExecutableFile(atPath: tool) else { return }
    let font = try FontSet.locateFontsFolder().appendingPathComponent("NotoSerifCJK-Regular.otf")
      .path
    let p = Process()
    p.executableURL = URL(fileURLWithPath: tool)
    p.arguments = ["--direction=ttb", "--no-glyph-names", font, Self.text]
    let out = Pipe()
    p.standardOutput = out
    try p.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    let live = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    #expect(live == Self.reference)
  }

  /// The sfnt table tags of a font file, and the feature tags of its GSUB FeatureList.
  static func tables(_ data: [UInt8]) -> (tables: Set<String>, gsubFeatures: Set<String>) {
    func u16(_ o: Int) -> Int { o + 1 < data.count ? Int(data[o]) << 8 | Int(data[o + 1]) : 0 }
    func u32(_ o: Int) -> Int { u16(o) << 16 | u16(o + 2) }
    func tag(_ o: Int) -> String {
      String(decoding: data[o..<min(o + 4, data.count)], as: UTF8.self)
    }
    var tables = Set<String>()
    var gsub = -1
    for i in 0..<u16(4) {
      let record = 12 + 16 * i
      tables.insert(tag(record))
      if tag(record) == "GSUB" { gsub = u32(record + 8) }
    }
    var features = Set<String>()
    if gsub >= 0 {
      let list = gsub + u16(gsub + 6)
      for i in 0..<u16(list) { features.insert(tag(list + 2 + 6 * i)) }
    }
    return (tables, features)
  }

  /// The vendored CJK subsets keep what vertical text needs (fonts/README.md's pyftsubset
  /// keeps every layout feature): `vert`/`vrt2` in GSUB, `vhea`/`vmtx` advances and `VORG`
  /// origins — the very values hb-shape reads (checked above for the Japanese face).
  @Test(arguments: ["NotoSerifCJK-Regular.otf", "NotoSerifKR-Hangul-Regular.otf"])
  func vendoredCJKFontsKeepVerticalTables(_ name: String) throws {
    let url = try FontSet.locateFontsFolder().appendingPathComponent(name)
    let (tables, features) = Self.tables(Array(try Data(contentsOf: url)))
    for t in ["vhea", "vmtx", "VORG", "BASE", "GSUB"] {
      #expect(tables.contains(t), "\(name) \(t)")
    }
    #expect(features.contains("vert") && features.contains("vrt2"), "\(name) \(features)")
  }

  /// A face without vertical metrics (Noto Serif: no `vhea`/`vmtx`/`VORG`) still sets upright
  /// text: HarfBuzz synthesizes the advance (ascender − descender) and origin, as
  /// `hb-shape --direction=ttb fonts/NotoSerif-Regular.ttf Ab` prints:
  /// `[36=0@-352,-1038+0,-1362|69=1@-307,-1056+0,-1362]`.
  @Test func missingVerticalMetricsAreSynthesized() throws {
    let set = FontTests.set
    let url = try FontSet.locateFontsFolder().appendingPathComponent("NotoSerif-Regular.ttf")
    #expect(!Self.tables(Array(try Data(contentsOf: url))).tables.contains("vmtx"))
    // The body face (Noto Serif): the glyph ids below are that font's.
    let face = try #require(
      set.face(
        for: 0x41, choice: set.match(family: set.bodyFamily, weight: 400, italic: false),
        script: HB_SCRIPT_LATIN))
    var shaper = Shaper(fonts: set, shared: ShapeCache())
    var key = ShapeKey(
      text: [0x41, 0x62], face: face, smallCaps: false, rtl: false,
      script: HB_SCRIPT_LATIN.rawValue, language: "")
    key.style.vertical = .upright
    let upright = shaper.shape(key)
    let centre = Float(VerticalShaping.emBox(set.faces[face]).centre)
    let expected = Self.parse("[36=0@-352,-1038+0,-1362|69=1@-307,-1056+0,-1362]")
    #expect(upright.glyphs.count == 2)
    for (g, e) in zip(upright.glyphs, expected) {
      #expect(g.glyph == e.0)
      #expect(g.advance == Float(-e.3))
      #expect(g.dx == Float(-e.2))
      #expect(g.dy == Float(e.1) + centre)
    }
  }

  @Test func tateChuYokoFillsOneEm() {
    let (set, face) = Self.cjk()
    var shaper = Shaper(fonts: set, shared: ShapeCache())
    let upem = set.faces[face].upem
    for digits in ["12", "2026"] {
      var key = ShapeKey(
        text: digits.unicodeScalars.map(\.value), face: face, smallCaps: false, rtl: false,
        script: HB_SCRIPT_COMMON.rawValue, language: "ja")
      let flat = shaper.shape(key)
      key.style.vertical = .combined
      let combined = shaper.shape(key)
      #expect(combined.glyphs.count == flat.glyphs.count)
      #expect(combined.advance == max(upem, flat.advance))
      let part = WordPart(start: 0, end: digits.count, shaped: combined)
      let size = VerticalShaping.combinedSize(16, [part], upem: upem)
      #expect(abs(combined.advance / upem * size - 16) < 1e-9)  // one em of the base size
    }
  }

  @Test func mixedOrientationFollowsUAX50() {
    for c in "日あア、。ー「（０Ａ" {
      #expect(VerticalOrientation.isUpright(c.unicodeScalars.first!.value), "\(c)")
    }
    for c in "Aa1.,(-é" {
      #expect(!VerticalOrientation.isUpright(c.unicodeScalars.first!.value), "\(c)")
    }
  }
}
