import Foundation
import QuireRaster
import Testing

@testable import QuireMotion

// The compositor's fast paths give the bytes of the general ones: the shadow skipped under an
// opaque layer, the Float → RGBA8 conversion, the translated-texture blit.

/// A shadowed, opaque, rotated and scaled layer drawn with and without skipping the shadow
/// under it: the same bytes (the layer replaces every skipped pixel).
@Test(arguments: [(0.0, 1.0), (0.4, 1.0), (1.1, 0.7), (-0.3, 1.6)])
func shadowUnderAnOpaqueLayerIsSkippedExactly(angle: Double, scale: Double) {
  func draw(skipping: Bool) -> PixelBuffer {
    var canvas = Canvas(width: 240, height: 220, fill: RGBA(red: 0.4, green: 0.3, blue: 0.2))
    let rect = LayerRect(x: 0, y: 0, width: 90, height: 130)
    let m = Transform3D.translation(x: -45, y: -65)
      .concatenating(.scale(x: scale, y: scale, z: 1))
      .concatenating(.rotation(angle, x: 0, y: 0, z: 1))
      .concatenating(.translation(x: 117.3, y: 104.6))
    var shadow = RectShadow(m, rect: rect, sigma: 4, offset: LayerSize(width: 2, height: 5))!
    shadow.opaqueLayer = skipping
    #expect(shadow.draw(into: &canvas, color: .black, strength: 0.55))
    canvas.fill(
      m, LocalShape(rect: rect, radius: 0, hole: nil), .solid(r: 255, g: 255, b: 255, a: 255),
      opacity: 1)
    return canvas.pixelBuffer()
  }
  let skipped = draw(skipping: true)
  let full = draw(skipping: false)
  #expect(skipped == full)
}

/// The SIMD conversion rounds as floor(v + ½) clamped to 0…255, on exact halves, on values
/// outside the range and on translucent pixels (un-premultiplied).
@Test func canvasConversionRoundsHalfUp() {
  let values: [Float] = [
    -3, -0.5, 0, 0.25, 0.49999997, 0.5, 1.5, 2.5, 127.5, 128.49, 200.7, 254.5, 254.99, 255,
    255.4, 300,
  ]
  let alphas: [Float] = [-1, -0.0, 0, 0.5, 0.6, 1.5, 100.25, 128, 254.49, 254.5, 255, 255.25]
  var canvas = Canvas(width: values.count, height: alphas.count)
  for (y, a) in alphas.enumerated() {
    for (x, v) in values.enumerated() {
      let i = (y * values.count + x) * 4
      canvas.px[i] = min(v, a)
      canvas.px[i + 1] = v
      canvas.px[i + 2] = a - v
      canvas.px[i + 3] = a
    }
  }
  let out = canvas.pixelBuffer()
  func reference(_ v: Float) -> UInt8 { UInt8(min(max(v, 0), 255).rounded(.down)) }
  for (y, a) in alphas.enumerated() {
    for (x, _) in values.enumerated() {
      let i = (y * values.count + x) * 4
      let expected: [UInt8]
      if a <= 0.5 {
        expected = [0, 0, 0, 0]
      } else if a >= 254.5 {
        expected = (0..<3).map { reference(canvas.px[i + $0] + 0.5) } + [255]
      } else {
        let k = 255 / a
        expected = (0..<3).map { reference(canvas.px[i + $0] * k + 0.5) } + [reference(a + 0.5)]
      }
      #expect(Array(out.pixels[i..<(i + 4)]) == expected, "alpha \(a), pixel \(x)")
    }
  }
  #expect(opaqueAlphaBits == Int32(bitPattern: (254.5 as Float).bitPattern))
}

/// A page moved by a fractional translation (push, slide) is sampled with weights computed
/// once; the general inverse-mapped path, forced by a scale a hair off 1, agrees within one
/// level (its per-pixel weights differ from the exact ones in the last bits).
@Test(arguments: [(37.25, 0.0), (-120.6, 3.0), (0.5, -7.75), (413.999, 12.5)])
func translatedTextureMatchesTheGeneralPath(dx: Double, dy: Double) {
  let page = Synthetic.page(width: 160, height: 120, seed: 2)
  var translucent = Synthetic.page(width: 160, height: 120, seed: 1)
  for i in stride(from: 3, to: translucent.pixels.count, by: 4) {
    translucent.pixels[i] = UInt8((i / 4) % 256)
  }
  for image in [page, translucent] {
    func draw(scale: Double) -> PixelBuffer {
      var canvas = Canvas(width: 200, height: 150, fill: .white)
      let rect = LayerRect(x: 0, y: 0, width: 160, height: 120)
      let m = Transform3D.scale(x: scale, y: 1, z: 1).concatenating(
        .translation(x: 20 + dx / 4, y: 15 + dy))
      canvas.fill(
        m, LocalShape(rect: rect, radius: 0, hole: nil), .texture(image: image, rect: rect),
        opacity: 0.9)
      return canvas.pixelBuffer()
    }
    // The fast path takes the first and refuses the second.
    let rect = LayerRect(x: 0, y: 0, width: 160, height: 120)
    for (scale, taken) in [(1.0, true), (1 + 1e-13, false)] {
      var probe = Canvas(width: 200, height: 150)
      let m = Transform3D.scale(x: scale, y: 1, z: 1).concatenating(.translation(x: 9.5, y: 3))
      let q = ProjectedQuad(m, rect, canvasWidth: 200, canvasHeight: 150)!
      #expect(probe.blitTranslated(q, m, image, rect, 1) == taken)
    }
    let fast = draw(scale: 1)
    let general = draw(scale: 1 + 1e-13)
    var worst = 0
    var differing = 0
    for i in fast.pixels.indices {
      let d = abs(Int(fast.pixels[i]) - Int(general.pixels[i]))
      worst = max(worst, d)
      if d > 0 { differing += 1 }
    }
    #expect(worst <= 1, "largest difference \(worst)")
    #expect(differing * 100 <= fast.pixels.count, "\(differing) bytes differ")
  }
}

/// Mirroring an RGBA image by 32-bit moves gives the pixel-by-pixel mirror; twice is the
/// image itself.
@Test func mirroredRGBAIsThePixelMirror() {
  var image = Synthetic.page(width: 37, height: 9, seed: 3)
  for i in stride(from: 3, to: image.pixels.count, by: 4) { image.pixels[i] = UInt8(i % 251) }
  let mirrored = image.flippedLeftRight()
  for y in 0..<image.height {
    for x in 0..<image.width {
      let a = (y * image.width + x) * 4
      let b = (y * image.width + image.width - 1 - x) * 4
      #expect(Array(mirrored.pixels[b..<(b + 4)]) == Array(image.pixels[a..<(a + 4)]))
    }
  }
  #expect(mirrored.flippedLeftRight() == image)
}
