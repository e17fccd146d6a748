// Blocks and inlines: the styled tree that Typeset lays out.
//
// A block either holds inline content (`inlines`, for paragraphs, headings, list items,
// pre, table cells, captions) or child blocks (`children`, for containers: div, section,
// blockquote, lists, tables, rows, figures). A list item may hold both a marker and children.
// Depth is capped at ingest (`IngestLimits.maxDepth`): deeper content is flattened into the
// deepest allowed block, so every consumer may recurse without fear for its stack.

import Foundation

package enum BlockKind: Sendable, Hashable, Codable {
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

package struct ImageRef: Sendable, Hashable, Codable {
  /// Resolved href inside the archive.
  package var href: String
  package var alt: String
  /// Intrinsic size hints from width/height attributes, in CSS px, if given.
  package var width: Double?
  package var height: Double?
  /// The image element's own box properties: CSS sizes (`width`/`height` above are the
  /// attributes, presentational hints below these), object-fit, borders.
  package var box = BoxStyle()
  package init(
    href: String, alt: String, width: Double? = nil, height: Double? = nil,
    box: BoxStyle = BoxStyle()
  ) {
    self.href = href
    self.alt = alt
    self.width = width
    self.height = height
    self.box = box
  }
}

package struct Block: Sendable {
  package var kind: BlockKind
  package var style: ComputedStyle
  package var inlines: [Inline]
  package var children: [Block]
  /// Where this block's text starts.
  package var location: Location
  /// The element name it came from ("p", "h2", "div"), for dumps and debugging.
  package var element: String
  package var lang: String?
  package var dir: TextDirection?
  /// Borders, background, sizes, float… (Document/BoxStyle.swift); initial values for
  /// anonymous blocks.
  package var box = BoxStyle()
  /// Set when the block is a footnote or endnote (Note.swift).
  package var note: NoteMark? = nil
  /// The element it came from as its preorder position among the chapter document's elements
  /// (0 = the root `html`), what a browser's `getElementsByTagName("*")` numbers the same way;
  /// an anonymous paragraph carries its parent's. −1 when unknown (plain text).
  package var source = -1
  /// Spans, row group, columns of table elements (Document/TablePart.swift).
  package var table = TablePart()
  /// Some of its runs carry a `::first-line` style (`ComputedStyle.firstLine`), which
  /// Typeset gives the text of its first formatted line.
  package var hasFirstLine = false

  package init(
    kind: BlockKind, style: ComputedStyle, inlines: [Inline] = [], children: [Block] = [],
    location: Location, element: String, lang: String? = nil, dir: TextDirection? = nil,
    box: BoxStyle = BoxStyle()
  ) {
    self.box = box
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

package enum Inline: Sendable {
  case text(TextRun)
  /// `<br>`: counts as one character at its location.
  case lineBreak(Location)
  case image(InlineImage)
  /// A MathML formula (Document/MathFormula.swift): one atomic box, like an image.
  case math(InlineMath)
  /// An atomic inline box (`display: inline-block`, `inline-table`, …; CSS 2.1 §9.2.4).
  case inlineBlock(InlineBlock)
}

/// An inline-level box whose content is laid out as a block of its own and placed in its
/// line as one unbreakable box (CSS 2.1 §9.2.4, §10.3.9, §10.8.1). Its `block` has the
/// element's style, box (borders, padding, background, sizes) and ordinal, and holds the
/// element's inline content as a paragraph, or, when block-level descendants are inside,
/// its blocks (paragraphs, lists, tables…; anonymous paragraphs around them), a `table`'s
/// parts for an `inline-table`. It counts no character of its own: its text's Locations
/// run from `location` to `end`.
package struct InlineBlock: Sendable {
  package var block: Block
  /// The box's style as an inline (what the line sees: font for the strut, vertical-align).
  package var style: ComputedStyle
  /// Where its text starts.
  package var location: Location
  /// The source offset just after its text.
  package var end: Int
  package init(block: Block, style: ComputedStyle, location: Location, end: Int) {
    self.block = block
    self.style = style
    self.location = location
    self.end = end
  }
}

package struct TextRun: Sendable {
  /// The text after white-space processing (collapsed unless `style.whiteSpace` keeps it).
  /// Soft hyphens (U+00AD) are kept; the typesetter uses them as break points.
  package var text: String
  package var style: ComputedStyle
  package var location: Location
  /// Resolved link target, if inside `<a href>`.
  package var link: String?
  package var lang: String?
  /// Generated content (`::before`/`::after`, quotation marks, an inside list marker): not
  /// book text. Its scalars all sit at `location` (the next source character) and advance
  /// no offset; `Chapter.length` and every Location count source text only.
  package var generated = false
  package init(
    text: String, style: ComputedStyle, location: Location, link: String? = nil, lang: String? = nil
  ) {
    self.text = text
    self.style = style
    self.location = location
    self.link = link
    self.lang = lang
  }
}

package struct InlineImage: Sendable {
  package var image: ImageRef
  package var style: ComputedStyle
  /// Counts as one character (U+FFFC) at its location.
  package var location: Location
  package init(image: ImageRef, style: ComputedStyle, location: Location) {
    self.image = image
    self.style = style
    self.location = location
  }
}

extension Inline {
  /// Where the inline's content starts.
  package var location: Location {
    switch self {
    case .text(let r): return r.location
    case .lineBreak(let l): return l
    case .image(let i): return i.location
    case .math(let m): return m.location
    case .inlineBlock(let b): return b.location
    }
  }
}
