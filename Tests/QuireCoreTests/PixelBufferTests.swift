import QuireCore
import Testing

/// A buffer of noise and runs (so both literal and match paths of the compressor are used).
func samplePixels(width: Int, height: Int, format: PixelBuffer.Format, seed: UInt64)
  -> PixelBuffer
{
  var rng = SplitMix64(seed: seed)
  var pixels = [UInt8](repeating: 0, count: width * height * format.channels)
  for i in pixels.indices {
    pixels[i] = seed % 2 == 0 ? UInt8(truncatingIfNeeded: rng.next()) : UInt8((i / 7) % 3 * 120)
  }
  return PixelBuffer(width: width, height: height, format: format, pixels: pixels)
}

@Suite struct PixelBufferTests {
  @Test func mutableViewWritesThroughToTheOwnerInsideItsRectangleOnly() {
    var page = PixelBuffer(width: 10, height: 6, format: .rgba8, fill: 255)
    let red = RGBA(r: 200, g: 10, b: 20, a: 255)
    page.withMutableView(x: 2, y: 1, width: 3, height: 4) { $0.fill(red) }
    for y in 0..<6 {
      for x in 0..<10 {
        let inside = (2..<5).contains(x) && (1..<5).contains(y)
        let i = (y * 10 + x) * 4
        let expected: [UInt8] = inside ? [200, 10, 20, 255] : [255, 255, 255, 255]
        #expect(Array(page.pixels[i..<(i + 4)]) == expected, "(\(x), \(y))")
      }
    }
    // A window inside a window, and a single row written through the row pointer.
    page.withMutableView(x: 1, y: 1, width: 8, height: 5) { view in
      let inner = view.view(x: 1, y: 3, width: 2, height: 1)
      inner.row(0)[0] = 7
      #expect(inner.readOnly.color(x: 0, y: 0) == RGBA(r: 7, g: 10, b: 20, a: 255))
    }
    #expect(page.pixels[(4 * 10 + 2) * 4] == 7)
  }

  @Test func viewsBorrowWithoutCopyingAndCopyOnlyWhenAsked() {
    let page = samplePixels(width: 9, height: 7, format: .gray8, seed: 2)
    page.withView(x: 3, y: 2, width: 4, height: 3) { view in
      #expect(view.rowStride == 9)
      #expect(view.bytesPerRow == 4)
      #expect(Array(view.row(1)) == Array(page.pixels[(3 * 9 + 3)..<(3 * 9 + 7)]))
      let copy = view.copy()
      #expect(copy.width == 4 && copy.height == 3 && copy.pixels.count == 12)
      #expect(copy == page.cropped(x: 3, y: 2, width: 4, height: 3))
    }
    #expect(page.cropped(x: 0, y: 0, width: 9, height: 7) == page)
  }

  @Test func copyFromAViewOfAnotherBufferAndGrayFill() {
    let source = samplePixels(width: 5, height: 5, format: .rgba8, seed: 4)
    var target = PixelBuffer(width: 8, height: 8, format: .rgba8, fill: 0)
    source.withView(x: 1, y: 1, width: 3, height: 2) { from in
      target.withMutableView(x: 4, y: 5, width: 3, height: 2) { $0.copy(from: from) }
    }
    #expect(
      target.cropped(x: 4, y: 5, width: 3, height: 2)
        == source.cropped(x: 1, y: 1, width: 3, height: 2))
    var gray = PixelBuffer(width: 4, height: 4, format: .gray8, fill: 0)
    gray.withMutableView(x: 1, y: 1, width: 2, height: 2) { $0.fill(.white) }
    #expect(gray.pixels == [0, 0, 0, 0, 0, 255, 255, 0, 0, 255, 255, 0, 0, 0, 0, 0])
  }

  @Test func conversionsMatchTheWhitePaperRule() {
    let rgba = PixelBuffer(
      width: 2, height: 1, format: .rgba8, pixels: [0, 0, 0, 0, 255, 0, 0, 255])
    // Transparent shows the paper; opaque red has Rec. 709 luminance 54/256.
    #expect(rgba.converted(to: .gray8).pixels == [255, 54])
    let gray = PixelBuffer(width: 1, height: 1, format: .gray8, pixels: [9])
    #expect(gray.converted(to: .rgba8).pixels == [9, 9, 9, 255])
  }
}
