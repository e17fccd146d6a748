import Foundation

/// Renders a layer tree into an RGBA8 `PixelBuffer` (straight alpha), offline, on the CPU.
///
/// Per layer, in painter's order (siblings sorted by zPosition, then by index — there is no
/// depth buffer, so intersecting layers do not split): shadow, background (rounded by
/// cornerRadius), contents (placed by contentsGravity; clipped to the bounds and corners only
/// when masksToBounds), gradient, border, sublayers. A layer with opacity < 1 and sublayers,
/// or with masksToBounds and sublayers, is drawn as a group into an offscreen canvas that is
/// then masked and composited once (group opacity). Everything is premultiplied Float
/// internally; source-over throughout.
///
/// Simplifications, documented: the shadow's shape is the layer's rounded bounds (as if
/// shadowPath were the bounds), offset in canvas pixels, a Gaussian of σ = shadowRadius / 2:
/// for square corners under an affine transform the separable erf product of `RectShadow`
/// (no mask, no blur pass), otherwise the mask blurred by three box passes per axis; a layer whose isDoubleSided is false and that faces away is
/// skipped with its sublayers.
///
/// Determinism: single-threaded, fixed evaluation order, so the bytes are identical on every
/// run. A layer whose transform reduces to an integer translation and whose contents are
/// unscaled is copied pixel for pixel (no resampling), so an identity full-canvas page comes
/// out bit-identical.
///
/// Fast paths that give the general path's bytes: a fractional translation of unscaled
/// contents (push, slide) is sampled with bilinear weights computed once per quad; the
/// shadow of an opaque layer is not drawn where the layer will replace it (≥ 1.5 px inside);
/// the canvas is converted to RGBA8 four pixels at a time where they are opaque; a root
/// whose contents are an opaque picture of the canvas's size at its own pixels (a shelf)
/// starts the canvas as that picture (no background fill and no copy over it); each row of a quad has its fully covered inner
/// span shaded in a tight loop (`ScanRow`, `Shader.shadeRun`: an opaque texture's range
/// checks hoisted out of the pixel), only the edge pixels taking the coverage path.
package struct Compositor: Sendable {
  package var width: Int
  package var height: Int
  package var background: RGBA

  package init(width: Int, height: Int, background: RGBA = .clear) {
    precondition(
      width > 0 && height > 0 && width <= 16_384 && height <= 16_384,
      "Compositor: canvas \(width)x\(height) out of range")
    self.width = width
    self.height = height
    self.background = background
  }

  /// Renders `root`'s presentation at `time`.
  package func render(_ root: Layer, at time: Double) -> PixelBuffer {
    render(presentation: root.presentation(at: time))
  }

  /// Renders a tree as it is (model values; use for presentation copies or static trees).
  package func render(presentation root: Layer) -> PixelBuffer {
    if let backdrop = opaqueBackdrop(root) {
      // The root's background and contents would only be covered by its opaque picture.
      var canvas = Canvas(opaque: backdrop)
      draw(root, parent: .identity, into: &canvas, depth: 0, baseDrawn: true)
      return canvas.pixelBuffer()
    }
    var canvas = Canvas(width: width, height: height, fill: background)
    draw(root, parent: .identity, into: &canvas, depth: 0)
    return canvas.pixelBuffer()
  }

  /// The root's contents when they are an opaque picture placed 1:1 over the whole canvas
  /// (a shelf behind a book): the canvas then starts as that picture — the bytes of filling
  /// the background, the root's background colour and copying the picture over them.
  private func opaqueBackdrop(_ root: Layer) -> PixelBuffer? {
    let b = root.bounds
    guard !root.isHidden, root.opacity >= 1, root.transitionBelow == nil, root.transform.isIdentity,
      root.zPosition == 0, !root.masksToBounds, root.cornerRadius <= 0,
      root.shadowOpacity * root.shadowColor.alpha <= 0,
      let image = root.contents, image.width == width, image.height == height,
      image.format == .rgba8 || image.format == .gray8,
      b == LayerRect(x: 0, y: 0, width: Double(width), height: Double(height)),
      root.position.x - (b.minX + root.anchorPoint.x * b.width) == 0,
      root.position.y - (b.minY + root.anchorPoint.y * b.height) == 0,
      contentsRect(root.contentsGravity, bounds: b, image: image) == b
    else { return nil }
    let opaque = image.pixels.withUnsafeBufferPointer {
      isOpaque($0, channels: image.format.channels)
    }
    return opaque ? image : nil
  }

  private func draw(
    _ l: Layer, parent: Transform3D, into canvas: inout Canvas, depth: Int, baseDrawn: Bool = false
  ) {
    guard depth < 64, !l.isHidden else { return }
    if let below = l.transitionBelow {
      draw(below, parent: parent, into: &canvas, depth: depth + 1)
    }
    defer {
      if let above = l.transitionAbove {
        draw(above, parent: parent, into: &canvas, depth: depth + 1)
      }
    }
    let opacity = min(max(l.opacity, 0), 1)
    guard opacity > 0 else { return }
    let b = l.bounds
    let ax = b.minX + l.anchorPoint.x * b.width
    let ay = b.minY + l.anchorPoint.y * b.height
    var m = Transform3D.translation(x: -ax, y: -ay)
    if !l.transform.isIdentity { m = m.concatenating(l.transform) }
    m = m.concatenating(.translation(x: l.position.x, y: l.position.y, z: l.zPosition))
      .concatenating(parent)
    if !l.isDoubleSided,
      let q = ProjectedQuad(
        m, b.width > 0 ? b : LayerRect(x: b.minX, y: b.minY, width: 1, height: 1),
        canvasWidth: Int.max / 4, canvasHeight: Int.max / 4),
      !q.frontFacing
    {
      return
    }
    drawShadow(l, m, opacity, into: &canvas)
    let visibleSublayers = l.sublayers.filter { !$0.isHidden }
    let group = !visibleSublayers.isEmpty && (opacity < 1 || l.masksToBounds)
    if group {
      var g = Canvas(width: width, height: height)
      drawOwn(l, m, 1, into: &g)
      drawSublayers(l, visibleSublayers, m, ax, ay, into: &g, depth: depth)
      if l.masksToBounds {
        g.mask(m, LocalShape(rect: b, radius: l.cornerRadius, hole: nil))
      }
      canvas.composite(g, opacity: Float(opacity))
    } else {
      drawOwn(l, m, opacity, into: &canvas, baseDrawn: baseDrawn)
      drawSublayers(l, visibleSublayers, m, ax, ay, into: &canvas, depth: depth)
    }
  }

  private func drawSublayers(
    _ l: Layer, _ subs: [Layer], _ m: Transform3D, _ ax: Double, _ ay: Double,
    into canvas: inout Canvas, depth: Int
  ) {
    guard !subs.isEmpty else { return }
    var childParent = m
    if !l.sublayerTransform.isIdentity {
      childParent = Transform3D.translation(x: -ax, y: -ay).concatenating(l.sublayerTransform)
        .concatenating(.translation(x: ax, y: ay)).concatenating(m)
    }
    let ordered = subs.enumerated().sorted {
      ($0.element.zPosition, $0.offset) < ($1.element.zPosition, $1.offset)
    }
    for (_, s) in ordered { draw(s, parent: childParent, into: &canvas, depth: depth + 1) }
  }

  /// The layer's background, contents, gradient and border; `baseDrawn`: the canvas already
  /// holds the background and contents (`opaqueBackdrop`).
  private func drawOwn(
    _ l: Layer, _ m: Transform3D, _ opacity: Double, into canvas: inout Canvas,
    baseDrawn: Bool = false
  ) {
    let b = l.bounds
    let op = Float(opacity)
    let radius = min(max(l.cornerRadius, 0), min(b.width, b.height) / 2)
    if l.backgroundColor.a > 0 && !baseDrawn {
      canvas.fill(
        m, LocalShape(rect: b, radius: radius, hole: nil), solid(l.backgroundColor),
        opacity: op)
    }
    if let image = l.contents, image.width > 0, image.height > 0, !baseDrawn {
      let cr = contentsRect(l.contentsGravity, bounds: b, image: image)
      var drawRect = cr
      var r = 0.0
      if l.masksToBounds {
        let x0 = max(cr.minX, b.minX)
        let y0 = max(cr.minY, b.minY)
        let x1 = min(cr.maxX, b.maxX)
        let y1 = min(cr.maxY, b.maxY)
        drawRect = LayerRect(x: x0, y: y0, width: max(0, x1 - x0), height: max(0, y1 - y0))
        if drawRect == b { r = radius }
      }
      canvas.fill(
        m, LocalShape(rect: drawRect, radius: r, hole: nil),
        .texture(image: image, rect: cr), opacity: op)
    }
    if let g = l as? GradientLayer, !g.colors.isEmpty {
      let o = LayerPoint(
        x: b.minX + g.startPoint.x * b.width, y: b.minY + g.startPoint.y * b.height)
      let e = LayerPoint(x: b.minX + g.endPoint.x * b.width, y: b.minY + g.endPoint.y * b.height)
      let dx = e.x - o.x
      let dy = e.y - o.y
      let len2 = dx * dx + dy * dy
      let axis = len2 > 0 ? LayerPoint(x: dx / len2, y: dy / len2) : LayerPoint.zero
      var table = [Float](repeating: 0, count: 256 * 4)
      for i in 0..<256 {
        let c = g.color(at: Double(i) / 255)
        let a = Float(c.alpha * 255)
        table[i * 4] = Float(c.red) * a
        table[i * 4 + 1] = Float(c.green) * a
        table[i * 4 + 2] = Float(c.blue) * a
        table[i * 4 + 3] = a
      }
      canvas.fill(
        m, LocalShape(rect: b, radius: radius, hole: nil),
        .gradient(origin: o, axis: axis, table: table), opacity: op)
    }
    if l.borderWidth > 0 && l.borderColor.a > 0 {
      let bw = min(l.borderWidth, min(b.width, b.height) / 2)
      let inner = LayerRect(
        x: b.minX + bw, y: b.minY + bw, width: b.width - 2 * bw, height: b.height - 2 * bw)
      canvas.fill(
        m, LocalShape(rect: b, radius: radius, hole: (inner, max(radius - bw, 0))),
        solid(l.borderColor), opacity: op)
    }
  }

  private func drawShadow(
    _ l: Layer, _ m: Transform3D, _ opacity: Double, into canvas: inout Canvas
  ) {
    let strength = l.shadowOpacity * l.shadowColor.alpha * opacity
    guard strength > 0 else { return }
    let b = l.bounds
    let sigma = max(l.shadowRadius, 0) / 2
    if l.cornerRadius <= 0, b.width > 0, b.height > 0,
      var fast = RectShadow(m, rect: b, sigma: sigma, offset: l.shadowOffset)
    {
      // An opaque background replaces the shadow under the layer: only its ring is drawn.
      fast.opaqueLayer = opacity >= 1 && l.backgroundColor.alpha >= 1
      if fast.draw(into: &canvas, color: l.shadowColor, strength: strength) { return }
    }
    guard let q = ProjectedQuad(m, b, canvasWidth: Int.max / 4, canvasHeight: Int.max / 4)
    else { return }
    let margin = Int((3 * sigma).rounded(.up)) + 2
    let ox = l.shadowOffset.width
    let oy = l.shadowOffset.height
    let rx0 = max(q.x0 + Int(ox.rounded(.down)) - margin, -margin)
    let ry0 = max(q.y0 + Int(oy.rounded(.down)) - margin, -margin)
    let rx1 = min(q.x1 + Int(ox.rounded(.up)) + margin, width + margin)
    let ry1 = min(q.y1 + Int(oy.rounded(.up)) + margin, height + margin)
    guard rx1 > rx0, ry1 > ry0, rx1 - rx0 <= 20_000, ry1 - ry0 <= 20_000 else { return }
    let rw = rx1 - rx0
    let rh = ry1 - ry0
    var tmp = Canvas(width: rw, height: rh)
    let shift = m.concatenating(
      .translation(x: ox - Double(rx0), y: oy - Double(ry0)))
    let radius = min(max(l.cornerRadius, 0), min(b.width, b.height) / 2)
    tmp.fill(
      shift, LocalShape(rect: b, radius: radius, hole: nil),
      .solid(r: 255, g: 255, b: 255, a: 255), opacity: 1)
    var plane = [Float](repeating: 0, count: rw * rh)
    for i in 0..<(rw * rh) { plane[i] = tmp.px[i * 4 + 3] / 255 }
    gaussianApproximation(&plane, width: rw, height: rh, sigma: sigma)
    let c = l.shadowColor
    let k = Float(strength) * 255
    let (cr, cg, cb) = (Float(c.red), Float(c.green), Float(c.blue))
    let cx0 = max(rx0, 0)
    let cy0 = max(ry0, 0)
    let cx1 = min(rx1, width)
    let cy1 = min(ry1, height)
    guard cx0 < cx1, cy0 < cy1 else { return }
    canvas.markDirty(cx0, cy0, cx1, cy1)
    let w = width
    canvas.px.withUnsafeMutableBufferPointer { d in
      for y in cy0..<cy1 {
        for x in cx0..<cx1 {
          let a = plane[(y - ry0) * rw + (x - rx0)] * k
          if a <= 0 { continue }
          let i = (y * w + x) * 4
          let f = 1 - a / 255
          d[i] = cr * a + d[i] * f
          d[i + 1] = cg * a + d[i + 1] * f
          d[i + 2] = cb * a + d[i + 2] * f
          d[i + 3] = a + d[i + 3] * f
        }
      }
    }
  }

  private func solid(_ c: RGBA) -> Paint {
    let a = Float(c.alpha * 255)
    return .solid(r: Float(c.red) * a, g: Float(c.green) * a, b: Float(c.blue) * a, a: a)
  }
}

/// Where an image of natural size (1 px = 1 point) lands inside `bounds`.
func contentsRect(_ gravity: ContentsGravity, bounds b: LayerRect, image: PixelBuffer) -> LayerRect
{
  let iw = Double(image.width)
  let ih = Double(image.height)
  switch gravity {
  case .resize:
    return b
  case .resizeAspect, .resizeAspectFill:
    let sx = b.width / iw
    let sy = b.height / ih
    let s = gravity == .resizeAspect ? min(sx, sy) : max(sx, sy)
    let w = iw * s
    let h = ih * s
    return LayerRect(x: b.midX - w / 2, y: b.midY - h / 2, width: w, height: h)
  default:
    var x = b.midX - iw / 2
    var y = b.midY - ih / 2
    switch gravity {
    case .top, .topLeft, .topRight: y = b.minY
    case .bottom, .bottomLeft, .bottomRight: y = b.maxY - ih
    default: break
    }
    switch gravity {
    case .left, .topLeft, .bottomLeft: x = b.minX
    case .right, .topRight, .bottomRight: x = b.maxX - iw
    default: break
    }
    return LayerRect(x: x, y: y, width: iw, height: ih)
  }
}
