// The Document: what Ingest hands to Typeset. Plain Swift values, no C pointers, Sendable,
// so chapters can be laid out in parallel.
//
// Units: every length in a `ComputedStyle` is in *root ems* (`Length.rem`) or a percentage of
// the containing block's width. Ingest does not know the reader's font size: the typesetter
// multiplies rem by `--font-size`. Absolute CSS lengths (px, pt) are converted with the CSS
// reference root of 16 px, so a publisher's `font-size: 12pt` becomes 1 rem.
//
// Locations: a `Location` is (spine index, character offset), where the offset counts
// Unicode scalars of the chapter's text in document order (the text of every `TextRun`,
// each `lineBreak` counting as one). Locations survive relayout; page numbers do not.
// Generated content (`TextRun.generated`: ::before/::after text, quotation marks of <q>,
// inside list markers) is shown but not counted: its run sits at the offset of the source
// character after it and advances nothing, so `length` and every anchor count source text.

import Foundation
import QuireCore

/// A point in the book that survives relayout.
package struct Location: Hashable, Comparable, Sendable, Codable {
  package var spine: Int
  package var offset: Int
  package init(spine: Int, offset: Int) {
    self.spine = spine
    self.offset = offset
  }
  package static func < (a: Location, b: Location) -> Bool {
    (a.spine, a.offset) < (b.spine, b.offset)
  }
}

package enum BookFormat: String, Sendable, Codable { case epub, html, text }

package enum TextDirection: String, Sendable, Codable, Hashable { case ltr, rtl }

/// A whole book, converted once.
package struct Document: Sendable {
  package var format: BookFormat
  package var metadata: BookMetadata
  /// One chapter per spine item, in spine order (non-linear ones included, marked).
  package var chapters: [Chapter]
  package var toc: [TOCEntry]
  /// Embedded fonts from @font-face rules, already de-obfuscated.
  package var fonts: [EmbeddedFont]
  /// Every image the book's manifest holds (href → media type), for `quire info`.
  package var images: [ImageResource]
  /// Bytes of archive resources (images) by resolved href.
  package var resources: any ResourceStore
  /// Damaged content that was worked around, in the order found (spine order for chapters).
  package var warnings: [Diagnostic]
  /// Landmarks (EPUB 3 nav `landmarks`, else the EPUB 2 guide): cover, toc, start of text…
  package var landmarks: [Landmark] = []

  package init(
    format: BookFormat, metadata: BookMetadata, chapters: [Chapter], toc: [TOCEntry],
    fonts: [EmbeddedFont], images: [ImageResource], resources: any ResourceStore,
    warnings: [Diagnostic]
  ) {
    self.format = format
    self.metadata = metadata
    self.chapters = chapters
    self.toc = toc
    self.fonts = fonts
    self.images = images
    self.resources = InlineImageStore.wrap(resources, chapters: chapters)
    self.warnings = warnings
    resolveProgression()
  }

  /// A package that declares no page progression reads right to left when most of its linear
  /// text (by source size) is set `vertical-rl`, as Japanese and Chinese vertical books are
  /// (CSS Writing Modes 3 §3.1: vertical-rl blocks progress right to left; EPUB 3.3 leaves the
  /// `default` progression to the reading system), and left to right when most is
  /// `vertical-lr`. Otherwise the package's fallback (its language) stands. A declared
  /// progression always wins; the progression never sets text direction.
  mutating func resolveProgression() {
    guard metadata.declaredProgression == nil else { return }
    var size: [WritingMode: Int] = [:]
    for c in chapters where c.linear { size[c.writingMode, default: 0] += max(c.size, 1) }
    let total = size.values.reduce(0, +)
    if 2 * size[.verticalRL, default: 0] > total {
      metadata.direction = .rtl
    } else if 2 * size[.verticalLR, default: 0] > total {
      metadata.direction = .ltr
    }
  }
}

/// Gives the bytes of a resource (an image) inside the book, by its resolved href.
package protocol ResourceStore: Sendable {
  func data(forHref href: String) -> Data?
}

/// A store with nothing in it (plain text books).
package struct EmptyResourceStore: ResourceStore {
  package init() {}
  package func data(forHref href: String) -> Data? { nil }
}

package struct BookMetadata: Sendable, Codable, Hashable {
  package var title: String
  package var creators: [String]
  package var language: String?
  package var identifier: String?
  package var date: String?
  package var publisher: String?
  package var description: String?
  /// Resolved href of the cover image, if the book names one.
  package var coverHref: String?
  /// The order of pages: the spine's page-progression-direction, else right to left when
  /// most of the book's text is `vertical-rl`, else from the language, else ltr
  /// (`Document.resolveProgression`).
  package var direction: TextDirection
  /// The spine's `page-progression-direction` when the package declares one (nil for
  /// `default`, absent, and for books that are not EPUBs).
  package var declaredProgression: TextDirection? = nil
  /// The `dir` of the title's `dc:title` (else the package's `dir`), when given.
  package var titleDirection: TextDirection? = nil
  /// The `dir` of each of `creators` (else the package's `dir`), nil where not given.
  package var creatorDirections: [TextDirection?] = []
  /// The package-wide rendition properties (EPUB only; Package/Rendition.swift).
  package var rendition: Rendition? = nil

  package init(
    title: String = "", creators: [String] = [], language: String? = nil,
    identifier: String? = nil, date: String? = nil, publisher: String? = nil,
    description: String? = nil, coverHref: String? = nil, direction: TextDirection = .ltr
  ) {
    self.title = title
    self.creators = creators
    self.language = language
    self.identifier = identifier
    self.date = date
    self.publisher = publisher
    self.description = description
    self.coverHref = coverHref
    self.direction = direction
  }
}

package struct TOCEntry: Sendable, Codable, Hashable {
  package var title: String
  /// The raw target href (resolved against the archive root, fragment kept).
  package var href: String
  /// Where the target lands in the Document, when it resolves.
  package var location: Location?
  package var children: [TOCEntry]
  package init(title: String, href: String, location: Location?, children: [TOCEntry] = []) {
    self.title = title
    self.href = href
    self.location = location
    self.children = children
  }
}

/// A structural landmark of the book ("cover", "toc", "bodymatter"/"text", …).
package struct Landmark: Sendable, Codable, Hashable {
  /// epub:type (EPUB 3) or guide type (EPUB 2), as written.
  package var type: String
  package var title: String
  /// Resolved href inside the archive, fragment kept.
  package var href: String
  package var location: Location?
  package init(type: String, title: String, href: String, location: Location?) {
    self.type = type
    self.title = title
    self.href = href
    self.location = location
  }
}

package struct EmbeddedFont: Sendable {
  package var family: String
  package var weight: Int
  package var italic: Bool
  package var href: String
  /// The font file, de-obfuscated when it was obfuscated.
  package var data: Data
  package var wasObfuscated: Bool
  /// The rule's matching descriptors (weight/style/stretch ranges, unicode-range).
  package var descriptors: FontFaceDescriptors
  /// The rule's sources in `src` order, each tried until one opens; `href`/`data` are the
  /// first file among them.
  package var sources: [EmbeddedFontSource]
  package init(
    family: String, weight: Int, italic: Bool, href: String, data: Data, wasObfuscated: Bool,
    descriptors: FontFaceDescriptors? = nil, sources: [EmbeddedFontSource]? = nil
  ) {
    self.family = family
    self.weight = weight
    self.italic = italic
    self.href = href
    self.data = data
    self.wasObfuscated = wasObfuscated
    self.descriptors =
      descriptors
      ?? FontFaceDescriptors(
        weight: Double(weight)...Double(weight), slant: italic ? .italic : .normal)
    self.sources = sources ?? [.file(href: href, fragment: nil, data: data)]
  }
}

/// One loaded entry of an @font-face `src` list.
package enum EmbeddedFontSource: Sendable {
  /// A font file from the book (de-obfuscated); `fragment` picks a collection's face.
  case file(href: String, fragment: String?, data: Data)
  /// An installed face by name (`local()`).
  case local(String)
}

package struct ImageResource: Sendable, Codable, Hashable {
  package var href: String
  package var mediaType: String
  package var size: Int
  package init(href: String, mediaType: String, size: Int) {
    self.href = href
    self.mediaType = mediaType
    self.size = size
  }
}

/// One spine item.
package struct Chapter: Sendable {
  package var spineIndex: Int
  package var href: String
  package var mediaType: String
  package var linear: Bool
  /// Size in bytes of the source document.
  package var size: Int
  package var language: String?
  package var direction: TextDirection?
  package var blocks: [Block]
  /// Element ids (fragment targets) → character offset in this chapter.
  package var anchors: [String: Int]
  /// Total characters (Unicode scalars) in this chapter; Locations run 0..<length.
  package var length: Int
  /// The `html` element's background, when it has one (the canvas background, CSS 2.1
  /// §14.2; the body's block keeps its own).
  package var rootBackground: BoxBackground? = nil
  /// In-memory images of the chapter (inline `<svg>`, Markup/InlineSVG.swift) by the
  /// resource href its blocks use.
  package var inlineImages: [String: Data] = [:]
  /// The `writing-mode` of the document's `body` (or `html`): its lines' direction.
  package var writingMode = WritingMode.horizontalTB
  /// Whether the document has a publisher style sheet (a `<link>`ed sheet or a `<style>`
  /// element with at least one rule, publisher styles on): its images are then placed by
  /// its CSS alone (Blocks/BlockImage.swift).
  package var authorStyles = false
  /// The item's rendition properties (EPUB fixed layout, Package/Rendition.swift); nil for
  /// books that are not EPUBs.
  package var rendition: Rendition? = nil

  package init(
    spineIndex: Int, href: String, mediaType: String, linear: Bool, size: Int,
    language: String?, direction: TextDirection?, blocks: [Block], anchors: [String: Int],
    length: Int
  ) {
    self.spineIndex = spineIndex
    self.href = href
    self.mediaType = mediaType
    self.linear = linear
    self.size = size
    self.language = language
    self.direction = direction
    self.blocks = blocks
    self.anchors = anchors
    self.length = length
  }
}
