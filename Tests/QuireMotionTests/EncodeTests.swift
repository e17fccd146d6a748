import Foundation
import QuireRaster
import QuireTestSupport
import Testing

@testable import QuireMotion

/// Independent decoders: ffprobe/ffmpeg (installed by scripts/install-deps.sh) and Debian's
/// /usr/bin/python3 with PIL (python3-pil). The `python3` on PATH may be a pyenv without PIL.
enum ExternalDecoder {
  static let ffprobe = "/usr/bin/ffprobe"
  static let ffmpeg = "/usr/bin/ffmpeg"
  static let python = Subprocess.python

  static var hasFFmpeg: Bool {
    FileManager.default.isExecutableFile(atPath: ffprobe)
      && FileManager.default.isExecutableFile(atPath: ffmpeg)
  }
  static var hasPIL: Bool { Subprocess.hasPIL }

  static func run(_ exe: String, _ args: [String]) throws -> (status: Int32, out: Data) {
    try Subprocess.run(exe, args)
  }

  /// ffprobe's count of decoded video frames.
  static func ffprobeFrameCount(_ path: String) throws -> Int? {
    let r = try run(
      ffprobe,
      [
        "-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries",
        "stream=nb_read_frames", "-of", "csv=p=0", path,
      ])
    return Int(
      String(decoding: r.out, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
  }

  /// ffmpeg's decode of the first frame as RGBA bytes.
  static func ffmpegFirstFrame(_ path: String) throws -> [UInt8] {
    [UInt8](
      try run(
        ffmpeg,
        ["-v", "error", "-i", path, "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgba", "-"]
      ).out)
  }

  /// PIL's frame count, first frame and all frames (RGBA bytes, composited as a viewer
  /// shows them).
  static func pil(_ path: String) throws -> (frames: Int, first: [UInt8], all: [[UInt8]])? {
    let raw = path + ".frames.rgba"
    let script = """
      import sys
      from PIL import Image
      im = Image.open(sys.argv[1])
      n = getattr(im, 'n_frames', 1)
      with open(sys.argv[2], 'wb') as out:
          for i in range(n):
              im.seek(i)
              out.write(im.convert('RGBA').tobytes())
      print(n)
      """
    let r = try run(python, ["-c", script, path, raw])
    guard r.status == 0,
      let n = Int(
        String(decoding: r.out, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    else { return nil }
    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: raw)))
    guard n > 0, bytes.count % n == 0 else { return nil }
    let size = bytes.count / n
    let all = (0..<n).map { Array(bytes[($0 * size)..<(($0 + 1) * size)]) }
    return (n, all[0], all)
  }
}

@Suite struct EncodeTests {
  static let frameCount = 6
  static var timeline: FlipTimeline { FlipTimeline(frameCount: frameCount, fps: 12) { $0 * $0 } }
  static let renderer = PageTurnRenderer(effect: CurlEffect(), options: TurnOptions())
  static let pages = TurnPages(
    current: TurnFixtures.page(
      width: 48, height: 64, paper: (250, 246, 236), ink: (30, 30, 40), seed: 1),
    next: TurnFixtures.page(
      width: 48, height: 64, paper: (200, 225, 250), ink: (20, 40, 120), seed: 2))

  static func write(_ name: String) throws -> String {
    let dir = try TurnFixtures.scratchDirectory("encode-\(name)")
    let out = dir + "/" + name
    let pages = Self.pages
    let renderer = Self.renderer
    try FlipOutput.write(
      to: out, timeline: timeline, style: "curl", width: 48, height: 64
    ) { renderer.frame(at: $0, pages: pages) }
    return out
  }

  @Test func outputKindFollowsTheName() throws {
    #expect(FlipOutputKind(path: "/tmp/x/flip") == .frames)
    #expect(FlipOutputKind(path: "flip.png") == .apng)
    #expect(FlipOutputKind(path: "flip.APNG") == .apng)
    #expect(FlipOutputKind(path: "flip.webp") == .webp)
    #expect(FlipOutputKind(path: "a.mp4") == .mp4)
    #expect(FlipOutputKind(path: "a.webm") == .webm)
    #expect(FlipOutputKind(path: "a.gif") == nil)
    #expect(FlipOutputKind(path: NSTemporaryDirectory()) == .frames)
  }

  @Test func folderHoldsNumberedFramesAndManifest() throws {
    let dir = try Self.write("frames")
    let files = try FileManager.default.contentsOfDirectory(atPath: dir).sorted()
    #expect(
      files == (1...Self.frameCount).map { String(format: "frame-%04d.png", $0) } + ["frames.json"])
    let json =
      try JSONSerialization.jsonObject(
        with: Data(contentsOf: URL(fileURLWithPath: dir + "/frames.json"))) as! [String: Any]
    #expect(json["frameCount"] as? Int == Self.frameCount)
    #expect(json["fps"] as? Double == 12)
    #expect(json["width"] as? Int == 48)
    #expect(json["height"] as? Int == 64)
    #expect(json["style"] as? String == "curl")
    let frames = json["frames"] as! [[String: Any]]
    #expect(frames.map { $0["t"] as! Double } == Self.timeline.frames.map(\.t))
    for (record, info) in zip(frames, Self.timeline.frames) {
      #expect(abs((record["progress"] as! Double) - info.progress) < 1e-12)
      #expect(record["index"] as? Int == info.index + 1)
    }
    let first = try? PNGCodec.decode(
      try Data(contentsOf: URL(fileURLWithPath: dir + "/frame-0001.png")))
    let last = try? PNGCodec.decode(
      try Data(
        contentsOf: URL(
          fileURLWithPath: dir + "/frame-\(String(format: "%04d", Self.frameCount)).png")))
    #expect(first == Self.pages.current)
    #expect(last == Self.pages.next)
    let mid = try? PNGCodec.decode(
      try Data(contentsOf: URL(fileURLWithPath: dir + "/frame-0003.png")))
    #expect(mid == Self.renderer.frame(at: Self.timeline.info(2).progress, pages: Self.pages))
  }

  @Test func pngRoundTripsAndFailedWritesLeaveNothing() throws {
    let page = TurnFixtures.current
    #expect(try PNGCodec.decode(Data(PNGEncoder.encode(page, level: 2))) == page)
    var sink = try FrameFolderSink(
      directory: try TurnFixtures.scratchDirectory("bad-size"), fps: 10, style: "curl", width: 5,
      height: 5)
    #expect(throws: FrameSinkError.self) {
      try sink.append(page, info: FrameInfo(index: 0, t: 0, progress: 0))
    }
    #expect(throws: FrameSinkError.self) { try sink.finish() }
    #expect(throws: FrameSinkError.self) {
      _ = try VideoSink(
        path: "/tmp/x.mp4", fps: 10, width: 4, height: 4, searchPath: "/nonexistent")
    }
  }

  @Test func apngDecodesToEveryFrame() throws {
    let path = try Self.write("flip.png")
    let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
    // Our own reader sees the default image (frame 0).
    #expect(try PNGCodec.decode(bytes) == Self.pages.current)
    let leftovers = try FileManager.default.contentsOfDirectory(
      atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path)
    #expect(leftovers == ["flip.png"])
    var checked = false
    if ExternalDecoder.hasFFmpeg {
      #expect(try ExternalDecoder.ffprobeFrameCount(path) == Self.frameCount)
      #expect(try ExternalDecoder.ffmpegFirstFrame(path) == Self.pages.current.pixels)
      checked = true
    }
    if ExternalDecoder.hasPIL {
      let decoded = try #require(try ExternalDecoder.pil(path))
      #expect(decoded.frames == Self.frameCount)
      #expect(decoded.first == Self.pages.current.pixels)
      // Later frames store only their changed rectangle; composited, every frame is exact.
      for info in Self.timeline.frames {
        let expected = Self.renderer.frame(at: info.progress, pages: Self.pages).pixels
        #expect(decoded.all[info.index] == expected, "frame \(info.index)")
      }
      checked = true
    }
    if !checked {
      print("skipped: neither /usr/bin/ffprobe nor /usr/bin/python3 with PIL is installed")
    }
  }

  @Test func webpDecodesToEveryFrameLosslessly() throws {
    let path = try Self.write("flip.webp")
    guard ExternalDecoder.hasPIL else {
      print("skipped: /usr/bin/python3 with PIL (python3-pil) is not installed")
      return
    }
    let decoded = try #require(try ExternalDecoder.pil(path))
    #expect(decoded.frames == Self.frameCount)
    #expect(decoded.first == Self.pages.current.pixels)
    for info in Self.timeline.frames {
      let expected = Self.renderer.frame(at: info.progress, pages: Self.pages).pixels
      #expect(decoded.all[info.index] == expected, "lossless frame \(info.index)")
    }
  }

  @Test func changedRectangleIsTight() {
    let a = TurnFixtures.current
    var b = a
    #expect(changedRectangle(a, b) == (0, 0, 1, 1))
    b.pixels[(10 * a.width + 7) * 4 + 1] ^= 0xFF
    b.pixels[(20 * a.width + 30) * 4] ^= 0xFF
    #expect(changedRectangle(a, b) == (7, 10, 24, 11))
    let crop = b.cropped(x: 7, y: 10, width: 24, height: 11)
    #expect(crop.pixels[1] == b.pixels[(10 * a.width + 7) * 4 + 1])
  }

  /// BT.601 limited range: the primaries, white and black at their textbook codes, every gray
  /// without colour, chroma the mean of its 2×2 block, odd sizes padded with white.
  @Test func planarYUVIsBT601LimitedRange() {
    let colours: [[UInt8]] = [
      [255, 0, 0, 255], [0, 255, 0, 255], [0, 0, 255, 255],
      [255, 255, 255, 255], [0, 0, 0, 255], [128, 128, 128, 255],
    ]
    let lumas: [UInt8] = [81, 145, 41, 235, 16, 126]
    let cb: [UInt8] = [90, 54, 240, 128, 128, 128]
    let cr: [UInt8] = [240, 34, 110, 128, 128, 128]
    for (k, c) in colours.enumerated() {
      let solid = PixelBuffer(
        width: 2, height: 2, format: .rgba8,
        pixels: Array([[UInt8]](repeating: c, count: 4).joined()))
      #expect(
        [UInt8](PlanarYUV.data(solid)) == [lumas[k], lumas[k], lumas[k], lumas[k], cb[k], cr[k]])
    }
    // 3x1 gray: padded to 4x2 with white; block 0 is two grays over two white pads.
    let gray = PixelBuffer(width: 3, height: 1, format: .gray8, pixels: [0, 128, 255])
    #expect(PlanarYUV.paddedSize(width: 3, height: 1) == (4, 2))
    let yuv = [UInt8](PlanarYUV.data(gray))
    #expect(yuv == [16, 126, 235, 235, 235, 235, 235, 235, 128, 128, 128, 128])
    // A red/blue block: the chroma of the mean colour.
    let mixed = PixelBuffer(
      width: 2, height: 2, format: .rgba8,
      pixels: colours[0] + colours[2] + colours[2] + colours[0])
    #expect([UInt8](PlanarYUV.data(mixed)).suffix(2) == [165, 175])
  }

  /// The H.264 file decodes (ffmpeg's own BT.601 conversion back to RGB) close to the frame:
  /// a wrong matrix, range or plane order would shift every colour far past this.
  @Test func mp4DecodesCloseToTheFrames() throws {
    guard VideoSink.ffmpegPath() != nil, ExternalDecoder.hasFFmpeg else {
      print("skipped: ffmpeg is not installed")
      return
    }
    let path = try Self.write("close.mp4")
    let decoded = try ExternalDecoder.ffmpegFirstFrame(path)
    let expected = Self.pages.current.pixels
    #expect(decoded.count == expected.count)
    var squared = 0.0
    for i in 0..<Swift.min(decoded.count, expected.count) where i % 4 != 3 {
      let d = Double(decoded[i]) - Double(expected[i])
      squared += d * d
    }
    let psnr = 10 * log10(255 * 255 / Swift.max(1e-9, squared / Double(expected.count * 3 / 4)))
    #expect(psnr > 30, "PSNR \(psnr) dB")
  }

  @Test func mp4ThroughFFmpeg() throws {
    guard VideoSink.ffmpegPath() != nil, ExternalDecoder.hasFFmpeg else {
      print("skipped: ffmpeg is not installed")
      return
    }
    let path = try Self.write("flip.mp4")
    #expect(try ExternalDecoder.ffprobeFrameCount(path) == Self.frameCount)
  }
}
