import Foundation
import QuireCore
import QuireTypeset
import Testing

@testable import QuireRaster

/// An image placement with a clip (object-fit: cover/none) draws only inside it.
@Suite struct ImageClipTests {
  @Test func clippedImageStaysInsideItsBox() {
    // A black 40×20 image drawn 80×40 at x −20 (cover of a 40×40 box at 0,0), clipped to it.
    let png = Data(
      PNGEncoder.encode(PixelBuffer(width: 40, height: 20, format: .gray8, fill: 0)))
    let r = PageRenderer(fonts: FontTable(faces: []), images: { _ in png })
    var place = ImagePlacement(href: "a.png", rect: Rect(x: -20, y: 10, width: 80, height: 40))
    place.clip = Rect(x: 0, y: 10, width: 40, height: 40)
    let image = r.render(makePage([.image(place)]), width: 64, height: 64, format: .gray8)
    func pixel(_ x: Int, _ y: Int) -> UInt8 { image.pixels[y * 64 + x] }
    #expect(pixel(1, 11) == 0 && pixel(38, 48) == 0)  // inside the box: drawn
    #expect(pixel(45, 20) == 255)  // right of the box, where the image spills: clipped
    #expect(pixel(20, 5) == 255 && pixel(20, 55) == 255)  // above and below the box
    // Without the clip the spill is drawn.
    place.clip = nil
    let unclipped = r.render(makePage([.image(place)]), width: 64, height: 64, format: .gray8)
    #expect(unclipped.pixels[20 * 64 + 45] == 0)
  }
}
