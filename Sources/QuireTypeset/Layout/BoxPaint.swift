// What the painter needs to draw one fragment of a CSS box on one page: its border box in
// page pixels, the four border sides resolved to pixels and colours, corner radii, and the
// background. A box split across pages gives one `BoxPaint` per page; the sides a page break
// cuts through are absent (`box-decoration-break: slice`, CSS Fragmentation 3 §5.4).
//
// Background image layers stay as Ingest parsed them (`BackgroundLayer`): the painter
// resolves sizes and positions against `rect` and the decoded image.

import Foundation
import QuireCore
import QuireIngest

/// One border side as drawn: width in page pixels (0: nothing), style and colour.
package struct PaintedBorderSide: Sendable, Hashable {
  package var width: Double
  package var style: BorderStyle
  package var color: RGBA
  package init(width: Double, style: BorderStyle, color: RGBA) {
    self.width = width
    self.style = style
    self.color = color
  }
  package static let none = PaintedBorderSide(width: 0, style: .none, color: .black)
  /// Whether this side draws anything.
  package var isDrawn: Bool { width > 0 && style.isVisible && color.a > 0 }
}

package struct BoxPaint: Sendable, Hashable {
  /// The fragment's border box, page pixels.
  package var rect: Rect
  package var top: PaintedBorderSide
  package var right: PaintedBorderSide
  package var bottom: PaintedBorderSide
  package var left: PaintedBorderSide
  /// Corner radii in pixels: top-left, top-right, bottom-right, bottom-left.
  package var radii: [Double]
  /// The background colour (painted under the image layers), nil for transparent.
  package var backgroundColor: RGBA?
  /// Image layers, first on top.
  package var backgroundLayers: [BackgroundLayer]
  /// `overflow: hidden`: how many display items after this one (the box's content on this
  /// page) are clipped to the padding box; 0 clips nothing.
  package var clippedItems = 0

  package init(
    rect: Rect, top: PaintedBorderSide = .none, right: PaintedBorderSide = .none,
    bottom: PaintedBorderSide = .none, left: PaintedBorderSide = .none,
    radii: [Double] = [0, 0, 0, 0], backgroundColor: RGBA? = nil,
    backgroundLayers: [BackgroundLayer] = []
  ) {
    self.rect = rect
    self.top = top
    self.right = right
    self.bottom = bottom
    self.left = left
    self.radii = radii
    self.backgroundColor = backgroundColor
    self.backgroundLayers = backgroundLayers
  }

  /// The padding box: the border box less the border widths.
  package var paddingBox: Rect {
    Rect(
      x: rect.x + left.width, y: rect.y + top.width,
      width: max(0, rect.width - left.width - right.width),
      height: max(0, rect.height - top.width - bottom.width))
  }
}
