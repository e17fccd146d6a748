import Foundation
import QuireCore
import QuireIngest
import QuireTypeset
import Testing

@testable import QuireRaster

@Suite struct PageRendererTests {
  static let serif = [
    "NotoSerif-Regular.ttf", "NotoSerif-Italic.ttf", "NotoSerif-Bold.ttf",
    "NotoSerifCJK-Regular.otf",
  ]

  func latinPage(_ s: TestShaper) -> Page {
    let red = RGBA(r: 200, g: 20, b: 20)
    return makePage([
      .glyphs(s.run("Call me Ishmael. Some years ago—never mind", font: 0, x: 10.25, baseline: 24)),
      .glyphs(
        s.run("how long precisely—having little or no money", font: 1, x: 10.5, baseline: 46)),
      .glyphs(
        s.run("in my purse, and nothing particular to interest", font: 2, x: 10.75, baseline: 68)),
      .glyphs(s.run("synthetic bold and oblique", font: 0, x: 10, baseline: 90, bold: true)),
      .glyphs(
        s.run(
          "and both, in red", font: 0, x: 220, baseline: 90, color: red, bold: true, italic: true)),
      .glyphs(
        s.run("spaced out quarter pixels", font: 0, x: 10.1, baseline: 112, letterSpacing: 0.37)),
      .glyphs(
        s.run(
          "Fifty percent grey at 11 px; 24 px: Whale", font: 0, size: 11, x: 10, baseline: 130,
          color: RGBA(r: 0, g: 0, b: 0, a: 128))),
      .glyphs(s.run("Whale", font: 2, size: 24, x: 300, baseline: 134)),
    ])
  }

  @Test func latinTextGolden() {
    let s = TestShaper(Self.serif)
    let r = PageRenderer(fonts: s.table, images: { _ in nil })
    let page = latinPage(s)
    expectGolden(r.render(page, width: 400, height: 140, format: .gray8), "latin-gray8.png")
    expectGolden(r.render(page, width: 400, height: 140, format: .rgba8), "latin-rgba8.png")
    #expect(r.warnings.isEmpty)
  }

  @Test func cjkLineGolden() throws {
    let s = TestShaper(Self.serif)
    let text = "混沌未分天地亂，茫茫渺渺無人見。"
    for c in text.unicodeScalars { #expect(s.glyphID(3, c) != 0, "no glyph for \(c)") }
    let page = makePage([
      .glyphs(s.run(text, font: 3, x: 8, baseline: 26)),
      .glyphs(
        s.run("西遊記", font: 3, size: 24, x: 8, baseline: 60, color: RGBA(r: 30, g: 60, b: 160))),
    ])
    let r = PageRenderer(fonts: s.table, images: { _ in nil })
    expectGolden(r.render(page, width: 280, height: 72, format: .rgba8), "cjk-rgba8.png")
  }

  @Test func fillsGolden() {
    let page = makePage([
      .fill(Rect(x: 10, y: 10, width: 100, height: 1), .black),  // crisp rule
      .fill(Rect(x: 10.5, y: 20.5, width: 100, height: 1), .black),  // straddles pixels
      .fill(Rect(x: 10.25, y: 30.3, width: 99.5, height: 0.6), .black),  // thin underline
      .fill(Rect(x: 20, y: 40, width: 60, height: 30), RGBA(r: 0, g: 128, b: 255)),
      .fill(Rect(x: 50.5, y: 55.5, width: 60, height: 30), RGBA(r: 255, g: 0, b: 0, a: 128)),
      .fill(Rect(x: -20, y: 90, width: 500, height: 4), RGBA(r: 10, g: 10, b: 10)),  // clipped
      .fill(Rect(x: 0, y: 0, width: .infinity, height: 4), .black),  // ignored
    ])
    let r = PageRenderer(fonts: FontTable(faces: []), images: { _ in nil })
    let rgba = r.render(page, width: 128, height: 100, format: .rgba8)
    expectGolden(rgba, "fills-rgba8.png")
    let gray = r.render(page, width: 128, height: 100, format: .gray8)
    expectGolden(gray, "fills-gray8.png")
    // A whole-pixel rule is fully black; the half-offset one is two half-grey rows.
    #expect(gray.pixels[10 * 128 + 50] == 0)
    #expect(gray.pixels[9 * 128 + 50] == 255)
    #expect((126...129).contains(gray.pixels[20 * 128 + 50]))
    #expect((126...129).contains(gray.pixels[21 * 128 + 50]))
  }

  @Test func imagesGolden() {
    let png = Checkout.fixture("fixture-checker-rgba.png")
    let jpg = Checkout.fixture("fixture-gradient.jpg")
    let r = PageRenderer(
      fonts: FontTable(faces: []),
      images: { href in href == "a.png" ? png : href == "b.jpg" ? jpg : nil })
    let page = makePage([
      .fill(Rect(x: 0, y: 50, width: 200, height: 10), RGBA(r: 0, g: 0, b: 0)),
      // Scaled up ×3, then down ×2.
      .image(ImagePlacement(href: "a.png", rect: Rect(x: 4, y: 4, width: 72, height: 48))),
      .image(ImagePlacement(href: "a.png", rect: Rect(x: 80, y: 4, width: 12, height: 8))),
      .image(ImagePlacement(href: "b.jpg", rect: Rect(x: 100, y: 4, width: 64, height: 48))),
      .image(ImagePlacement(href: "b.jpg", rect: Rect(x: 170, y: 4.4, width: 21, height: 15.6))),
    ])
    expectGolden(r.render(page, width: 200, height: 64, format: .rgba8), "images-rgba8.png")
    expectGolden(r.render(page, width: 200, height: 64, format: .gray8), "images-gray8.png")
    #expect(r.warnings.isEmpty)
  }

  @Test func renderingIsDeterministic() {
    let s = TestShaper(Self.serif)
    let page = latinPage(s)
    let a = PageRenderer(fonts: s.table, images: { _ in nil })
    let b = PageRenderer(fonts: s.table, images: { _ in nil })
    let first = PNGCodec.encode(a.render(page, width: 400, height: 140, format: .gray8))
    let second = PNGCodec.encode(a.render(page, width: 400, height: 140, format: .gray8))
    let fresh = PNGCodec.encode(b.render(page, width: 400, height: 140, format: .gray8))
    #expect(first == second)
    #expect(first == fresh)
  }

  @Test func parallelRendersMatchSerial() async {
    let s = TestShaper(Self.serif)
    let words = String(
      repeating: "It is a truth universally acknowledged, that a single man ", count: 60
    )
    .split(separator: " ")
    var pages: [Page] = []
    var rest = words[...]
    for _ in 0..<6 {
      let (items, used) = s.page(
        words: rest, font: pages.count % 3, size: 16, width: 300, height: 200, margin: 20,
        lineHeight: 22)
      pages.append(makePage(items))
      rest = rest.dropFirst(Swift.max(1, used))
    }
    let serial = PageRenderer(fonts: s.table, images: { _ in nil })
    let expected = pages.map { serial.render($0, width: 300, height: 200, format: .gray8) }
    let shared = PageRenderer(fonts: s.table, images: { _ in nil })
    let snapshot = pages
    let got = await withTaskGroup(of: (Int, PixelBuffer).self) { group in
      for round in 0..<3 {
        for (i, p) in snapshot.enumerated() {
          group.addTask {
            (
              i,
              shared.render(p, width: 300, height: 200, format: round == 1 ? .rgba8 : .gray8)
                .converted(to: .gray8)
            )
          }
        }
      }
      var out: [(Int, PixelBuffer)] = []
      for await x in group { out.append(x) }
      return out
    }
    #expect(got.count == 18)
    for (i, buffer) in got { #expect(buffer == expected[i], "page \(i)") }
  }

  @Test func missingFontAndHostileRunsDoNotCrash() {
    let r = PageRenderer(
      fonts: FontTable(faces: [FontFace(name: "junk", origin: "junk.ttf", data: Data([1, 2, 3]))]),
      images: { _ in nil })
    let page = makePage([
      .glyphs(
        GlyphRun(font: 0, size: 16, color: .black, glyphs: [1, 2], x: [1, 2], y: [10, 10])),
      .glyphs(GlyphRun(font: 7, size: 16, color: .black, glyphs: [1], x: [1], y: [10])),
      .glyphs(GlyphRun(font: 0, size: .nan, color: .black, glyphs: [1], x: [1], y: [10])),
      .glyphs(GlyphRun(font: 0, size: 16, color: .black, glyphs: [1, 2, 3], x: [.nan], y: [])),
    ])
    let out = r.render(page, width: 20, height: 20, format: .gray8)
    #expect(out.pixels.allSatisfy { $0 == 255 })
    #expect(
      r.warnings.contains {
        $0.kind == .unrenderableFont && $0.file.contains("junk.ttf")
          && $0.message.contains("FT_New_Memory_Face")
      })
  }
}
