// `quire flipbook` (issue #14): the folder and its manifest, the sprite sheets against the
// turn `quire flip` draws, determinism, stale files, bad options, and the browser test
// (scripts/flipbook-browser-test.py: headless Chromium plays the folder from file://).
//
// The books are Fixtures/flipbook/ltr.epub and rtl.epub (make-flipbook-books.py).

import Foundation
import QuireCore
import QuireRaster
import QuireTestSupport
import Testing

@testable import Quire

enum FlipbookFixture {
  static let folder = packageRoot.appendingPathComponent("Tests/QuireTests/Fixtures/flipbook")
  static let ltr = folder.appendingPathComponent("ltr.epub").path
  static let rtl = folder.appendingPathComponent("rtl.epub").path
  static let script = packageRoot.appendingPathComponent("scripts/flipbook-browser-test.py").path
  /// Small pages and short turns keep the debug build fast.
  static let options = ["--size", "300x400", "--frames", "6"]

  /// `quire flipbook BOOK -o (a new temporary folder) options…`; the folder and the result.
  static func make(_ book: String, _ name: String, _ extra: [String] = options) throws
    -> (String, CommandResult)
  {
    let out = temporaryFolder("flipbook-\(name)")
    return (out, try runQuire(["flipbook", book, "-o", out] + extra))
  }

  static func manifest(_ folder: String) throws -> [String: Any] {
    let data = try Data(contentsOf: URL(fileURLWithPath: folder + "/flipbook.json"))
    return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
  }

  static func files(_ folder: String) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
  }

  static func bytes(_ folder: String, _ name: String) throws -> Data {
    try Data(contentsOf: URL(fileURLWithPath: folder).appendingPathComponent(name))
  }

  /// Whether the browser test can run here: chromium, chromedriver and selenium.
  static var browserRunnable: Bool {
    BrowserOracle.chromium != nil
      && FileManager.default.isExecutableFile(atPath: "/usr/bin/chromedriver")
      && (try? Subprocess.run(Subprocess.python, ["-c", "import selenium, PIL"]))?.status == 0
  }
}

@Suite(.serialized) struct FlipbookTests {
  @Test func folderHoldsThePlayerThePagesAndTheTurns() throws {
    let (out, r) = try FlipbookFixture.make(FlipbookFixture.ltr, "folder")
    defer { try? FileManager.default.removeItem(atPath: out) }
    try #require(r.status == 0, "\(r.stderr)")
    let m = try FlipbookFixture.manifest(out)
    #expect(m["format"] as? String == "quire-flipbook/1")
    #expect(m["width"] as? Int == 300 && m["height"] as? Int == 400)
    let book = try #require(m["book"] as? [String: Any])
    #expect(book["title"] as? String == "A Flipbook Sample")
    #expect(book["direction"] as? String == "ltr")
    let pages = try #require(m["pages"] as? [[String: Any]])
    #expect(pages.count >= 5, "the fixture should be several pages")
    #expect(pages.map { $0["number"] as? Int } == Array(1...pages.count))
    let turns = try #require(m["turns"] as? [[String: Any]])
    #expect(turns.map { $0["from"] as? Int } == Array(1..<pages.count))
    #expect(turns.map { $0["to"] as? Int } == Array(2...pages.count))
    // The book's pairing (as `render --spreads`): page 1 alone, then (2, 3), (4, 5)…
    let starts = [1] + Array(stride(from: 2, through: pages.count, by: 2))
    let spreads = try #require(m["spreadTurns"] as? [[String: Any]])
    #expect(spreads.map { $0["from"] as? Int } == Array(starts.dropLast()))
    #expect(spreads.map { $0["to"] as? Int } == Array(starts.dropFirst()))
    let turn = try #require(m["turn"] as? [String: Any])
    #expect(turn["frames"] as? Int == 6 && turn["fps"] as? Double == 30)
    #expect(turn["style"] as? String == "curl")
    let easing = try #require(turn["easing"] as? [Double])
    #expect(easing.count == 65 && easing.first == 0 && easing.last == 1)
    #expect(abs(easing[32] - 0.5) < 1e-6, "ease in and out is symmetric")
    #expect(easing[8] < 0.125, "ease in: slower than linear at first")
    let single = try #require(turn["single"] as? [String: Int])
    #expect(single["frames"] == 4 && single["frameWidth"] == 300 && single["frameHeight"] == 400)
    #expect(single["columns"]! * single["rows"]! >= 4)

    // Exactly these files; all but book.js and flipbook.json add up to totalBytes.
    var expected = ["book.js", "flipbook.css", "flipbook.js", "flipbook.json", "index.html"]
    expected += pages.compactMap { $0["file"] as? String }
    expected += (turns + spreads).compactMap { $0["file"] as? String }
    let stills = try #require(m["spreads"] as? [[String: Any]])
    #expect(stills.map { $0["from"] as? Int } == starts)
    #expect(stills.map { $0["number"] as? Int } == Array(1...starts.count))
    #expect(stills.first?["left"] == nil && stills.first?["right"] as? Int == 1)
    expected += stills.compactMap { $0["file"] as? String }
    #expect(try FlipbookFixture.files(out) == expected.sorted())
    let sizes = try expected.filter { $0 != "flipbook.json" && $0 != "book.js" }.map {
      try FlipbookFixture.bytes(out, $0).count
    }
    #expect(m["totalBytes"] as? Int == sizes.reduce(0, +))
    for t in turns + spreads {
      let file = try #require(t["file"] as? String)
      let size = try FlipbookFixture.bytes(out, file).count
      #expect(t["bytes"] as? Int == size)
    }
    #expect(r.stdout.contains("\(pages.count) pages, \(turns.count) turns"), "\(r.stdout)")
    #expect(r.stdout.contains(" MB in "), "the total size is reported: \(r.stdout)")

    // book.js is the manifest; nothing in the player reaches for the network.
    let script = String(decoding: try FlipbookFixture.bytes(out, "book.js"), as: UTF8.self)
    let json = String(decoding: try FlipbookFixture.bytes(out, "flipbook.json"), as: UTF8.self)
    #expect(script.hasPrefix("window.QUIRE_FLIPBOOK = {"))
    #expect(script.contains(json))
    let html = String(decoding: try FlipbookFixture.bytes(out, "index.html"), as: UTF8.self)
    #expect(html.contains("<title>A Flipbook Sample</title>"))
    #expect(html.contains(#"<script src="book.js"></script>"#))
    for name in ["index.html", "flipbook.js", "flipbook.css"] {
      let text = String(decoding: try FlipbookFixture.bytes(out, name), as: UTF8.self)
      #expect(
        !text.contains("http:") && !text.contains("https:") && !text.contains("fetch("), "\(name)")
    }
  }

  /// The pages are what `quire render --color rgb` draws; a sheet's cells are exactly the
  /// moving frames of the linear-timed turn `PagedBook.turn` draws (PNG by default).
  @Test func pagesAreRenderPagesAndSheetsHoldTheTurnFrames() throws {
    let (out, r) = try FlipbookFixture.make(FlipbookFixture.ltr, "sheets")
    defer { try? FileManager.default.removeItem(atPath: out) }
    try #require(r.status == 0, "\(r.stderr)")
    let rendered = temporaryFolder("flipbook-render")
    defer { try? FileManager.default.removeItem(atPath: rendered) }
    let rr = try runQuire([
      "render", FlipbookFixture.ltr, "-o", rendered, "--size", "300x400", "--color", "rgb",
      "--pages", "1-2",
    ])
    try #require(rr.status == 0, "\(rr.stderr)")
    for name in ["page-0001.png", "page-0002.png"] {
      #expect(
        try FlipbookFixture.bytes(out, name) == FlipbookFixture.bytes(rendered, name), "\(name)")
    }
    let sheet = try #require(
      decodeImage(try FlipbookFixture.bytes(out, "turn-0001.png"), href: "turn-0001.png"))
    let m = try FlipbookFixture.manifest(out)
    let grid = try #require((m["turn"] as? [String: Any])?["single"] as? [String: Int])
    #expect(sheet.width == grid["columns"]! * 300 && sheet.height == grid["rows"]! * 400)

    let book = try PagedBook(
      contentsOf: URL(fileURLWithPath: FlipbookFixture.ltr),
      layout: LayoutSettings(pageWidth: 300, pageHeight: 400))
    let turn = try book.turn(
      from: 1, PageTurn(style: .curl, timing: AnimationTiming(frames: 6, timing: .linear)))
    let page1 = try book.page(1)
    let page2 = try book.page(2)
    for i in 0..<4 {
      let x = (i % grid["columns"]!) * 300
      let y = (i / grid["columns"]!) * 400
      let cell = sheet.cropped(x: x, y: y, width: 300, height: 400)
      let frame = turn.frame(i + 1)
      #expect(meanDifference(cell, frame) == 0, "cell \(i) is frame \(i + 1) of the turn")
      #expect(meanDifference(cell, page1) > 1 && meanDifference(cell, page2) > 1, "cell \(i) moves")
    }
  }

  /// Spread view shows each spread at rest with its gutter shadow (`SpineShading`, as
  /// `render --spreads` draws it), and the spread turns start and end on exactly those pixels.
  @Test func spreadStillsCarryTheGutterShadowAndMatchTheSpreadTurns() throws {
    let (out, r) = try FlipbookFixture.make(FlipbookFixture.ltr, "stills")
    defer { try? FileManager.default.removeItem(atPath: out) }
    try #require(r.status == 0, "\(r.stderr)")
    func png(_ name: String) throws -> PixelBuffer {
      try PNGCodec.decode(try FlipbookFixture.bytes(out, name)).converted(to: .rgba8)
    }
    let book = try PagedBook(
      contentsOf: URL(fileURLWithPath: FlipbookFixture.ltr),
      layout: LayoutSettings(pageWidth: 300, pageHeight: 400))
    var t = PageTurn(style: .curl, timing: AnimationTiming(frames: 6, timing: .linear))
    t.spread = true
    #expect(try png("spread-0001.png") == book.turn(from: 1, t).frame(0), "page 1 alone")
    let turn = try book.turn(from: 2, t)
    let first = try png("spread-0002.png")
    #expect(first == (try book.stillSpread(at: 3, t)))
    #expect(first == turn.frame(0))
    #expect(try png("spread-0003.png") == turn.frame(5))
    // The plain pages side by side differ only near the spine, where the still is darker.
    let plain = PixelBuffer.joined(try png("page-0002.png"), try png("page-0003.png"))
    try #require(plain.width == first.width && plain.height == first.height)
    var darker = 0
    for y in 0..<first.height {
      for x in 0..<first.width {
        let o = (y * first.width + x) * 4
        if first.pixels[o] != plain.pixels[o] {
          #expect(abs(x - 300) <= 15, "changed at x = \(x)")
          if first.pixels[o] < plain.pixels[o] { darker += 1 }
        }
      }
    }
    #expect(darker > 400 * 10, "\(darker) darker pixels at the spine")
  }

  @Test func twoRunsAreByteIdenticalAndARerunRemovesStaleFiles() throws {
    let (a, ra) = try FlipbookFixture.make(FlipbookFixture.ltr, "det-a")
    let (b, rb) = try FlipbookFixture.make(FlipbookFixture.ltr, "det-b")
    defer {
      try? FileManager.default.removeItem(atPath: a)
      try? FileManager.default.removeItem(atPath: b)
    }
    try #require(ra.status == 0 && rb.status == 0, "\(ra.stderr) \(rb.stderr)")
    let names = try FlipbookFixture.files(a)
    #expect(try FlipbookFixture.files(b) == names)
    for name in names {
      #expect(try FlipbookFixture.bytes(a, name) == FlipbookFixture.bytes(b, name), "\(name)")
    }
    // Pages 2-4 into the same folder: the other pages and sheets go.
    let r = try runQuire(
      ["flipbook", FlipbookFixture.ltr, "-o", a, "--pages", "2-4"] + FlipbookFixture.options)
    try #require(r.status == 0, "\(r.stderr)")
    let left = try FlipbookFixture.files(a)
    #expect(
      left.filter { $0.hasPrefix("page-") } == ["page-0002.png", "page-0003.png", "page-0004.png"])
    #expect(left.filter { $0.hasPrefix("turn-") } == ["turn-0002.png", "turn-0003.png"])
    // Spreads (2, 3) and (4, 5) of the book's pairing, page 5 outside the range: blank.
    #expect(
      left.filter { $0.hasPrefix("spread-") } == [
        "spread-0002-turn.png", "spread-0002.png", "spread-0003.png",
      ])
    #expect(!left.contains(".quire-lock"))
  }

  /// `--sheet-format webp` writes lossless WebP sheets (`.webp`, manifest "webp-lossless")
  /// holding exactly the pixels of the default PNG sheets; a rerun in the other format
  /// replaces the sheets.
  @Test func sheetFormatsHoldTheSamePixels() throws {
    let (png, rp) = try FlipbookFixture.make(FlipbookFixture.ltr, "sheet-png")
    let (webp, rw) = try FlipbookFixture.make(
      FlipbookFixture.ltr, "sheet-webp", FlipbookFixture.options + ["--sheet-format", "webp"])
    defer {
      try? FileManager.default.removeItem(atPath: png)
      try? FileManager.default.removeItem(atPath: webp)
    }
    try #require(rp.status == 0 && rw.status == 0, "\(rp.stderr) \(rw.stderr)")
    func format(_ folder: String) throws -> String? {
      (try FlipbookFixture.manifest(folder)["turn"] as? [String: Any])?["sheetFormat"] as? String
    }
    #expect(try format(png) == "png" && format(webp) == "webp-lossless")
    let pairs = [("turn-0001.png", "turn-0001.webp"), ("spread-0002-turn.png", "spread-0002.webp")]
    for (a, b) in pairs {
      let x = try #require(decodeImage(try FlipbookFixture.bytes(png, a), href: a))
      let y = try #require(decodeImage(try FlipbookFixture.bytes(webp, b), href: b))
      #expect(x.width == y.width && x.height == y.height && meanDifference(x, y) == 0, "\(a)")
      #expect(x.converted(to: .rgba8) == y.converted(to: .rgba8), "\(a) and \(b)")
    }
    let r = try runQuire(
      ["flipbook", FlipbookFixture.ltr, "-o", png, "--sheet-format", "webp"]
        + FlipbookFixture.options)
    try #require(r.status == 0, "\(r.stderr)")
    let left = try FlipbookFixture.files(png)
    #expect(!left.contains { $0.hasSuffix("-turn.png") || $0.hasPrefix("turn-0001.png") })
    #expect(left.contains("turn-0001.webp") && left.contains("spread-0002.webp"))
  }

  /// A sheet stays 8-bit gray while every frame drawn is an opaque gray and turns RGBA at the
  /// first that is not (a colour, a translucent pixel), keeping the cells drawn before; its
  /// PNG decodes to exactly the frames either way.
  @Test func sheetIsGrayOnlyWhileEveryFrameIs() throws {
    let grid = try SheetGrid.fitting(frames: 3, width: 8, height: 6).get()
    var frame = PixelBuffer(width: 8, height: 6, format: .rgba8)
    for i in stride(from: 0, to: frame.pixels.count, by: 4) {
      let v = UInt8(i % 251)
      frame.pixels.replaceSubrange(i..<(i + 3), with: [v, v, v])
    }
    func cell(_ sheet: TurnSheet, _ k: Int) throws -> PixelBuffer {
      let decoded = try PNGCodec.decode(Data(sheet.png()))
      #expect(decoded.format == sheet.pixels.format && decoded == sheet.pixels)
      let (x, y) = grid.origin(k)
      return decoded.cropped(x: x, y: y, width: 8, height: 6).converted(to: .rgba8)
    }
    for (offset, value) in [(4 * 13 + 2, UInt8(7)), (4 * 20 + 3, UInt8(254))] {
      var sheet = TurnSheet(grid: grid)
      for k in 0..<2 { try sheet.draw(frame, at: k) }
      #expect(sheet.pixels.format == .gray8)
      #expect(try cell(sheet, 0) == frame && cell(sheet, 1) == frame)
      var coloured = frame
      coloured.pixels[offset] = value  // a blue, then an alpha, unlike the others
      try sheet.draw(coloured, at: 2)
      #expect(sheet.pixels.format == .rgba8)
      #expect(try cell(sheet, 0) == frame && cell(sheet, 2) == coloured)
      try sheet.draw(frame, at: 1)
      let redrawn = try cell(sheet, 1)
      #expect(sheet.pixels.format == .rgba8 && redrawn == frame)
    }
  }

  @Test func rightToLeftBookSaysSo() throws {
    let (out, r) = try FlipbookFixture.make(
      FlipbookFixture.rtl, "rtl", FlipbookFixture.options + ["--pages", "1-4", "--no-spreads"])
    defer { try? FileManager.default.removeItem(atPath: out) }
    try #require(r.status == 0, "\(r.stderr)")
    let m = try FlipbookFixture.manifest(out)
    #expect((m["book"] as? [String: Any])?["direction"] as? String == "rtl")
    #expect((m["pages"] as? [Any])?.count == 4)
    #expect((m["spreadTurns"] as? [Any])?.isEmpty == true)
    #expect((m["turn"] as? [String: Any])?["spread"] == nil)
    let html = String(decoding: try FlipbookFixture.bytes(out, "index.html"), as: UTF8.self)
    #expect(html.contains(#"<html lang="ar">"#))
  }

  @Test(arguments: [
    ["--pages", "0-3"], ["--pages", "4-2"], ["--pages", "1-3,5"], ["--pages", "x"],
    ["--pages", "90-95"], ["--pages", "1-2001"], ["--frames", "2"], ["--style", "wobble"],
    ["--color", "cmyk"], ["--size", "10x10"], ["--boxes"], ["--corner", "left"],
    ["--size", "4000x4000", "--frames", "40"],
  ])
  func badOptionsExit64(_ extra: [String]) throws {
    let (out, r) = try FlipbookFixture.make(FlipbookFixture.ltr, "bad", ["--frames", "4"] + extra)
    defer { try? FileManager.default.removeItem(atPath: out) }
    #expect(r.status == 64, "\(extra): \(r.stderr)")
    #expect(
      r.stderr.hasPrefix("quire: ") && r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
  }

  @Test func missingOutputOrBook() throws {
    #expect(try runQuire(["flipbook", FlipbookFixture.ltr]).status == 64)
    let (out, r) = try FlipbookFixture.make("/nonexistent/book.epub", "missing")
    defer { try? FileManager.default.removeItem(atPath: out) }
    #expect(r.status == 66, "\(r.stderr)")
  }

  @Test(
    .enabled(
      if: FlipbookFixture.browserRunnable || BrowserOracle.required,
      "chromium, chromedriver or python3-selenium is missing (scripts/install-deps.sh)"),
    .timeLimit(.minutes(10)))
  func playsInHeadlessChromium() throws {
    let r = try BrowserOracle.run(
      FlipbookFixture.script,
      [
        "--ltr", FlipbookFixture.ltr, "--rtl", FlipbookFixture.rtl, "--fixed",
        FixedLayoutFixture.book,
      ], report: "flipbook-browser")
    let json = try #require(r.report as? [String: Any], "no report: \(r.output)")
    let checks = try #require(json["checks"] as? [[String: Any]])
    for c in checks where c["ok"] as? Bool != true {
      Issue.record("\(c["name"] ?? ""): \(c["detail"] ?? "")")
    }
    #expect(r.status == 0)
    #expect(checks.count >= 50, "\(checks.count) checks")
  }
}

/// The mean absolute difference of two same-size images over RGB (gray counts as RGB).
private func meanDifference(_ a: PixelBuffer, _ b: PixelBuffer) -> Double {
  let x = a.converted(to: .rgba8)
  let y = b.converted(to: .rgba8)
  guard x.width == y.width, x.height == y.height else { return .infinity }
  var sum = 0
  for i in stride(from: 0, to: x.pixels.count, by: 4) {
    for c in 0..<3 { sum += abs(Int(x.pixels[i + c]) - Int(y.pixels[i + c])) }
  }
  return Double(sum) / Double(x.width * x.height * 3)
}

extension PixelBuffer {
  /// Two same-height RGBA images side by side.
  fileprivate static func joined(_ a: PixelBuffer, _ b: PixelBuffer) -> PixelBuffer {
    var out: [UInt8] = []
    for y in 0..<a.height {
      out += a.pixels[(y * a.width * 4)..<((y + 1) * a.width * 4)]
      out += b.pixels[(y * b.width * 4)..<((y + 1) * b.width * 4)]
    }
    return PixelBuffer(width: a.width + b.width, height: a.height, format: .rgba8, pixels: out)
  }
}
