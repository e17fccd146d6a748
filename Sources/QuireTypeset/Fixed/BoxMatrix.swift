// CSS transforms of positioned boxes (CSS Transforms 1 §6–§8, 2-D): a box's `transform`
// functions resolve against its border box into one affine matrix, about its
// `transform-origin`: M = T(origin) × F1 × F2 × … × T(−origin), the first function the
// outermost (it applies last), as the spec's "accumulate the transform functions from left
// to right" reads.
//
// A translation only moves the layer's items (cheap, and pixel-exact as before). Any other
// matrix wraps the layer's items — the box, its content and its positioned descendants,
// which a transform makes a stacking context for — into one `TransformedGroup` that the
// raster stage draws through the matrix; a transformed box inside it nests a group in the
// group, so nested transforms compose. The manifest's lines, images, text blocks and boxes
// of the layer report the bounding boxes of their mapped rectangles.
//
// Rejected: moving glyph positions and rectangles through the matrix. Glyphs would need a
// rotated rasterisation each, rectangles become polygons, and images would need their own
// resampling; one layer per transformed box draws them all alike.

import Foundation
import QuireIngest

extension ChapterFlow {
  /// The matrix of `transform` for a box whose border box is `border`, page px.
  func matrix(_ transform: BoxTransform, origin: (Length, Length), border: Rect)
    -> AffineMatrix
  {
    let ox = border.x + px(origin.0, of: border.width)
    let oy = border.y + px(origin.1, of: border.height)
    var m = AffineMatrix.translation(ox, oy)
    for f in transform.functions {
      m = m.concatenating(step(f, border))
    }
    return m.concatenating(.translation(-ox, -oy))
  }

  /// One transform function as a matrix (angles in radians, y down: positive turns clockwise).
  private func step(_ f: TransformFunction, _ border: Rect) -> AffineMatrix {
    switch f {
    case .translate(let x, let y):
      return .translation(px(x, of: border.width), px(y, of: border.height))
    case .scale(let sx, let sy):
      return AffineMatrix(a: sx, b: 0, c: 0, d: sy, e: 0, f: 0)
    case .rotate(let angle):
      let (s, c) = (sin(angle), cos(angle))
      return AffineMatrix(a: c, b: s, c: -s, d: c, e: 0, f: 0)
    case .skew(let ax, let ay):
      return AffineMatrix(a: 1, b: bounded(tan(ay)), c: bounded(tan(ax)), d: 1, e: 0, f: 0)
    case .matrix(let a, let b, let c, let d, let e, let f):
      return AffineMatrix(a: a, b: b, c: c, d: d, e: px(e, of: 0), f: px(f, of: 0))
    }
  }

  /// tan(90°) is infinite: a skew that steep is clamped (it draws a sliver, as browsers do).
  private func bounded(_ v: Double) -> Double {
    v.isFinite ? max(-100_000, min(100_000, v)) : 0
  }
}

extension PositionedBoxes.Layer {
  /// Draws the layer (with `nested`, the layers of its positioned descendants, folded in by
  /// z-index) through `matrix`; the manifest rectangles become their mapped bounding boxes.
  mutating func transform(by matrix: AffineMatrix, nested: [PositionedBoxes.Layer]) {
    let sorted = nested.sorted { ($0.z, $0.order) < ($1.z, $1.order) }
    items =
      sorted.filter { $0.z < 0 }.flatMap(\.items) + items
      + sorted.filter { $0.z >= 0 }.flatMap(\.items)
    for layer in sorted {
      lines += layer.lines
      images += layer.images
      blocks += layer.blocks
      boxes += layer.boxes
    }
    let bounds = Self.extent(items, lines: lines, images: images, boxes: boxes)
    items = [.transformed(TransformedGroup(matrix: matrix, bounds: bounds, items: items))]
    for i in lines.indices { lines[i].rect = matrix.bounds(of: lines[i].rect) }
    for i in images.indices { images[i].rect = matrix.bounds(of: images[i].rect) }
    for i in blocks.indices { blocks[i].rect = matrix.bounds(of: blocks[i].rect) }
    for i in boxes.indices {
      boxes[i].border = matrix.bounds(of: boxes[i].border)
      boxes[i].content = matrix.bounds(of: boxes[i].content)
    }
  }

  /// Where the items draw, before the matrix: the union of the boxes, lines, images and
  /// nested groups, with room for glyph ink past its line box (a quarter em of the largest
  /// run, at least 4 px).
  static func extent(
    _ items: [DisplayItem], lines: [LineBox], images: [ImagePlacement], boxes: [BlockFragment]
  ) -> Rect {
    var rects = lines.map(\.rect) + images.map(\.rect) + boxes.map(\.border)
    var ink = 4.0
    for item in items {
      switch item {
      case .box(let b): rects.append(b.rect)
      case .fill(let r, _): rects.append(r)
      case .image(let p): rects.append(p.clip ?? p.rect)
      case .glyphs(let run): ink = max(ink, min(1_000, run.size / 4))
      case .transformed(let g): rects.append(g.matrix.bounds(of: g.bounds))
      case .path(let p): rects.append(p.bounds)
      }
    }
    let finite = rects.filter {
      $0.x.isFinite && $0.y.isFinite && $0.width.isFinite && $0.height.isFinite
    }
    guard let first = finite.first else { return Rect(x: 0, y: 0, width: 0, height: 0) }
    var (x0, y0, x1, y1) = (first.x, first.y, first.maxX, first.maxY)
    for r in finite.dropFirst() {
      (x0, y0) = (min(x0, r.x), min(y0, r.y))
      (x1, y1) = (max(x1, r.maxX), max(y1, r.maxY))
    }
    return Rect(x: x0 - ink, y: y0 - ink, width: x1 - x0 + 2 * ink, height: y1 - y0 + 2 * ink)
  }
}
