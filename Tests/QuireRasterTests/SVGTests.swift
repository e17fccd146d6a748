import Foundation
import QuireCore
import QuireTestSupport
import QuireTypeset
import Testing

@testable import QuireRaster

/// SVG through librsvg (issue #11): exact pixels for flat shapes, librsvg's own command-line
/// renderer as the reference for the rest, intrinsic sizes, and hostile documents.
@Suite struct SVGTests {
  static func svg(_ body: String, _ attributes: String = "width=\"4\" height=\"2\"") -> Data {
    Data("<svg xmlns=\"http://www.w3.org/2000/svg\" \(attributes)>\(body)</svg>".utf8)
  }

  static func pixel(_ b: PixelBuffer, _ x: Int, _ y: Int) -> [UInt8] {
    let i = 4 * (y * b.width + x)
    return Array(b.pixels[i..<i + 4])
  }

  @Test func flatShapesDecodeToExactPixels() throws {
    let data = Self.svg(
      "<rect width=\"2\" height=\"2\" fill=\"#ff0000\"/>"
        + "<rect x=\"2\" width=\"2\" height=\"2\" fill=\"#0000ff\" fill-opacity=\"0.5\"/>")
    #expect(SVGRasterizer.isSVG(data))
    let b = try ImageDecoder.decode(data, href: "a.svg")
    #expect(b.width == 4 && b.height == 2 && b.format == .rgba8)
    #expect(Self.pixel(b, 0, 0) == [255, 0, 0, 255])
    #expect(Self.pixel(b, 1, 1) == [255, 0, 0, 255])
    let blue = Self.pixel(b, 3, 0)
    #expect(Array(blue[0..<3]) == [0, 0, 255] && (127...128).contains(blue[3]))
  }

  @Test func requestedSizeScalesTheDrawingNotABitmap() throws {
    // A 4×2 document drawn at 40×20: each half is a solid 20×20 block, edges sharp.
    let data = Self.svg("<rect width=\"2\" height=\"2\" fill=\"#00ff00\"/>")
    let b = try ImageDecoder.decode(data, href: "a.svg", atLeast: (40, 20))
    #expect(b.width == 40 && b.height == 20)
    #expect(Self.pixel(b, 19, 10) == [0, 255, 0, 255])
    #expect(Self.pixel(b, 20, 10)[3] == 0)
  }

  @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/rsvg-convert")))
  func matchesRsvgConvert() throws {
    let data = Self.svg(
      """
      <defs><linearGradient id="g" x1="0" x2="1"><stop offset="0" stop-color="#c00"/>\
      <stop offset="1" stop-color="#fc0" stop-opacity="0.4"/></linearGradient></defs>\
      <rect x="2" y="3" width="60" height="40" rx="6" fill="url(#g)"/>\
      <circle cx="40" cy="24" r="17" fill="none" stroke="#036" stroke-width="3"/>
      """, "width=\"64\" height=\"48\" viewBox=\"0 0 64 48\"")
    let file = FileManager.default.temporaryDirectory.appendingPathComponent(
      "quire-svg-\(getpid()).svg")
    try data.write(to: file)
    defer { try? FileManager.default.removeItem(at: file) }
    let reference = try Subprocess.run("/usr/bin/rsvg-convert", ["-f", "png", file.path])
    try #require(reference.status == 0)
    let expected = try PNGCodec.decode(reference.out, source: "rsvg-convert").converted(to: .rgba8)
    let ours = try ImageDecoder.decode(data, href: "g.svg")
    #expect(ours.width == expected.width && ours.height == expected.height)
    var worst = 0
    for (a, b) in zip(ours.pixels, expected.pixels) { worst = max(worst, abs(Int(a) - Int(b))) }
    // Both are librsvg; the difference is the straight-alpha conversion's rounding.
    #expect(worst <= 2)
  }

  @Test func intrinsicSizesFromTheRootElement() {
    func size(_ attributes: String) -> [Double]? {
      SVGSize.of(Self.svg("", attributes)).map { [$0.width, $0.height] }
    }
    #expect(size("width=\"120\" height=\"60\"") == [120, 60])
    #expect(size("width=\"72pt\" height=\"1in\"") == [96, 96])
    #expect(size("viewBox=\"0 0 300 200\"") == [300, 200])
    #expect(size("width=\"150\" viewBox=\"0,0,300,200\"") == [150, 100])
    #expect(size("width=\"100%\" height=\"100%\" viewBox=\"0 0 50 25\"") == [50, 25])
    #expect(size("width=\"100%\"") == nil)
    // The layout's size and librsvg's agree.
    let b = try? ImageDecoder.decode(Self.svg("", "viewBox=\"0 0 30 20\""), href: "v.svg")
    #expect(b?.width == 30 && b?.height == 20)
    #expect(ImageSize.of(Self.svg("", "width=\"7\" height=\"9\""))! == (7, 9))
  }

  @Test func hugeDimensionsAreRefusedBeforeAllocating() throws {
    let data = Self.svg("<rect width=\"10\" height=\"10\"/>", "width=\"1000000\" height=\"900000\"")
    #expect(throws: RasterError.self) { try ImageDecoder.decode(data, href: "huge.svg") }
    // Placed small, the same document draws.
    let b = try ImageDecoder.decode(data, href: "huge.svg", atLeast: (10, 9))
    #expect(b.width == 10 && b.height == 9)
  }

  @Test func entityExpansionIsBounded() {
    var doctype = "<!DOCTYPE svg [<!ENTITY a0 \"lol\">"
    for i in 1...10 {
      doctype += "<!ENTITY a\(i) \"" + String(repeating: "&a\(i - 1);", count: 10) + "\">"
    }
    doctype += "]>"
    let data = Data(
      (doctype
        + "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"8\" height=\"8\"><text>&a10;</text></svg>")
        .utf8)
    let start = Date()
    let result = Result { () throws(RasterError) in try ImageDecoder.decode(data, href: "lol.svg") }
    #expect(Date().timeIntervalSince(start) < 10)
    if case .success(let b) = result { #expect(b.width == 8 && b.height == 8) }
  }

  @Test func deepNestingDoesNotCrash() {
    let depth = 50_000
    let body =
      String(repeating: "<g>", count: depth) + "<rect width=\"4\" height=\"2\"/>"
      + String(repeating: "</g>", count: depth)
    let result = Result { () throws(RasterError) in
      try ImageDecoder.decode(Self.svg(body), href: "deep.svg")
    }
    if case .success(let b) = result { #expect(b.width == 4 && b.height == 2) }
  }

  @Test func referencesResolveInsideTheBookOnly() throws {
    // A red PNG outside the book, named three ways; a blue one inside it.
    let red = PNGEncoder.encode(
      PixelBuffer(
        width: 2, height: 2, format: .rgba8,
        pixels: [UInt8](repeating: 255, count: 16)
          .enumerated().map { $0.offset % 4 == 1 || $0.offset % 4 == 2 ? 0 : 255 }))
    let outside = FileManager.default.temporaryDirectory.appendingPathComponent(
      "quire-red-\(getpid()).png")
    try Data(red).write(to: outside)
    defer { try? FileManager.default.removeItem(at: outside) }
    let blue = PNGEncoder.encode(
      PixelBuffer(
        width: 2, height: 2, format: .rgba8,
        pixels: [0, 0, 255, 255]
          + [UInt8](
            [0, 0, 255, 255, 0, 0, 255, 255, 0, 0, 255, 255])))
    let data = Self.svg(
      """
      <image x="0" width="10" height="10" href="file://\(outside.path)"/>\
      <image x="10" width="10" height="10" href="../../../../../..\(outside.path)"/>\
      <image x="20" width="10" height="10" xlink:href="pics/blue.png"/>\
      <image x="30" width="10" height="10" href="http://example.com/x.png"/>
      """,
      "xmlns:xlink=\"http://www.w3.org/1999/xlink\" width=\"40\" height=\"10\"")
    let asked = Mutex<[String]>([])
    let b = try ImageDecoder.decode(data, href: "OPS/art/page.svg") { href in
      asked.withLock { $0.append(href) }
      return href == "OPS/art/pics/blue.png" ? Data(blue) : nil
    }
    #expect(Self.pixel(b, 25, 5) == [0, 0, 255, 255])
    for x in [5, 15, 35] { #expect(Self.pixel(b, x, 5)[3] == 0) }
    // Only paths inside the archive were looked up; a URL never was.
    #expect(asked.withLock { $0 }.allSatisfy { !$0.contains("//") })
  }
}
