// The last fallback: characters no vendored or embedded font has are drawn from the
// system's fonts (fontconfig), unless `systemFonts` is off (`--no-system-fonts`). CI
// installs GNU Unifont (scripts/install-deps.sh), which has Cherokee and Yi; the vendored
// fonts have neither.

import Foundation
import QuireIngest
import Testing

@testable import QuireTypeset

@Suite struct SystemFontTests {
  static let text = "Cherokee ᏣᎳᎩ ᎦᏬᏂᎯᏍᏗ and Yi ꆈꌠꁱꂷ."

  static func layout(systemFonts: Bool, text: String = text) throws -> (
    Typesetter, BookLayout
  ) {
    var b = DocumentBuilder()
    b.paragraph(text)
    b.endChapter()
    var o = LayoutOptions()
    o.systemFonts = systemFonts
    let t = try Typesetter(document: b.document(), options: o)
    return (t, t.layoutBook(threads: 1))
  }

  @Test func systemFontDrawsWhatNoVendoredFontHas() throws {
    let (t, book) = try Self.layout(systemFonts: true)
    #expect(book.warnings.filter { $0.kind == .missingGlyph }.isEmpty, "\(book.warnings)")
    let system = t.fontSet.faces.filter { $0.record.origin.hasPrefix("/") }
    #expect(!system.isEmpty && system.count <= SystemFonts.maxFaces)
    // The glyphs come from the system face, and it is in the book's font table.
    let origins = Set(book.fonts.faces.map(\.origin))
    #expect(origins.contains { $0.hasPrefix("/") }, "\(origins)")
    // One lookup covers both scripts when one file has both (Unifont does).
    #expect(SystemFonts.uncovered(in: t.document, fonts: t.fontSet).isEmpty)
  }

  @Test func offMeansMissingGlyphsAndNoSystemFace() throws {
    let (t, book) = try Self.layout(systemFonts: false)
    #expect(!t.fontSet.faces.contains { $0.record.origin.hasPrefix("/") })
    let missing = book.warnings.filter { $0.kind == .missingGlyph }
    #expect(missing.count == 2, "\(missing)")  // Cherokee and Yi, one warning each
    let (on, _) = try Self.layout(systemFonts: true)
    #expect(on.key != t.key)
  }

  @Test func coveredBooksLoadNoSystemFont() throws {
    let (t, _) = try Self.layout(systemFonts: true, text: "Plain text, ελληνικά, русский, 中文。")
    #expect(!t.fontSet.faces.contains { $0.record.origin.hasPrefix("/") })
    #expect(SystemFonts.uncovered(in: t.document, fonts: t.fontSet).isEmpty)
  }

  @Test func privateUseCharactersNeverGoToSystemFonts() throws {
    let (t, book) = try Self.layout(systemFonts: true, text: "a\u{E000}b \u{F0001}")
    #expect(SystemFonts.uncovered(in: t.document, fonts: t.fontSet).isEmpty)
    #expect(!t.fontSet.faces.contains { $0.record.origin.hasPrefix("/") })
    #expect(book.warnings.contains { $0.kind == .missingGlyph })
  }

  /// The byte walk of `uncovered` against a walk over the text's scalars: 2-, 3- and 4-byte
  /// UTF-8 (IPA, Greek, curly quotes, Cherokee, Yi, Phoenician, an emoji), private use and
  /// a default-ignorable character, in runs of several paragraphs.
  @Test func uncoveredMatchesAScalarWalk() throws {
    let texts = [
      "Plain “quoted” text — ɐɓɔ ελληνικά ᏣᎳᎩ",
      "Yi ꆈꌠꁱꂷ, Phoenician 𐤀𐤁𐤂, 😀, a\u{E000}b\u{F0001}, soft\u{AD}hy\u{200B}phen.",
      "ɐ", "ᏣᎳ",
    ]
    var b = DocumentBuilder()
    for text in texts { b.paragraph(text) }
    b.endChapter()
    var o = LayoutOptions()
    o.systemFonts = false
    let t = try Typesetter(document: b.document(), options: o)
    let expected = Set(texts.flatMap(\.unicodeScalars).map(\.value)).sorted().filter { v in
      v >= 0x250 && !ScriptFaces.isIgnorable(v) && !SystemFonts.isPrivateUse(v)
        && !t.fontSet.faces.contains { $0.hasGlyph(v) }
    }
    #expect(expected.contains(0x13E3) && expected.contains(0xA188), "\(expected)")
    #expect(SystemFonts.uncovered(in: t.document, fonts: t.fontSet) == expected)
  }

  @Test func sameBookSameKeyAndPages() throws {
    let (a, pa) = try Self.layout(systemFonts: true)
    let (b, pb) = try Self.layout(systemFonts: true)
    #expect(a.key == b.key)
    #expect(dump(pa.pages, includeItems: true) == dump(pb.pages, includeItems: true))
  }
}
