import Foundation
import QuireCore
import Testing

@testable import QuireRaster

/// The fixtures of Tests/Fixtures/images (made by make-images.py there): every format and
/// variant decoded and compared with its expectation, and hostile files refused.
enum ImageFixtures {
  static let folder = Checkout.root.appendingPathComponent("Tests/Fixtures/images")

  struct Case: Decodable, Sendable, CustomStringConvertible {
    var file: String
    var expected: String
    var tolerance: Int
    var description: String { file }
  }

  static let cases: [Case] = {
    guard let data = try? Data(contentsOf: folder.appendingPathComponent("cases.json")) else {
      return []
    }
    return (try? JSONDecoder().decode([Case].self, from: data)) ?? []
  }()

  static func data(_ name: String) -> Data {
    (try? Data(contentsOf: folder.appendingPathComponent(name))) ?? Data()
  }

  /// The largest channel difference; fully transparent pixels compare by alpha alone.
  static func difference(_ a: PixelBuffer, _ b: PixelBuffer) -> Int {
    var worst = 0
    for i in stride(from: 0, to: a.pixels.count, by: 4) {
      let alphas = (Int(a.pixels[i + 3]), Int(b.pixels[i + 3]))
      let channels = alphas.0 == 0 && alphas.1 == 0 ? 3...3 : 0...3
      for k in channels {
        worst = max(worst, abs(Int(a.pixels[i + k]) - Int(b.pixels[i + k])))
      }
    }
    return worst
  }
}

@Suite struct ImageFormatTests {
  @Test func everyFormatHasFixtures() {
    let formats = Set(
      ImageFixtures.cases.compactMap { ImageFormat.sniff(ImageFixtures.data($0.file)) })
    #expect(formats == [.png, .jpeg, .gif, .webp, .avif, .jxl, .bmp])
    #expect(ImageFixtures.cases.count >= 40)
  }

  @Test(arguments: ImageFixtures.cases)
  func decodesToTheExpectedPixels(_ c: ImageFixtures.Case) throws {
    let data = ImageFixtures.data(c.file)
    let image = try ImageDecoder.decode(data, href: c.file)
    let expected = try PNGCodec.decode(ImageFixtures.data(c.expected)).converted(to: .rgba8)
    #expect(image.format == .rgba8)
    try #require(image.width == expected.width && image.height == expected.height)
    #expect(ImageFixtures.difference(image, expected) <= c.tolerance)
    // The header-only size agrees with the decoded (upright) size.
    let header = ImageHeader.size(of: data)
    #expect(header?.width == image.width && header?.height == image.height)
  }

  @Test(arguments: ImageFixtures.cases)
  func truncatedFilesGiveATypedError(_ c: ImageFixtures.Case) {
    let data = ImageFixtures.data(c.file)
    // An animated GIF cut after its first frame still shows that frame, rightly.
    let cuts =
      c.file == "gif-animated.gif"
      ? [data.count / 3, 40] : [data.count / 2, data.count * 3 / 4, 40]
    for cut in cuts where cut < data.count {
      #expect(throws: RasterError.self) {
        try ImageDecoder.decode(data.prefix(cut), href: c.file)
      }
    }
  }

  @Test(arguments: ["png", "gif", "bmp", "jpg", "webp", "jxl", "avif"])
  func giantHeadersAreRefusedBeforeAllocating(_ ext: String) {
    let data = ImageFixtures.data("giant.\(ext)")
    #expect(!data.isEmpty)
    do {
      _ = try ImageDecoder.decode(data, href: "giant.\(ext)")
      Issue.record("giant.\(ext) decoded")
    } catch {
      // libwebp and libavif refuse the size themselves (their own limits/parsers); the
      // others reach our check.
      if ["png", "gif", "bmp", "jpg", "jxl"].contains(ext) {
        guard case .imageTooLarge = error else {
          Issue.record("giant.\(ext): \(error)")
          return
        }
      }
    }
  }

  @Test func exifOrientationSwapsTheIntrinsicSize() {
    for n in 1...8 {
      let size = ImageHeader.size(of: ImageFixtures.data("jpeg-exif-\(n).jpg"))
      #expect(size.map { [$0.width, $0.height] } == (n >= 5 ? [24, 32] : [32, 24]))
    }
  }

  @Test func sniffingIgnoresNamesAndFindsSVG() {
    #expect(ImageFormat.sniff(Data("<?xml version=\"1.0\"?>\n<svg xmlns=\"x\"/>".utf8)) == .svg)
    #expect(ImageFormat.sniff(Data("hello".utf8)) == nil)
    #expect(ImageFormat(mediaType: "image/svg+xml") == .svg)
    #expect(ImageFormat(mediaType: "image/tiff") == nil)
    #expect(throws: RasterError.unsupportedFormat(source: "a.txt")) {
      try ImageDecoder.decode(Data("hello".utf8), href: "a.txt")
    }
    // SVG goes to the SVG rasterizer (librsvg), sized by its width and height.
    let svg = Data("<svg xmlns='http://www.w3.org/2000/svg' width='4' height='2'/>".utf8)
    #expect(
      (try? ImageDecoder.decode(svg, href: "a.svg")).map { [$0.width, $0.height] } == [4, 2])
  }
}
