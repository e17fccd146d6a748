// Blocks and inlines: the styled tree that Typeset lays out.
//
// A block either holds inline content (`inlines`, for paragraphs, headings, list items,
// pre, table cells, captions) or child blocks (`children`, for containers: div, section,
// blockquote, lists, tables, rows, figures). A list item may hold both a marker and children.
// Depth is capped at ingest (`IngestLimits.maxDepth`): deeper content is flattened into the
// deepest allowed block, so every consumer may recurse without fear for its stack.

import Foundation

public enum BlockKind: Sendable, Hashable, Codable {
  case paragraph
  case heading(level: Int)
  /// `ordered` lists number their items; `start` is the first number.
  case list(ordered: Bool, start: Int)
  /// `marker` is the text shown before the item ("•", "3.", "iv."), empty for none.
  case listItem(marker: String)
  case blockquote
  case preformatted
  case rule
  case figure
  case caption
  /// A block-level image (img alone in a block, or inside a figure).
  case image(ImageRef)
  case table
  case tableRow
  case tableCell(header: Bool)
  /// div, section, aside, article, body…
  case container
}

public struct ImageRef: Sendable, Hashable, Codable {
  /// Resolved href inside the archive.
  public var href: String
  public var alt: String
  /// Intrinsic size hints from width/height attributes, in CSS px, if given.
  public var width: Double?
  public var height: Double?
  public init(href: String, alt: String, width: Double? = nil, height: Double? = nil) {
    self.href = href
    self.alt = alt
    self.width = width
    self.height = height
  }
}

public struct Block: Sendable {
  public var kind: BlockKind
  public var style: ComputedStyle
  public var inlines: [Inline]
  public var children: [Block]
  /// Where this block's text starts.
  public var location: Location
  /// The element name it came from ("p", "h2", "div"), for dumps and debugging.
  public var element: String
  public var lang: String?
  public var dir: TextDirection?

  public init(
    kind: BlockKind, style: ComputedStyle, inlines: [Inline] = [], children: [Block] = [],
    location: Location, element: String, lang: String? = nil, dir: TextDirection? = nil
  ) {
    self.kind = kind
    self.style = style
    self.inlines = inlines
    self.children = children
    self.location = location
    self.element = element
    self.lang = lang
    self.dir = dir
  }
}

public enum Inline: Sendable {
  case text(TextRun)
  /// `<br>`: counts as one character at its location.
  case lineBreak(Location)
  case image(InlineImage)
}

public struct TextRun: Sendable {
  /// The text after white-space processing (collapsed unless `style.whiteSpace` keeps it).
  /// Soft hyphens (U+00AD) are kept; the typesetter uses them as break points.
  public var text: String
  public var style: ComputedStyle
  public var location: Location
  /// Resolved link target, if inside `<a href>`.
  public var link: String?
  public var lang: String?
  public init(
    text: String, style: ComputedStyle, location: Location, link: String? = nil, lang: String? = nil
  ) {
    self.text = text
    self.style = style
    self.location = location
    self.link = link
    self.lang = lang
  }
}

public struct InlineImage: Sendable {
  public var image: ImageRef
  public var style: ComputedStyle
  /// Counts as one character (U+FFFC) at its location.
  public var location: Location
  public init(image: ImageRef, style: ComputedStyle, location: Location) {
    self.image = image
    self.style = style
    self.location = location
  }
}
