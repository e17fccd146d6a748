import Foundation
import QuireRaster
import Testing

@testable import QuireMotion

/// A shadow-only layer (no background, no contents): the canvas alpha is the shadow's.
private func shadowAlpha(angle: Double, cornerRadius: Double = 0) -> PixelBuffer {
  let l = Layer()
  l.bounds = LayerRect(x: 0, y: 0, width: 80, height: 60)
  l.position = LayerPoint(x: 100, y: 100)
  l.transform = .rotation(angle, x: 0, y: 0, z: 1)
  l.cornerRadius = cornerRadius
  l.shadowOpacity = 1
  l.shadowRadius = 10
  // Centred on the layer (the default offset is Core Animation's (0, −3)).
  l.shadowOffset = LayerSize(width: 0, height: 0)
  return Compositor(width: 200, height: 200).render(presentation: l)
}

/// The separable erf shadow is a Gaussian of σ = radius / 2: ½ at an edge's midpoint, full
/// inside, Φ(−d/σ) at d px outside, whatever the rotation.
@Test(arguments: [0.0, 0.5, 1.2])
func rectShadowIsAGaussianOfTheRectangle(angle: Double) {
  let f = shadowAlpha(angle: angle)
  let (c, s) = (cos(angle), sin(angle))
  // Local (u, v) from the centre → canvas pixel.
  func at(_ u: Double, _ v: Double) -> Int {
    let x = 100 + u * c - v * s
    let y = 100 + u * s + v * c
    return Int(pixel(f, Int(x), Int(y))[3])
  }
  #expect(at(0, 0) >= 254)
  // The right edge's midpoint: half the shadow (± the slope over the ≤ 0.7 px between the
  // sampled pixel's centre and the point).
  #expect(abs(at(40, 0) - 128) <= 24, "edge \(at(40, 0))")
  // σ = 5: one σ outside ≈ 15.9 %, two σ ≈ 2.3 %.
  #expect(abs(at(45, 0) - 40) <= 16, "1σ \(at(45, 0))")
  #expect(at(50, 0) <= 16, "2σ \(at(50, 0))")
  #expect(at(70, 0) == 0)
}

/// The fast path agrees with the general mask-and-box-blur path (taken for any rounded
/// corner) away from the corners, to a few levels.
@Test func rectShadowAgreesWithTheBlurredMask() {
  let fast = shadowAlpha(angle: 0.3)
  let general = shadowAlpha(angle: 0.3, cornerRadius: 0.01)
  #expect(fast != general)
  var worst = 0
  for i in stride(from: 3, to: fast.pixels.count, by: 4) {
    worst = max(worst, abs(Int(fast.pixels[i]) - Int(general.pixels[i])))
  }
  #expect(worst <= 12, "largest alpha difference \(worst)")
}
