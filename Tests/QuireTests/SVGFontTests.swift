// SVG `<text>` set in the book's embedded fonts (issue #11). The book's font is obfuscated
// inside the EPUB; Quire hands the de-obfuscated bytes to fontconfig as a memory file. The
// reference is librsvg's own command-line renderer with the same font INSTALLED: written
// to a folder that a private fontconfig configuration lists (FONTCONFIG_FILE), the SVG
// naming the font by its own family name. Quire's drawing must match it when the SVG
// names the font by its @font-face name as well as by its own, and differ from the
// system's fallback.

import Foundation
import QuireCore
import QuireIngest
import QuireTestSupport
import Testing

@testable import QuireRaster

@Suite struct SVGFontTests {
  static func text(_ family: String) -> Data {
    Data(
      """
      <svg xmlns="http://www.w3.org/2000/svg" width="240" height="64">\
      <text x="6" y="46" font-family="\(family)" font-size="40">Waste Jug</text></svg>
      """.utf8)
  }

  static func worstDifference(_ a: PixelBuffer, _ b: PixelBuffer) -> Int {
    guard a.width == b.width, a.height == b.height else { return 255 }
    var worst = 0
    for (x, y) in zip(a.pixels, b.pixels) { worst = max(worst, abs(Int(x) - Int(y))) }
    return worst
  }

  /// The book's regular face, de-obfuscated, with the book's font list.
  static func bookFont() throws -> (regular: EmbeddedFont, all: [EmbeddedFont]) {
    let document = try Book.open(URL(fileURLWithPath: corpusBook("wasteland-otf-obf.epub")))
    let regular = try #require(
      document.fonts.first { $0.family == "OldStandard" && $0.weight == 400 && !$0.italic })
    #expect(regular.wasObfuscated)
    return (regular, document.fonts)
  }

  /// rsvg-convert's drawing of `svg` with `font` installed in a private configuration, and
  /// the font's own family name.
  static func installedReference(_ font: Data, svgFor: (String) -> Data) throws
    -> PixelBuffer
  {
    let folder = URL(fileURLWithPath: temporaryFolder("svg-font-reference"))
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let fontFile = folder.appendingPathComponent("book-font.otf")
    try font.write(to: fontFile)
    let config = folder.appendingPathComponent("fonts.conf")
    try Data(
      """
      <?xml version="1.0"?><!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">
      <fontconfig><include ignore_missing="yes">/etc/fonts/fonts.conf</include>
      <dir>\(folder.path)</dir><cachedir>\(folder.path)/cache</cachedir></fontconfig>
      """.utf8
    ).write(to: config)
    let scan = try Subprocess.run("/usr/bin/fc-scan", ["--format", "%{family[0]}", fontFile.path])
    let family = String(decoding: scan.out, as: UTF8.self)
    try #require(scan.status == 0 && !family.isEmpty)
    let svg = folder.appendingPathComponent("text.svg")
    try svgFor(family).write(to: svg)
    let run = try Subprocess.run(
      "/usr/bin/env",
      ["FONTCONFIG_FILE=\(config.path)", "/usr/bin/rsvg-convert", "-f", "png", svg.path])
    try #require(run.status == 0)
    return try PNGCodec.decode(run.out, source: "rsvg-convert").converted(to: .rgba8)
  }

  @Test(
    .enabled(
      if: Corpus.has("wasteland-otf-obf.epub")
        && FileManager.default.isExecutableFile(atPath: "/usr/bin/rsvg-convert"),
      Comment(rawValue: Corpus.missing)))
  func svgTextUsesTheBooksObfuscatedFont() throws {
    let (regular, all) = try Self.bookFont()
    let fonts = try #require(SVGFonts(fonts: all.map { (family: $0.family, data: $0.data) }))
    #expect(fonts.count == 3)
    let reference = try Self.installedReference(regular.data, svgFor: Self.text)
    // By the book's @font-face name and by the font's own name: the installed font's drawing.
    let byCSSName = try SVGRasterizer.rasterize(
      Self.text("OldStandard"), href: "t.svg", size: nil, resources: nil, fonts: fonts)
    #expect(Self.worstDifference(byCSSName, reference) <= 2)
    let fallback = try SVGRasterizer.rasterize(
      Self.text("OldStandard"), href: "t.svg", size: nil, resources: nil)
    #expect(Self.worstDifference(fallback, reference) > 100)
  }

  @Test(.enabled(if: Corpus.has("wasteland-otf-obf.epub"), Comment(rawValue: Corpus.missing)))
  func booksDoNotSeeEachOthersFonts() throws {
    // One book's font set leaves another renderer (and the process) with the system's fonts.
    let (_, all) = try Self.bookFont()
    let plain = try SVGRasterizer.rasterize(
      Self.text("OldStandard"), href: "t.svg", size: nil, resources: nil)
    let fonts = try #require(SVGFonts(fonts: all.map { (family: $0.family, data: $0.data) }))
    let withFonts = try SVGRasterizer.rasterize(
      Self.text("OldStandard"), href: "t.svg", size: nil, resources: nil, fonts: fonts)
    let after = try SVGRasterizer.rasterize(
      Self.text("OldStandard"), href: "t.svg", size: nil, resources: nil)
    #expect(Self.worstDifference(plain, withFonts) > 100)
    #expect(Self.worstDifference(plain, after) == 0)
  }
}
