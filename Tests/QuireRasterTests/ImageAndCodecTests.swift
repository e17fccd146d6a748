import CZlib
import Foundation
import QuireCore
import QuireIngest
import QuireTypeset
import Testing

@testable import QuireRaster

/// A PNG made of hand-written chunks, for headers that lie.
func handmadePNG(width: UInt32, height: UInt32, colorType: UInt8 = 6, idat: [UInt8] = []) -> Data {
  func be(_ v: UInt32) -> [UInt8] {
    [UInt8(v >> 24), UInt8(v >> 16 & 255), UInt8(v >> 8 & 255), UInt8(v & 255)]
  }
  func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
    let t = Array(type.utf8)
    let c = (t + body).withUnsafeBufferPointer { crc32(0, $0.baseAddress, uInt($0.count)) }
    return be(UInt32(body.count)) + t + body + be(UInt32(c))
  }
  var out: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
  out += chunk("IHDR", be(width) + be(height) + [8, colorType, 0, 0, 0])
  out += chunk("IDAT", idat)
  out += chunk("IEND", [])
  return Data(out)
}

@Suite struct ImageAndCodecTests {
  @Test(arguments: [PixelBuffer.Format.gray8, .rgba8])
  func encodeDecodeRoundTripsRandomBuffers(format: PixelBuffer.Format) throws {
    var rng = SplitMix64(seed: format == .gray8 ? 1 : 2)
    for trial in 0..<40 {
      let w = Int(rng.next() % 70) + 1
      let h = Int(rng.next() % 50) + 1
      // Mix noise with runs, so both literal and match paths of the compressor are used.
      var pixels = [UInt8](repeating: 0, count: w * h * format.channels)
      for i in pixels.indices {
        pixels[i] =
          trial % 2 == 0 ? UInt8(truncatingIfNeeded: rng.next()) : UInt8((i / 7) % 3 * 120)
      }
      let b = PixelBuffer(width: w, height: h, format: format, pixels: pixels)
      for filter in PNGCodec.Filter.allCases {
        let png = PNGCodec.encode(b, filter: filter, level: Int32(trial % 12 + 1))
        let back = try PNGCodec.decode(Data(png))
        #expect(back == b, "\(w)x\(h) \(format) \(filter)")
      }
      #expect(try PNGCodec.decode(Data(PNGCodec.encode(b))) == b)
    }
  }

  @Test(arguments: [PixelBuffer.Format.gray8, .rgba8])
  func coreEncoderWindowsDecodeWithLibpng(format: PixelBuffer.Format) throws {
    var rng = SplitMix64(seed: 9)
    let pixels = (0..<(40 * 30 * format.channels)).map { _ in UInt8(truncatingIfNeeded: rng.next())
    }
    let page = PixelBuffer(width: 40, height: 30, format: format, pixels: pixels)
    for filter in PNGEncoder.Filter.allCases {
      // A borrowed window, encoded without a copy, decodes (libpng) to the cropped pixels.
      let png = page.withView(x: 7, y: 3, width: 25, height: 20) {
        PNGEncoder.encode($0, filter: filter, level: 5)
      }
      #expect(
        try PNGCodec.decode(Data(png)) == page.cropped(x: 7, y: 3, width: 25, height: 20),
        "\(format) \(filter)")
    }
  }

  @Test func encodingIsDeterministicAndMinimal() {
    let b = PixelBuffer(width: 3, height: 2, format: .gray8, pixels: [0, 1, 2, 3, 4, 5])
    let a = PNGCodec.encode(b)
    #expect(a == PNGCodec.encode(b))
    // Signature, then IHDR, IDAT and IEND only: nothing time-dependent.
    #expect(Array(a.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
    let text = String(decoding: a, as: UTF8.self)
    #expect(text.contains("IHDR") && text.contains("IDAT") && text.contains("IEND"))
    #expect(!text.contains("tIME") && !text.contains("tEXt"))
  }

  @Test func conversionsBetweenFormats() {
    let g = PixelBuffer(width: 2, height: 1, format: .gray8, pixels: [0, 200])
    let rgba = g.converted(to: .rgba8)
    #expect(rgba.pixels == [0, 0, 0, 255, 200, 200, 200, 255])
    #expect(rgba.converted(to: .gray8) == g)
    let translucent = PixelBuffer(
      width: 2, height: 1, format: .rgba8, pixels: [0, 0, 0, 0, 255, 0, 0, 255])
    // Fully transparent is white paper; pure red is its luminance (0.2126 → 54).
    #expect(translucent.converted(to: .gray8).pixels == [255, 54])
  }

  @Test func decodesFixtures() throws {
    let png = try #require(decodeImage(Checkout.fixture("fixture-checker-rgba.png"), href: "a.png"))
    #expect(png.width == 24 && png.height == 16 && png.format == .rgba8)
    #expect(png.pixels[3] == 255)  // opaque left edge
    #expect(png.pixels[(23) * 4 + 3] == 0)  // transparent right edge
    let jpg = try #require(decodeImage(Checkout.fixture("fixture-gradient.jpg"), href: "b.jpg"))
    #expect(jpg.width == 32 && jpg.height == 24 && jpg.format == .rgba8)
    #expect(abs(Int(jpg.pixels[0]) - 200) < 12)  // red channel of the left half
  }

  @Test func decodesPaletteAnd16BitPNGs() throws {
    let palette = try PNGCodec.decode(Checkout.fixture("fixture-palette.png"))
    #expect(palette.format == .rgba8 && palette.width == 8 && palette.height == 4)
    #expect(Array(palette.pixels.prefix(8)) == [255, 0, 0, 255, 0, 255, 0, 255])
    let gray = try PNGCodec.decode(Checkout.fixture("fixture-gray16.png"))
    #expect(gray.format == .gray8 && gray.width == 5 && gray.height == 3)
    #expect(Array(gray.pixels.prefix(5)) == [0, 64, 127, 191, 255])  // x·16383 of 65535
  }

  /// The fixture JPEG with its frame header (SOF0) claiming 65000×65000.
  static func hugeJPEG() -> Data {
    var bytes = [UInt8](Checkout.fixture("fixture-gradient.jpg"))
    for i in 0..<(bytes.count - 9) where bytes[i] == 0xFF && bytes[i + 1] == 0xC0 {
      // FF C0, length (2), precision (1), height (2), width (2)
      bytes[i + 5] = 0xFD
      bytes[i + 6] = 0xE8
      bytes[i + 7] = 0xFD
      bytes[i + 8] = 0xE8
      break
    }
    return Data(bytes)
  }

  @Test func hostileImagesBecomePlaceholdersWithWarnings() throws {
    let png = Checkout.fixture("fixture-checker-rgba.png")
    let jpg = Checkout.fixture("fixture-gradient.jpg")
    let hostile: [String: Data] = [
      "cut.png": png.prefix(png.count / 2),
      "cut.jpg": jpg.prefix(jpg.count / 2),
      "huge.png": handmadePNG(width: 100_000, height: 100_000),
      "huge.jpg": Self.hugeJPEG(),
      "wide.png": handmadePNG(width: 20_000, height: 1),
      "junk-idat.png": handmadePNG(width: 4, height: 4, idat: [1, 2, 3, 4, 5]),
      "anim.gif": Data("GIF89a\u{1}\0\u{1}\0".utf8),
      // SVG is drawn by librsvg now: only a broken document is a placeholder.
      "broken.svg": Data("<svg xmlns='http://www.w3.org/2000/svg'><rect width='1'".utf8),
    ]
    let hrefs = hostile.keys.sorted() + ["missing.png"]
    let r = PageRenderer(fonts: FontTable(faces: []), images: { hostile[$0] })
    var items: [DisplayItem] = []
    for (i, href) in hrefs.enumerated() {
      items.append(
        .image(
          ImagePlacement(href: href, rect: Rect(x: Double(i * 20 + 2), y: 2, width: 16, height: 12))
        ))
    }
    let out = r.render(makePage(items), width: hrefs.count * 20, height: 16, format: .gray8)
    let warnings = r.warnings.map(\.description)
    for (i, href) in hrefs.enumerated() {
      #expect(warnings.contains { $0.contains(href) }, "no warning for \(href)")
      // Border pixel grey, interior light grey.
      #expect(out.pixels[2 * out.width + i * 20 + 2] == 0x99, "\(href) border")
      #expect(out.pixels[8 * out.width + i * 20 + 10] == 0xE8, "\(href) interior")
    }
    #expect(warnings.contains { $0.contains("huge.png") && $0.contains("100000x100000") })
    #expect(warnings.contains { $0.contains("cut.jpg") && $0.contains("tjDecompress") })
    #expect(warnings.contains { $0.contains("huge.jpg") && $0.contains("65000x65000") })
    #expect(warnings.contains { $0.contains("cut.png") && $0.contains("png_image") })
    // Rendering again reports nothing new.
    _ = r.render(makePage(items), width: hrefs.count * 20, height: 16, format: .gray8)
    #expect(r.warnings.map(\.description) == warnings)
    for (href, data) in hostile { #expect(decodeImage(data, href: href) == nil, "\(href)") }
    #expect(throws: RasterError.imageTooLarge(source: "PNG data", width: 100_000, height: 100_000))
    {
      try PNGCodec.decode(hostile["huge.png"]!)
    }
  }
}
