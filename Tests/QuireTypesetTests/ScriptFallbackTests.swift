// Every script the vendored fonts cover: sample paragraphs itemize with no missing glyph,
// clusters stay on one face, and Quire's shaped glyphs equal `hb-shape`'s from the same font
// file (conjuncts and reordering are HarfBuzz's; this checks Quire feeds it whole clusters
// with the right script and face). Sample text: the language names and short sentences are
// the author's own.

import CHarfBuzz
import Foundation
import QuireIngest
import Testing

@testable import QuireTypeset

@Suite struct ScriptFallbackTests {
  static let samples: [(tag: String, text: String, face: String)] = [
    ("Deva", "संस्कृतम् भाषा क्षत्रिय", "NotoSerifDevanagari-Regular.ttf"),
    ("Beng", "বাংলা ভাষা ক্ষমা", "NotoSerifBengali-Regular.ttf"),
    ("Taml", "தமிழ் மொழி கொண்டு", "NotoSerifTamil-Regular.ttf"),
    ("Thai", "ภาษาไทยเป็นภาษาราชการ", "NotoSerifThai-Regular.ttf"),
    ("Hebr", "עברית שָׁלוֹם", "NotoSerifHebrew-Regular.ttf"),
    ("Ethi", "ኢትዮጵያ ሀገር", "NotoSerifEthiopic-Regular.ttf"),
    ("Hang", "한국어 문장입니다", "NotoSerifKR-Hangul-Regular.otf"),
    ("Khmr", "ភាសាខ្មែរ ស្រី", "NotoSerifKhmer-Regular.ttf"),
    ("Mymr", "မြန်မာ", "NotoSerifMyanmar-Regular.ttf"),
    ("Tibt", "བོད་ཡིག", "NotoSerifTibetan-Regular.ttf"),
  ]

  @Test(arguments: samples.map(\.tag))
  func sampleHasNoMissingGlyphAndOneFace(tag: String) throws {
    let sample = Self.samples.first { $0.tag == tag }!
    var rig = try InlineRig()
    let block = InlineRig.block([(sample.text, InlineRig.style())])
    let text = rig.collect(block)
    let itemized = rig.itemize(text, rtl: tag == "Hebr")
    #expect(itemized.missing.isEmpty, "\(itemized.missing)")
    let fonts = rig.flow.fonts
    let drawn = Set(itemized.faces.filter { $0 >= 0 }.map { fonts.faces[Int($0)].record.origin })
    #expect(drawn == ["fonts/\(sample.face)"])
  }

  /// The font file drawing each character of `text` in a paragraph of `language`.
  static func drawingFaces(_ text: String, language: String) throws -> [String] {
    var rig = try InlineRig()
    let itemized = rig.itemize(
      rig.collect(InlineRig.block([(text, InlineRig.style())])), language: language)
    let fonts = rig.flow.fonts
    return itemized.faces.filter { $0 >= 0 }.map {
      String(fonts.faces[Int($0)].record.origin.split(separator: "/").last ?? "")
    }
  }

  @Test func contentLanguagePicksTheFallbackFace() throws {
    // CSS Fonts 4 §5.4: characters the chosen face (Noto Serif) lacks fall back by the
    // content's language. In Japanese (and Chinese, Korean) text Ⅷ, ① and ㈱ are drawn by
    // the CJK face, as Chromium draws them; in English text by the symbol and DejaVu faces
    // as before. Characters the chosen face has stay on it in both (A, ©).
    let cjk = "NotoSerifCJK-Regular.otf"
    for lang in ["ja", "zh-Hant", "ko-KR", "und-Jpan"] {
      #expect(try Self.drawingFaces("Ⅷ①㈱", language: lang) == [cjk, cjk, cjk], "\(lang)")
    }
    #expect(
      try Self.drawingFaces("A©", language: "ja")
        == Array(repeating: "NotoSerif-Regular.ttf", count: 2))
    let english = try Self.drawingFaces("Ⅷ", language: "en")
    #expect(english != [cjk], "\(english)")
    // The tag rule agrees with `scripts(of:)` (Han or Hangul among a tag's scripts).
    let tags = [
      "", "en", "en-US", "ja", "JA-jp", "ja-Latn", "zh_Hant_TW", "und-Jpan", "yue", "ko-Kore",
      "sr-Hans", "de-DE-1996", "ja-JP-1996", "cmn-Hans-CN", "x", "abcdefghij", "ja-",
    ]
    for tag in tags {
      let s = ContentLanguage.scripts(of: tag)
      let expected = !tag.isEmpty && (s.contains(HB_SCRIPT_HAN) || s.contains(HB_SCRIPT_HANGUL))
      #expect(ContentLanguage.isCJK(tag) == expected, "\(tag)")
    }
  }

  @Test func bookOfAllScriptsHasNoMissingGlyphWarning() throws {
    var b = DocumentBuilder()
    for s in Self.samples { b.paragraph(s.text, InlineRig.style()) }
    b.endChapter()
    let book = try Typesetter(document: b.document(), options: LayoutOptions()).layoutBook(
      threads: 1)
    #expect(book.warnings.filter { $0.kind == .missingGlyph }.isEmpty, "\(book.warnings)")
  }

  /// `hb-shape`'s glyph IDs and advances (offsets dropped) for `word` in `font` ("gid+adv|…").
  static func reference(_ word: String, font: String) throws -> String? {
    let exe = "/usr/bin/hb-shape"
    guard FileManager.default.isExecutableFile(atPath: exe) else { return nil }
    let p = Process()
    p.executableURL = URL(fileURLWithPath: exe)
    p.arguments = [
      "--no-glyph-names", "--no-clusters", font, word,
    ]
    let out = Pipe()
    p.standardOutput = out
    try p.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    let line = String(decoding: data, as: UTF8.self)
      .trimmingCharacters(in: .whitespacesAndNewlines)
      .trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
    // "gid@dx,dy+adv" when a glyph has an offset: keep the ID and the advance.
    return line.split(separator: "|").map { g in
      let parts = g.split(separator: "+")
      let gid = parts[0].split(separator: "@")[0]
      return "\(gid)+\(parts.count > 1 ? parts[1] : "0")"
    }.joined(separator: "|")
  }

  @Test(arguments: samples.map(\.tag))
  func shapedGlyphsEqualHbShape(tag: String) throws {
    let sample = Self.samples.first { $0.tag == tag }!
    let word = String(sample.text.split(separator: " ").first!)
    let font = try FontSet.locateFontsFolder().appendingPathComponent(sample.face).path
    guard let expected = try Self.reference(word, font: font) else {
      Issue.record("hb-shape not installed (apt-get install libharfbuzz-bin)")
      return
    }
    var rig = try InlineRig()
    let (_, _, shaped) = rig.shape(
      InlineRig.block([(word, InlineRig.style())]), width: 10_000, rtl: tag == "Hebr")
    let glyphs = shaped.pieces.flatMap(\.shaped.glyphs)
    let got = glyphs.map { "\($0.glyph)+\(Int($0.advance))" }.joined(separator: "|")
    #expect(got == expected, "\(word)")
  }
}
