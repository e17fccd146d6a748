// What the fuzz entries run: the same code paths `Book.open` takes, on bytes in memory.

import Foundation

func fuzzPackage(_ data: Data, limits: IngestLimits) {
  guard let archive = try? ZipArchive(data: data, file: "fuzz.epub", limits: limits) else { return }
  for entry in archive.entries.prefix(200) {
    _ = try? archive.read(entry.name)
  }
}

func fuzzChapter(_ data: Data) {
  let converter = ChapterConverter(
    options: IngestOptions(), bookLanguage: "en", loadResource: { _ in nil })
  _ = converter.convert(
    ChapterSource(
      spineIndex: 0, href: "OPS/fuzz.xhtml", mediaType: "application/xhtml+xml", linear: true,
      data: data))
  // XMLTREE _ = try? XMLTree.parse(data, file: "fuzz.xhtml", limits: IngestLimits())
}
