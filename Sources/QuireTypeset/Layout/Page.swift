// The typesetter's output: pages as render-agnostic display lists plus a source map.
//
// Coordinates: page pixels, origin at the top-left, y down. Glyph positions are the pen
// position on the baseline, in fractional pixels; the rasterizer quantizes them.

import Foundation
import QuireCore
import QuireIngest

package struct Rect: Sendable, Hashable, Codable {
  package var x: Double, y: Double, width: Double, height: Double
  package init(x: Double, y: Double, width: Double, height: Double) {
    self.x = x
    self.y = y
    self.width = width
    self.height = height
  }
  package var maxX: Double { x + width }
  package var maxY: Double { y + height }
}

/// Index of a face in the layout's `FontTable`.
package typealias FontID = Int

/// Shaped glyphs in one face at one size and colour.
package struct GlyphRun: Sendable, Hashable {
  package var font: FontID
  /// Pixels per em.
  package var size: Double
  package var color: RGBA
  /// Glyph ids in the face.
  package var glyphs: [UInt32]
  /// Pen positions on the baseline, page pixels, one per glyph.
  package var x: [Float]
  package var y: [Float]
  /// Synthesized styles when the family lacks a bold or italic face.
  package var syntheticBold: Bool
  package var syntheticItalic: Bool
  /// How the glyphs stand on the page (vertical text, Vertical/VerticalPage.swift).
  package var orientation = GlyphOrientation.horizontal

  package init(
    font: FontID, size: Double, color: RGBA, glyphs: [UInt32], x: [Float], y: [Float],
    syntheticBold: Bool = false, syntheticItalic: Bool = false
  ) {
    self.font = font
    self.size = size
    self.color = color
    self.glyphs = glyphs
    self.x = x
    self.y = y
    self.syntheticBold = syntheticBold
    self.syntheticItalic = syntheticItalic
  }
}

/// How a glyph run stands: drawn as laid out, or turned a quarter clockwise about each
/// glyph's pen position (vertical text's rotated Latin).
package enum GlyphOrientation: UInt8, Sendable, Hashable {
  /// Horizontal text.
  case horizontal
  /// Vertical text's upright glyphs: placed for a vertical line, drawn unrotated.
  case upright
  /// Drawn rotated 90° clockwise: the baseline runs down the page.
  case sideways
}

package struct ImagePlacement: Sendable, Hashable {
  /// Resolved href; the renderer asks the book's resources for the bytes.
  package var href: String
  package var rect: Rect
  package init(href: String, rect: Rect) {
    self.href = href
    self.rect = rect
  }
  /// Draw only inside this rectangle (object-fit cover/none spill past the image's box).
  package var clip: Rect? = nil
}

package enum DisplayItem: Sendable, Hashable {
  case glyphs(GlyphRun)
  case image(ImagePlacement)
  /// A filled rectangle: hr, underline, strike-through, table rules, placeholders.
  case fill(Rect, RGBA)
  /// A box's background and borders (one page's fragment), painted before its content.
  case box(BoxPaint)
  /// A filled outline: diagonal strokes, arrows, curves (FilledPath.swift).
  case path(FilledPath)
  /// Items drawn under a `transform` (Layout/AffineMatrix.swift). Indirect: a group is rare
  /// and large, and every other item should not grow to its size.
  indirect case transformed(TransformedGroup)

  /// Calls `body` with each glyph run of the item, those inside transformed groups included.
  package func forEachGlyphRun(_ body: (GlyphRun) -> Void) {
    switch self {
    case .glyphs(let run): body(run)
    case .transformed(let g): for item in g.items { item.forEachGlyphRun(body) }
    default: break
    }
  }
}

/// One laid-out line, for the manifest's `lines` and for tests.
package struct LineBox: Sendable, Hashable, Codable {
  package enum Role: String, Sendable, Hashable, Codable { case text, folio, note }
  /// The text as shown, without an inserted hyphen.
  package var text: String
  package var rect: Rect
  /// Index of the source block (paragraph/heading) in reading order within the book.
  package var block: Int
  package var role: Role
  package var hyphenated: Bool
  /// Justification adjustment ratio: 0 natural, + stretched, − shrunk.
  package var ratio: Double
  package var start: Location
  package var end: Location
  /// Word-space width as set, over the natural space (nil: the line has no word space).
  /// Set by the typesetter from the glue it placed, so quality reports need not know the
  /// glue model.
  package var spaceFactor: Double? = nil

  package init(
    text: String, rect: Rect, block: Int, role: Role = .text, hyphenated: Bool = false,
    ratio: Double = 0, start: Location, end: Location
  ) {
    self.text = text
    self.rect = rect
    self.block = block
    self.role = role
    self.hyphenated = hyphenated
    self.ratio = ratio
    self.start = start
    self.end = end
  }
}

/// One page: what to draw and where it came from.
package struct Page: Sendable {
  /// 1-based, in the whole book.
  package var number: Int
  package var spine: Int
  package var href: String
  package var start: Location
  package var end: Location
  package var items: [DisplayItem]
  package var lines: [LineBox]
  package var images: [ImagePlacement]
  /// Content boxes of the text blocks with lines on this page (`BlockBox`).
  package var blocks: [BlockBox] = []
  /// The block boxes on this page, one fragment each, in the order they open.
  package var boxes: [BlockFragment] = []
  /// The canvas background (the chapter's `html`/`body` background, CSS 2.1 §14.2): painted
  /// over the whole page, margins included, before any item. Its `rect` is the page.
  package var background: BoxPaint? = nil
  /// Formulas on this page (manifest `math`).
  package var math: [MathPlacement] = []
  /// Line fragments of decorated inline boxes (manifest `inlineBoxes`).
  package var inlineBoxes: [InlineBoxFragment] = []
  /// The chapter's `writing-mode`: the direction of its lines on this page.
  package var writingMode = WritingMode.horizontalTB
  /// The item's rendition (EPUB only; Fixed/FixedLayout.swift). A pre-paginated page's
  /// display list is in its ICB's pixels (`rendition.viewport`), not the output page's.
  package var rendition: PageRendition? = nil

  package init(
    number: Int, spine: Int, href: String, start: Location, end: Location,
    items: [DisplayItem] = [], lines: [LineBox] = [], images: [ImagePlacement] = []
  ) {
    self.number = number
    self.spine = spine
    self.href = href
    self.start = start
    self.end = end
    self.items = items
    self.lines = lines
    self.images = images
  }
}
