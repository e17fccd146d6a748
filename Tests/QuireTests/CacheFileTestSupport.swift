// Set-up the cache side-file suites share (KeptFontCacheTests, ScaledImageCacheTests): the
// cache folder's files of one kind, a render and a paginate through a cache, a page's bytes;
// and the tests of the sealed header those files share.

import Foundation
import QuireTestSupport
import Testing

@testable import Quire

/// The names of the files in the cache's folder ending in `suffix`, sorted.
func cacheFiles(_ cache: LayoutCache, suffix: String) -> [String] {
  ((try? FileManager.default.contentsOfDirectory(atPath: cache.directory.path)) ?? [])
    .filter { $0.hasSuffix(suffix) }.sorted()
}

/// Renders `pages` (nil: all) of `book` with `cache` (nil: uncached) on one thread into a
/// fresh folder `name`; returns the folder.
func renderThroughCache(
  _ book: URL, _ pages: [Int]?, _ s: LayoutSettings, _ cache: LayoutCache?, _ name: String
) throws -> URL {
  var r = RenderRequest(book: book, output: URL(fileURLWithPath: temporaryFolder(name)))
  r.layout = s
  if let pages { r.pages = PageSelection(pages: pages) }
  r.threads = 1
  r.cache = cache
  _ = try RenderJob.run(r)
  return r.output
}

/// Fills `cache` with the layout of `book` (a cached `paginate`); returns the page count.
func paginateIntoCache(_ book: URL, _ s: LayoutSettings, _ cache: LayoutCache) throws -> Int {
  var p = PaginateRequest(book: book)
  p.layout = s
  p.cache = cache
  return try PaginateJob.run(p).pageCount
}

/// The bytes of page `n` (four-digit file name) in `folder`.
func pageBytes(_ folder: URL, _ n: Int) throws -> Data {
  try Data(contentsOf: folder.appendingPathComponent(pageFileName(n, digits: 4)))
}

/// The header the side files share (SealedFile.swift): its bytes are the ones the three kinds
/// wrote before they shared it, and every cut, flipped byte or other kind is refused.
@Suite struct SealedFileTests {
  @Test func theHeaderIsMagicVersionChecksumAndLength() {
    let kind = SealedFile(magic: Array("QUIREDL\n".utf8), version: 1)
    let sealed = kind.seal([1, 2, 3])
    let expected: [UInt8] =
      Array("QUIREDL\n".utf8) + [1, 0, 0, 0] + [0x1D, 0x80, 0xBC, 0x55]
      + [3, 0, 0, 0, 0, 0, 0, 0] + [1, 2, 3]
    #expect(sealed == expected)
    #expect(kind.isSealed(sealed) && kind.isSealed(Data(sealed)))
    #expect(kind.isSealed(kind.seal([])))
    for cut in 0..<sealed.count { #expect(!kind.isSealed(Array(sealed.prefix(cut)))) }
    for at in sealed.indices {
      var flipped = sealed
      flipped[at] ^= 0x20
      #expect(!kind.isSealed(flipped), "byte \(at)")
    }
    #expect(!SealedFile(magic: Array("QUIRESI\n".utf8), version: 1).isSealed(sealed))
    #expect(!SealedFile(magic: Array("QUIREDL\n".utf8), version: 2).isSealed(sealed))
    #expect(DisplayListFile.sealed.magic == Array("QUIREDL\n".utf8))
    #expect(ScaledImageFile.sealed.magic == Array("QUIRESI\n".utf8))
    #expect(KeptFontFile.sealed.magic == Array("QUIREFB\n".utf8))
  }
}
