// Pages from the package: spine items that are images (`image/*`, SVG documents included)
// and the package's cover image.
//
// An image spine item becomes a chapter of one block: the image, sized 100 % × 100 % of the
// page's content box with `object-fit: contain` — scaled (up or down) to fit inside the
// margins at its own aspect, centred. Rejected: the whole page edge to edge — reflowable
// pages keep the reader's margins everywhere else, and fixed-layout placement (issue 12)
// owns "fill the page". The chapter's length is 1 (the image counts one offset, as inline
// images do), so its page maps back to Location(spine, 0)…(spine, 1).
//
// An image item is taken as the image even when it declares a fallback: the fallback of a
// spine image is there for readers that cannot show images (page-blanche's fall back to
// the nav document), and Quire can.
//
// The cover (`--cover auto`, the default): when the package names a cover image (EPUB 3
// `properties="cover-image"`, EPUB 2 `<meta name="cover">`) and no spine document shows
// it, a cover chapter is put first. "Shows it" is decided on bytes, before any chapter is
// converted (so lazily opened books decide the same): the cover is a spine item itself, or
// one of the first `coverScan` spine documents names the cover's file name. Covers live at
// the front, and a cover document that names it later than that is rare enough to accept a
// duplicate cover page. The cover chapter shifts every spine index by one, as a skipped
// spine item shifts them the other way: chapter indices count the chapters Quire made.

import Foundation
import QuireCore

/// Whether the package's cover image becomes a page of its own.
package enum CoverPolicy: String, Sendable, Hashable, CaseIterable {
  /// Page 1 when no spine document shows the cover image.
  case auto
  /// Never added.
  case off
}

extension PackageDocument {
  /// Image media types a spine item may have and still become a page.
  static func isPageImage(_ mediaType: String) -> Bool {
    mediaType.lowercased().hasPrefix("image/")
  }

  /// Spine documents whose bytes are searched for the cover's file name.
  static let coverScan = 3

  /// The cover item to put first under `policy`, nil when none is needed.
  func coverItem(
    policy: CoverPolicy, spine items: [(item: ManifestItem, linear: Bool)], files: any PackageFiles
  ) -> ManifestItem? {
    guard policy == .auto, let path = metadata.coverHref,
      let item = manifest.first(where: { $0.path == path }), Self.isPageImage(item.mediaType),
      files.contains(path), !items.contains(where: { $0.item.path == path })
    else { return nil }
    let name = Data((path.split(separator: "/").last.map(String.init) ?? path).utf8)
    for (spineItem, _) in items.prefix(Self.coverScan) {
      guard let bytes = try? files.read(spineItem.path) else { continue }
      if bytes.range(of: name) != nil { return nil }
      // Names may be percent-encoded in the markup.
      if let encoded = String(decoding: name, as: UTF8.self).addingPercentEncoding(
        withAllowedCharacters: .urlPathAllowed), bytes.range(of: Data(encoded.utf8)) != nil
      {
        return nil
      }
    }
    return item
  }
}

extension ChapterConverter {
  /// An image spine item (or the cover) as a chapter of one page-filling image block.
  func imagePage(_ source: ChapterSource) -> ConvertedChapter {
    let location = Location(spine: source.spineIndex, offset: 0)
    var box = BoxStyle()
    box.width = .percent(100)
    box.height = .percent(100)
    box.objectFit = .contain
    let ref = ImageRef(href: source.href, alt: "", box: box)
    let block = Block(
      kind: .image(ref), style: ComputedStyle(), location: location, element: "img", box: box)
    var warnings: [Diagnostic] = []
    if source.data.isEmpty {
      warnings.append(
        Diagnostic(
          .spineItem, file: source.href, spine: source.spineIndex,
          message: "image spine item is empty; its page is blank"))
    }
    let chapter = Chapter(
      spineIndex: source.spineIndex, href: source.href, mediaType: source.mediaType,
      linear: source.linear, size: source.data.count, language: bookLanguage, direction: nil,
      blocks: [block], anchors: [:], length: 1)
    return ConvertedChapter(chapter: chapter, fontFaces: [], warnings: warnings)
  }
}

extension XMLElement {
  /// A TOC entry's label: its text, else (a label that is an image) the `alt` of its first
  /// `img`/`image`, else its own `aria-label` or `title`. Walks at most `maxNodes` elements.
  var tocLabel: String {
    let text = self.text
    if !text.isEmpty { return text }
    var stack = [self]
    var visited = 0
    while let e = stack.popLast(), visited < 1_000 {
      visited += 1
      if e.name == "img" || e.name == "image",
        let alt = e.attribute("alt")?.trimmingCharacters(in: .whitespacesAndNewlines),
        !alt.isEmpty
      {
        return alt
      }
      stack.append(contentsOf: e.elements.reversed())
    }
    return attribute("aria-label") ?? attribute("title") ?? ""
  }
}

extension BookMetadata {
  /// The `dir` of the title and each creator, each falling back to the package's `dir`.
  mutating func setDirections(_ package: XMLElement, _ title: XMLElement?, _ creators: [XMLElement])
  {
    func dir(_ e: XMLElement?) -> TextDirection? {
      e?.attribute("dir").flatMap { TextDirection(rawValue: $0.lowercased()) }
        ?? package.attribute("dir").flatMap { TextDirection(rawValue: $0.lowercased()) }
    }
    titleDirection = dir(title)
    creatorDirections = creators.filter { !$0.text.isEmpty }.map(dir)
  }
}
