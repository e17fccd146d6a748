// Chained animations (issue #14): open → turn → turn → close as one output, consecutive
// segments sharing their boundary frame exactly, one frames.json with per-segment timing,
// bounded, and a bad timeline reported as one line with exit 65.

import Foundation
import QuireCore
import QuireMotion
import QuireRaster
import Testing

@testable import Quire

@Suite(.serialized) struct AnimationChainTests {
  static let sample = packageRoot.appendingPathComponent("samples/childrens-literature.epub")

  static func request(_ segments: [ChainSegment], out: String = "/tmp/unused") -> ChainRequest {
    var r = ChainRequest(book: sample, output: URL(fileURLWithPath: out), segments: segments)
    r.layout = LayoutSettings(pageWidth: 240, pageHeight: 320)
    return r
  }

  static func segment(_ kind: ChainSegment.Kind, frames: Int, style: PageTurnStyle = .curl)
    -> ChainSegment
  {
    var s = ChainSegment(kind)
    s.timing = AnimationTiming(frames: frames)
    s.turn.style = style
    return s
  }

  static func meanAbsDiff(_ a: PixelBuffer, _ b: PixelBuffer) -> Double {
    guard a.pixels.count == b.pixels.count else { return .infinity }
    var sum = 0
    for i in 0..<a.pixels.count { sum += abs(Int(a.pixels[i]) - Int(b.pixels[i])) }
    return Double(sum) / Double(max(1, a.pixels.count))
  }

  /// Turns, a hold and a turn back: the joints are the pages, drawn the same from both sides.
  @Test func turnsShareTheirBoundaryFrames() throws {
    var back = Self.segment(.turn, frames: 4, style: .hard)
    back.turn.direction = .prev
    var r = Self.request([
      Self.segment(.turn, frames: 6), Self.segment(.turn, frames: 5, style: .leaves),
      Self.segment(.hold, frames: 3), back,
    ])
    r.page = 2
    let chain = try AnimationChain(r)
    #expect(chain.frameCount == 6 + 5 + 3 + 4 - 3)
    #expect(chain.width == 240 && chain.height == 320)
    let page = { (i: Int) throws -> PixelBuffer in try chain.book.pages.render(i, format: .rgba8) }
    #expect(chain.frame(0) == (try page(1)))
    #expect(chain.frame(segment: 0, frame: 5) == (try page(2)))
    #expect(chain.frame(segment: 1, frame: 0) == (try page(2)))
    #expect(chain.frame(segment: 1, frame: 4) == (try page(3)))
    #expect(chain.frame(segment: 2, frame: 0) == (try page(3)))
    #expect(chain.frame(segment: 2, frame: 2) == (try page(3)))
    #expect(chain.frame(segment: 3, frame: 0) == (try page(3)))
    #expect(chain.frame(chain.frameCount - 1) == (try page(2)))
    // Frame 5 of the chain is the joint (the first segment's last frame).
    #expect(chain.position(5) == (0, 5) && chain.position(6) == (1, 1))
    #expect(chain.position(9) == (1, 4) && chain.position(10) == (2, 1))
    // Inside a segment the picture moves.
    #expect(chain.frame(3) != chain.frame(4))
  }

  /// Spread turns in a chain: two pages wide; the joints and a hold are the spreads at rest
  /// with their gutter shadow, the same from both sides and the same as `flip --spread`
  /// draws; spread turns do not mix with single-page turns or with an opening.
  @Test func spreadTurnsShareTheirBoundarySpreads() throws {
    var forward = Self.segment(.turn, frames: 4, style: .hard)
    forward.turn.spread = true
    var back = Self.segment(.turn, frames: 3)
    back.turn.spread = true
    back.turn.direction = .prev
    var r = Self.request([forward, Self.segment(.hold, frames: 2), back])
    r.page = 2
    let chain = try AnimationChain(r)
    #expect(chain.width == 480 && chain.height == 320)
    #expect(chain.frameCount == 4 + 2 + 3 - 2)
    #expect(chain.steps.map(\.fromPage) == [1, 3, 3] && chain.steps.map(\.toPage) == [3, 3, 1])
    let spread = { (n: Int) throws -> PixelBuffer in try chain.book.stillSpread(at: n, PageTurn()) }
    let first = try spread(2)
    #expect(chain.frame(0) == first)
    #expect(chain.frame(segment: 0, frame: 3) == (try spread(4)))
    #expect(chain.frame(segment: 1, frame: 0) == (try spread(4)))
    #expect(chain.frame(segment: 1, frame: 1) == (try spread(4)))
    #expect(chain.frame(segment: 2, frame: 0) == (try spread(4)))
    #expect(chain.frame(chain.frameCount - 1) == first)
    #expect(chain.frame(1) != chain.frame(2), "the leaf moves")
    // The same spread `quire flip --spread` starts on: pages 2 and 3 with the gutter shadow.
    var flip = PageTurn(style: .hard, timing: AnimationTiming(frames: 4))
    flip.spread = true
    #expect(try chain.book.turn(from: 2, flip).frame(0) == first)
    let plain = PixelBuffer.sideBySide(
      try chain.book.pages.render(1, format: .rgba8), try chain.book.pages.render(2, format: .rgba8)
    )
    #expect(first.width == plain.width && first != plain, "the gutter is shaded")

    var single = Self.segment(.turn, frames: 3)
    single.turn.spread = false
    #expect(throws: QuireError.self) { try AnimationChain(Self.request([forward, single])) }
    #expect(throws: QuireError.self) {
      try AnimationChain(Self.request([Self.segment(.open, frames: 3), forward]))
    }
  }

  /// open → turn → close on a canvas: the opening ends on the page the turn starts from,
  /// the turn ends on the page the closing starts from, at the same place on the same shelf.
  @Test func openTurnCloseShareTheirJoints() throws {
    let r = Self.request([
      Self.segment(.open, frames: 6), Self.segment(.turn, frames: 5),
      Self.segment(.close, frames: 6),
    ])
    let chain = try AnimationChain(r)
    #expect(chain.frameCount == 15)
    let endOfOpen = chain.frame(segment: 0, frame: 5)
    #expect(endOfOpen == chain.frame(segment: 1, frame: 0))
    #expect(chain.frame(segment: 1, frame: 4) == chain.frame(segment: 2, frame: 0))
    // The open book shows the page under the cover, whole, at its resting place.
    let under = try OpenJob.pageUnderCoverIndex(chain.book)
    let page = try chain.book.pages.render(under, format: .rgba8)
    #expect(chain.steps[1].fromPage == under && chain.steps[2].fromPage == under + 1)
    #expect(chain.placed(page) == endOfOpen)
    #expect(endOfOpen.width == 240 && endOfOpen.height == 320)
    // The closing ends on the closed book on the shelf, as the opening began.
    #expect(
      Self.meanAbsDiff(chain.frame(0), chain.frame(chain.frameCount - 1)) < 0.5)
  }

  @Test func writesOneOutputWithSegments() throws {
    let out = temporaryFolder("chain-frames")
    let r = Self.request(
      [Self.segment(.turn, frames: 4), Self.segment(.turn, frames: 3, style: .fold)], out: out)
    try ChainJob.run(r)
    let data = try Data(contentsOf: URL(fileURLWithPath: out + "/frames.json"))
    let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    #expect(json["frameCount"] as? Int == 6)
    let segments = try #require(json["segments"] as? [[String: Any]])
    #expect(segments.map { $0["firstFrame"] as? Int } == [1, 4])
    #expect(segments.map { $0["lastFrame"] as? Int } == [4, 6])
    #expect(segments.map { $0["style"] as? String } == ["curl", "fold"])
    #expect(segments.map { $0["fromPage"] as? Int } == [1, 2])
    let frames = try #require(json["frames"] as? [[String: Any]])
    #expect(frames.map { $0["segment"] as? Int } == [1, 1, 1, 1, 2, 2])
    #expect(frames.map { $0["t"] as? Double } == [0, 1.0 / 3, 2.0 / 3, 1, 0.5, 1])
    let chain = try AnimationChain(r)
    let png = try PNGCodec.decode(
      try Data(contentsOf: URL(fileURLWithPath: out + "/frame-0004.png")))
    #expect(png.converted(to: .rgba8) == chain.frame(3))
    #expect(!FileManager.default.fileExists(atPath: out + "/frame-0007.png"))
  }

  @Test func boundsAndStates() throws {
    let tooMany = Array(repeating: Self.segment(.hold, frames: 2), count: 1001)
    #expect(throws: QuireError.self) { try AnimationChain(Self.request(tooMany)) }
    let long = Array(repeating: Self.segment(.hold, frames: 5000), count: 3)
    #expect(throws: QuireError.self) { try AnimationChain(Self.request(long)) }
    #expect(throws: QuireError.self) {
      try AnimationChain(
        Self.request([Self.segment(.close, frames: 3), Self.segment(.close, frames: 3)]))
    }
    var back = Self.segment(.turn, frames: 3)
    back.turn.direction = .prev
    #expect(throws: QuireError.self) { try AnimationChain(Self.request([back])) }
  }

  @Test func timelineFileErrorsAreOneLineAndExit65() throws {
    guard quireExecutable != nil else { return }
    let dir = temporaryFolder("chain-cli")
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    func run(_ json: String, _ extra: [String] = []) throws -> CommandResult {
      let file = dir + "/t.json"
      try Data(json.utf8).write(to: URL(fileURLWithPath: file))
      return try runQuire(
        ["flip", Self.sample.path, "--timeline", file, "-o", dir + "/out", "--size", "240x320"]
          + extra)
    }
    let cases = [
      "[1, 2]", "{\"segments\": []}", "{\"segments\": [{\"kind\": \"jump\"}]}",
      "{\"segments\": [{\"kind\": \"turn\", \"frame\": 3}]}",
      "{\"segments\": [{\"kind\": \"turn\", \"frames\": 1}]}",
      "{\"segments\": [{\"kind\": \"hold\", \"style\": \"curl\"}]}",
      "{\"segments\": [{\"kind\": \"turn\", \"direction\": \"prev\"}]}",
      "{\"segments\": [{\"kind\": \"open\"}, {\"kind\": \"open\"}]}",
      "{\"segments\": [{\"kind\": \"turn\", \"spread\": \"yes\"}]}",
      "{\"segments\": [{\"kind\": \"hold\", \"spread\": true}]}",
      "{\"segments\": [{\"kind\": \"turn\", \"spread\": true}, {\"kind\": \"turn\"}]}",
    ]
    for json in cases {
      let r = try run(json)
      #expect(r.status == 65, "\(json): \(r.stderr)")
      #expect(r.stderr.split(separator: "\n").count == 1, "\(json): \(r.stderr)")
      #expect(r.stderr.contains("t.json"), "\(json): \(r.stderr)")
    }
    let usage = try run("{\"segments\": [{\"kind\": \"turn\"}]}", ["--style", "fold"])
    #expect(usage.status == 64 && usage.stderr.split(separator: "\n").count == 1)
    let missing = try runQuire(
      ["flip", Self.sample.path, "--timeline", dir + "/none.json", "-o", dir + "/o"])
    #expect(missing.status == 66, "\(missing.stderr)")
    let ok = try run(
      "{\"segments\": [{\"kind\": \"turn\", \"frames\": 3}, {\"kind\": \"hold\", \"frames\": 2}]}")
    #expect(ok.status == 0, "\(ok.stderr)")
    #expect(FileManager.default.fileExists(atPath: dir + "/out/frame-0004.png"))
    let spreads = try run(
      "{\"segments\": [{\"kind\": \"turn\", \"frames\": 3, \"spread\": true}]}", ["--page", "2"])
    #expect(spreads.status == 0, "\(spreads.stderr)")
    let frame = try PNGCodec.decode(
      try Data(contentsOf: URL(fileURLWithPath: dir + "/out/frame-0001.png")))
    #expect(frame.width == 480 && frame.height == 320)
  }

  /// The spine shading (issue #14): `flip --spread` frame 0 is the spread image `render
  /// --spreads` writes, gutter shadow included, and its last frame the next spread's.
  @Test func spreadTurnStartsOnTheShadedStaticSpread() throws {
    guard quireExecutable != nil else { return }
    let dir = temporaryFolder("chain-spreads")
    let size = ["--size", "240x320", "--color", "rgb"]
    let render = try runQuire(
      ["render", Self.sample.path, "-o", dir + "/pages", "--spreads", "--pages", "1-5"] + size)
    #expect(render.status == 0, "\(render.stderr)")
    let flip = try runQuire(
      ["flip", Self.sample.path, "--page", "2", "--spread", "--frames", "3", "-o", dir + "/turn"]
        + ["--size", "240x320"])
    #expect(flip.status == 0, "\(flip.stderr)")
    func png(_ path: String) throws -> PixelBuffer {
      try PNGCodec.decode(try Data(contentsOf: URL(fileURLWithPath: dir + path)))
        .converted(to: .rgba8)
    }
    // Spread 2 holds pages 2 and 3, spread 3 pages 4 and 5 (the first page stands alone).
    let first = try png("/turn/frame-0001.png")
    #expect(first == (try png("/pages/spread-0002.png")))
    #expect(try png("/turn/frame-0003.png") == (try png("/pages/spread-0003.png")))
    // The gutter is darker than the same paper a few % of a page away from it.
    let row = 2 * 240 * 4 * 4
    #expect(first.pixels[row + 239 * 4] < first.pixels[row + 200 * 4])
  }
}

extension PixelBuffer {
  /// Two same-height RGBA images side by side (a spread without its gutter shadow).
  static func sideBySide(_ a: PixelBuffer, _ b: PixelBuffer) -> PixelBuffer {
    var out: [UInt8] = []
    for y in 0..<a.height {
      out += a.pixels[(y * a.width * 4)..<((y + 1) * a.width * 4)]
      out += b.pixels[(y * b.width * 4)..<((y + 1) * b.width * 4)]
    }
    return PixelBuffer(width: a.width + b.width, height: a.height, format: .rgba8, pixels: out)
  }
}
