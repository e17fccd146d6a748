// What the fuzz entries run: the same code paths `Book.open` takes, on bytes in memory.

import Foundation

/// ZIP layer (every entry inflated under the limits), then the whole EPUB reader on top:
/// container.xml, OPF, encryption.xml, nav/NCX, chapter conversion, fonts.
func fuzzPackage(_ data: Data, limits: IngestLimits) {
  guard let archive = try? ZipArchive(data: data, file: "fuzz.epub", limits: limits) else { return }
  for entry in archive.entries.prefix(200) {
    _ = try? archive.read(entry.name)
  }
  // A fresh archive: the first one's total budget is spent.
  guard let again = try? ZipArchive(data: data, file: "fuzz.epub", limits: limits) else { return }
  var options = IngestOptions()
  options.limits = limits
  _ = try? EPUBReader(files: again, options: options).document()
}

/// The content owner's converter, then the package side's XML tree on the same bytes.
func fuzzChapter(_ data: Data) {
  let converter = ChapterConverter(
    options: IngestOptions(), bookLanguage: "en", loadResource: { _ in nil })
  _ = converter.convert(
    ChapterSource(
      spineIndex: 0, href: "OPS/fuzz.xhtml", mediaType: "application/xhtml+xml", linear: true,
      data: data))
  if let tree = try? XMLTree.parse(data, file: "fuzz.xhtml", limits: IngestLimits()) {
    _ = TableOfContents.fromNav(tree, base: "OPS/nav.xhtml", limit: 200)
  }
}
