import Foundation
import Testing

@testable import QuireMotion

/// The foot of the curl roll (issue #14): where the sheet's bottom edge cuts the back of the
/// roll away, the inside of the roll shows; it lies under the roll and must be shaded like the
/// page along the fold beside it, not drawn as lit white paper (the patch seen in frames
/// 10–18 of 24 at 600x800).
@Suite struct CurlFootTests {
  static let width = 600
  static let height = 800

  static var paper: PixelBuffer {
    PixelBuffer(
      width: width, height: height, format: .rgba8,
      pixels: [UInt8](repeating: 255, count: width * height * 4))
  }

  @Test func insideOfTheRollIsShadedAtItsFoot() {
    let pages = TurnPages(current: Self.paper, next: Self.paper)
    let timeline = FlipTimeline(frameCount: 24, timing: .easeInEaseOut)
    var checked = 0
    for i in 9...17 {
      let p = timeline.info(i).progress
      let frame = CurlEffect().frame(at: p, pages: pages, options: TurnOptions())
      let g = CurlEffect.Geometry(
        progress: p, width: Self.width, height: Self.height, corner: .bottom, spread: false)
      for y in (Self.height - 60)..<Self.height {
        let qy = Float(y) + 0.5
        for x in 0..<Self.width {
          let qx = Float(x) + 0.5
          let dq = g.nx * qx + g.ny * qy - g.c
          guard dq > 0.5, dq <= 0.2 * g.radius else { continue }
          // The roll's front (inside) hit and back hit for this pixel.
          let theta = asin(Swift.min(1, dq / g.radius))
          let front = (qx + (g.radius * theta - dq) * g.nx, qy + (g.radius * theta - dq) * g.ny)
          let backMove = g.radius * (Float.pi - theta) - dq
          let back = (qx + backMove * g.nx, qy + backMove * g.ny)
          let frontOnSheet = front.1 < Float(Self.height) - 1 && front.0 < Float(Self.width) - 1
          let backOffSheet = back.1 > Float(Self.height) + 1 || back.0 > Float(Self.width) + 1
          guard frontOnSheet, backOffSheet else { continue }
          let v = Int(frame.pixels[(y * Self.width + x) * 4])
          #expect(v < 230, "frame \(i + 1) (\(x), \(y)): inside of the roll at \(v)")
          // Across the fold the shading continues: the flat page just left of it.
          let left = x - 2
          if left >= 0 {
            let u = Int(frame.pixels[(y * Self.width + left) * 4])
            #expect(abs(u - v) <= 40, "frame \(i + 1) (\(x), \(y)): \(u) | \(v) across the fold")
          }
          checked += 1
        }
      }
    }
    // The foot's inside shows in these frames (the test is not vacuous).
    #expect(checked > 50)
  }
}
