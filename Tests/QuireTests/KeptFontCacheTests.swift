// A book's embedded fonts kept ready to use beside the layout cache entries
// (KeptFontFile.swift): every page of books with obfuscated OTF and WOFF fonts drawn through
// the cache — first reading the fonts from the book and keeping them, then reading the kept
// bytes — is byte-identical to the same page of a full uncached render, and the kept bytes
// are the de-obfuscated ones; a damaged, truncated or foreign kept file is a miss that is
// read from the book and written again; the kept bytes are what is drawn with; eviction
// counts the files.

import Foundation
import QuireCore
import QuireIngest
import QuireTestSupport
import Testing

@testable import Quire

/// The cache's kept font files.
private func keptFonts(_ cache: LayoutCache) -> [String] {
  cacheFiles(cache, suffix: KeptFontFile.suffix)
}

/// The package root's vendored font `name`.
private func vendored(_ name: String) throws -> Data {
  try Data(contentsOf: Corpus.packageRoot.appendingPathComponent("fonts/" + name))
}

/// The cache test book with the vendored mono font embedded as `OPS/f.ttf` for its text.
private func fontBook(_ name: String) throws -> URL {
  let css = """
    @font-face { font-family: "Kept"; src: url(f.ttf); }
    p { margin: 0; text-indent: 1em; font-family: "Kept"; }
    """
  let book = try cacheTestBook(name, css: css)
  try vendored("NotoSansMono-Regular.ttf").write(to: book.appendingPathComponent("OPS/f.ttf"))
  return book
}

@Suite struct KeptFontCacheTests {
  /// Every page of the books with obfuscated fonts, through a cache filled by `paginate`,
  /// twice: equal to the full render's page; the kept bytes are the de-obfuscated fonts.
  @Test(arguments: ["wasteland-otf-obf.epub", "wasteland-woff-obf.epub"])
  func everyPageDrawnWithKeptFontsMatchesTheFullRender(_ name: String) throws {
    guard Corpus.has(name) else { return }
    let book = Corpus.url(name)
    let s = LayoutSettings(pageWidth: 360, pageHeight: 480)
    let full = try renderThroughCache(book, nil, s, nil, "qfb-full-\(name)")
    let cache = LayoutCache(directory: URL(fileURLWithPath: temporaryFolder("qfb-cache-\(name)")))
    let count = try paginateIntoCache(book, s, cache)
    #expect(keptFonts(cache).isEmpty, "paginate keeps no fonts")
    for n in 1...count {
      for pass in ["reads the book", "reads kept fonts"] {
        let out = try renderThroughCache(book, [n], s, cache, "qfb-\(name)-\(pass)")
        #expect(try pageBytes(out, n) == pageBytes(full, n), "\(name) page \(n), \(pass)")
      }
    }
    let fonts = try Book.open(book).fonts
    #expect(fonts.count == 3 && fonts.allSatisfy(\.wasObfuscated))
    #expect(keptFonts(cache).count == fonts.count)
    let key = try #require(cache.key(book, s))
    for font in fonts {
      #expect(cache.fontFile(key.book, path: font.href) == font.data, "\(font.href)")
    }
  }

  /// A damaged, truncated or foreign kept file is a miss: the page is still identical and
  /// the file is written again as it was; a damaged payload under a fixed checksum never
  /// crashes or reads past the end.
  @Test func damagedKeptFontsAreMissesAndRewritten() throws {
    let book = try fontBook("qfb-damaged-book")
    let s = LayoutSettings(pageWidth: 300, pageHeight: 400)
    let cache = LayoutCache(directory: URL(fileURLWithPath: temporaryFolder("qfb-damaged")))
    _ = try paginateIntoCache(book, s, cache)
    let reference = try renderThroughCache(book, [1], s, cache, "qfb-damaged-ref")
    let key = try #require(cache.key(book, s))
    #expect(keptFonts(cache) == [KeptFontFile.name(key.book, path: "OPS/f.ttf")])
    let path = URL(fileURLWithPath: cache.fontFilePath(key.book, path: "OPS/f.ttf"))
    let good = try Data(contentsOf: path)
    #expect(KeptFontFile.decode(good)?.bytes == (try vendored("NotoSansMono-Regular.ttf")))
    let step = max(1, good.count / 150)
    for offset in Array(stride(from: 0, to: good.count, by: step)) + [good.count - 1] {
      var flipped = good
      flipped[offset] ^= 0x5A
      #expect(KeptFontFile.decode(flipped) == nil, "byte \(offset) flipped")
      #expect(KeptFontFile.decode(good.prefix(offset)) == nil, "cut at \(offset)")
    }
    let header = KeptFontFile.headerSize
    for offset in stride(from: header, to: min(good.count, header + 400), by: 3) {
      var payload = [UInt8](good.dropFirst(header))
      payload[offset - header] &+= 13
      var bytes = [UInt8](good.prefix(12))
      LayoutCacheFile.append(&bytes, UInt64(LayoutCacheFile.crc(payload)), bytes: 4)
      bytes += good[16..<header] + payload
      _ = KeptFontFile.decode(Data(bytes))
    }
    // Another book's font, or another path's, under this one's name is refused.
    let foreign = [
      KeptFontFile.Font(book: "0" + key.book.dropFirst(), path: "OPS/f.ttf", bytes: good),
      KeptFontFile.Font(book: key.book, path: "OPS/g.ttf", bytes: good),
    ].map { Data(KeptFontFile.encode($0)!) }
    for damaged in [good.prefix(good.count / 2), Data(), good.prefix(header)] + foreign {
      try damaged.write(to: path)
      let out = try renderThroughCache(book, [1], s, cache, "qfb-damaged-out")
      #expect(try pageBytes(out, 1) == pageBytes(reference, 1))
      #expect(try Data(contentsOf: path) == good)
    }
  }

  /// The kept bytes are what is drawn with: another font kept under the font's path (a
  /// valid file) changes the page; eviction counts the files.
  @Test func theKeptBytesAreWhatIsDrawnWith() throws {
    let book = try fontBook("qfb-tamper-book")
    let s = LayoutSettings(pageWidth: 300, pageHeight: 400)
    let cache = LayoutCache(directory: URL(fileURLWithPath: temporaryFolder("qfb-tamper")))
    _ = try paginateIntoCache(book, s, cache)
    let first = try pageBytes(renderThroughCache(book, [2], s, cache, "qfb-tamper-first"), 2)
    let key = try #require(cache.key(book, s))
    let bold = KeptFontFile.Font(
      book: key.book, path: "OPS/f.ttf", bytes: try vendored("NotoSansMono-Bold.ttf"))
    #expect(cache.store(bold))
    let swapped = try pageBytes(renderThroughCache(book, [2], s, cache, "qfb-tamper-bold"), 2)
    #expect(swapped != first, "the kept bold font is drawn")
    let name = KeptFontFile.name(key.book, path: "OPS/f.ttf")
    #expect(cache.entries().contains { $0.name == name })
    var small = cache
    small.maxBytes = 0
    small.evict()
    #expect(keptFonts(cache).isEmpty)
    let again = try pageBytes(renderThroughCache(book, [2], s, cache, "qfb-tamper-again"), 2)
    #expect(again == first, "an evicted font is read from the book again")
  }
}
