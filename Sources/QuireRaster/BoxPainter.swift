// Paints a CSS box fragment (`BoxPaint`): the background colour under the whole border box
// (`background-clip: border-box`, the initial value), then the four border sides. Sides are
// drawn as anti-aliased rectangles: top and bottom span the full width, left and right fit
// between them. `double` is two lines of a third of the width each with a third between,
// `dashed` and `dotted` repeat segments of 3× and 1× the width, centred on the side so both
// ends match (CSS Backgrounds 3 §4.2 leaves the exact pattern to the user agent).
// Image and gradient layers go over the colour (BackgroundPainter.swift); rounded corners,
// round dots and the 3-D styles take the sampled path (BorderRing.swift), which clips the
// background to the rounded border box too.

import Foundation
import QuireCore
import QuireIngest
import QuireTypeset

enum BoxPainter {
  static func paint(
    _ box: BoxPaint, on canvas: inout Canvas, images: BackgroundImages = .none
  ) {
    let r = box.rect
    guard r.x.isFinite, r.y.isFinite, r.width.isFinite, r.height.isFinite, r.width > 0,
      r.height > 0, r.width < 1e6, r.height < 1e6
    else { return }
    let shape = RoundedRect(r, radii: box.radii)
    if let bg = box.backgroundColor {
      if shape.isRectangle { canvas.fill(r, color: bg) } else { canvas.fill(shape, color: bg) }
    }
    if !box.backgroundLayers.isEmpty {
      BackgroundPainter.paint(box, clip: shape, images: images, on: &canvas)
    }
    let sides = [box.top, box.right, box.bottom, box.left]
    let sampled: Set<BorderStyle> = [.dotted, .groove, .ridge, .inset, .outset]
    if !shape.isRectangle || sides.contains(where: { $0.isDrawn && sampled.contains($0.style) }) {
      if sides.contains(where: \.isDrawn) { BorderRing(box).paint(on: &canvas) }
      return
    }
    let t = box.top.width
    let b = box.bottom.width
    let middle = Swift.max(0, r.height - t - b)
    side(box.top, Rect(x: r.x, y: r.y, width: r.width, height: t), horizontal: true, &canvas)
    side(
      box.bottom, Rect(x: r.x, y: r.maxY - b, width: r.width, height: b), horizontal: true, &canvas)
    let lw = box.left.width
    let rw = box.right.width
    side(box.left, Rect(x: r.x, y: r.y + t, width: lw, height: middle), horizontal: false, &canvas)
    side(
      box.right, Rect(x: r.maxX - rw, y: r.y + t, width: rw, height: middle), horizontal: false,
      &canvas)
  }

  /// One side in its rectangle; `horizontal` sides run along x.
  private static func side(
    _ s: PaintedBorderSide, _ area: Rect, horizontal: Bool, _ canvas: inout Canvas
  ) {
    guard s.isDrawn, area.width > 0, area.height > 0 else { return }
    switch s.style {
    case .double where s.width >= 3:
      let line = s.width / 3
      if horizontal {
        canvas.fill(Rect(x: area.x, y: area.y, width: area.width, height: line), color: s.color)
        canvas.fill(
          Rect(x: area.x, y: area.maxY - line, width: area.width, height: line), color: s.color)
      } else {
        canvas.fill(Rect(x: area.x, y: area.y, width: line, height: area.height), color: s.color)
        canvas.fill(
          Rect(x: area.maxX - line, y: area.y, width: line, height: area.height), color: s.color)
      }
    case .dashed:
      let segment = s.width * 3
      let length = horizontal ? area.width : area.height
      // An odd number of segments (dash, gap, …, dash) so both ends are drawn.
      let fit = (length / segment).rounded(.down)
      guard fit >= 1, fit < 100_000 else {
        canvas.fill(area, color: s.color)
        return
      }
      let count = Int(fit) % 2 == 0 ? Int(fit) - 1 : Int(fit)
      let step = length / Double(count)
      for i in stride(from: 0, to: count, by: 2) {
        let start = Double(i) * step
        let piece =
          horizontal
          ? Rect(x: area.x + start, y: area.y, width: step, height: area.height)
          : Rect(x: area.x, y: area.y + start, width: area.width, height: step)
        canvas.fill(piece, color: s.color)
      }
    default:
      canvas.fill(area, color: s.color)
    }
  }
}
