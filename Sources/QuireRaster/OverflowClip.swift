// `overflow: hidden` on the canvas: a clipping box paint says how many of the items after it
// are its content. Before they are drawn the canvas is copied; after the last of them, every
// pixel outside the box's padding box is put back from the copy, so the content shows only
// inside. One copy per clipping fragment (a page's bytes) keeps every other drawing routine
// free of clip tests; nested clips restore innermost first.

import QuireTypeset

/// A clip waiting for the end of its content.
struct OverflowClip {
  /// Index of the last clipped item.
  var last: Int
  var rect: Rect
  var saved: [UInt8]
}

extension Canvas {
  /// Puts back the pixels outside `rect` (rounded outwards to whole pixels) from `saved`.
  mutating func restore(outside rect: Rect, from saved: [UInt8]) {
    guard saved.count == pixels.count else { return }
    let ch = format.channels
    let finite = rect.x.isFinite && rect.y.isFinite && rect.width.isFinite && rect.height.isFinite
    let x0 = finite ? Swift.max(0, Swift.min(width, Int(rect.x.rounded(.down)))) : 0
    let x1 = finite ? Swift.max(x0, Swift.min(width, Int(rect.maxX.rounded(.up)))) : 0
    let y0 = finite ? Swift.max(0, Swift.min(height, Int(rect.y.rounded(.down)))) : 0
    let y1 = finite ? Swift.max(y0, Swift.min(height, Int(rect.maxY.rounded(.up)))) : 0
    for y in 0..<height {
      let row = y * width * ch
      if y < y0 || y >= y1 || x0 == x1 {
        pixels.replaceSubrange(row..<row + width * ch, with: saved[row..<row + width * ch])
      } else {
        pixels.replaceSubrange(row..<row + x0 * ch, with: saved[row..<row + x0 * ch])
        let r = row + x1 * ch
        pixels.replaceSubrange(r..<row + width * ch, with: saved[r..<row + width * ch])
      }
    }
  }
}
