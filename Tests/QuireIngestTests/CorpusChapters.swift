import Foundation
import QuireCore
import QuireTestSupport

@testable import QuireIngest

/// One spine chapter of a corpus EPUB, with the converter its package prepared.
struct CorpusChapter {
  var book: String
  var converter: ChapterConverter
  var source: ChapterSource
}

/// The first `prefix` spine chapters of each corpus EPUB in `names` that is present, for
/// tests that convert the same chapter two ways and compare.
func corpusChapters(_ names: [String], prefix: Int) throws -> [CorpusChapter] {
  var chapters: [CorpusChapter] = []
  for name in names where Corpus.has(name) {
    let data = try Data(contentsOf: Corpus.url(name))
    let archive = try ZipArchive(data: data, file: name, limits: IngestLimits())
    let plan = try EPUBReader(files: archive, options: IngestOptions()).prepare()
    for (i, (item, linear)) in plan.items.enumerated().prefix(prefix) {
      let source = ChapterSource(
        spineIndex: i, href: item.path, mediaType: item.mediaType, linear: linear,
        data: try archive.read(item.path))
      chapters.append(CorpusChapter(book: name, converter: plan.converter, source: source))
    }
  }
  return chapters
}
