// The animation commands as a user runs them (issue #14 defects with no library-level test of
// their own): part of a turn and a still (`--from/--to`, `--at`), a cancelled turn, the
// duration arithmetic, the odd-size MP4 note, and the shelf both ways, there and back, and
// with an animated bring-to-front.

import Foundation
import QuireCore
import QuireRaster
import QuireTestSupport
import Testing

@testable import Quire

@Suite(.serialized) struct FlipCommandTests {
  static let sample = packageRoot.appendingPathComponent("samples/childrens-literature.epub").path
  static let size = ["--size", "240x320"]

  /// Runs `quire args…` into `dir/name`; the frames (decoded, RGBA) in order.
  static func frames(_ dir: String, _ name: String, _ args: [String]) throws -> [PixelBuffer] {
    let out = dir + "/" + name
    let r = try runQuire(args + ["-o", out])
    try #require(r.status == 0, "\(args): \(r.stderr)")
    let names = try FileManager.default.contentsOfDirectory(atPath: out)
      .filter { $0.hasPrefix("frame-") }.sorted()
    return try names.map {
      try PNGCodec.decode(try Data(contentsOf: URL(fileURLWithPath: out + "/" + $0)))
        .converted(to: .rgba8)
    }
  }

  static func flip(_ extra: [String]) -> [String] {
    ["flip", sample, "--page", "3"] + size + extra
  }

  /// `--at P` is one frame; `--from P --to Q` starts and ends on the stills at P and Q;
  /// `--at 0` and `--at 1` are the two pages.
  @Test func partOfATurnAndStills() throws {
    guard quireExecutable != nil else { return }
    let dir = temporaryFolder("flip-part")
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let at = { (p: String) throws -> [PixelBuffer] in
      try Self.frames(
        dir, "at-" + p.replacingOccurrences(of: ".", with: "_"), Self.flip(["--at", p]))
    }
    let (start, quarter, mid, end) = (try at("0"), try at("0.25"), try at("0.6"), try at("1"))
    #expect(start.count == 1 && mid.count == 1)
    let whole = try Self.frames(dir, "whole", Self.flip(["--frames", "5"]))
    #expect(start[0] == whole[0] && end[0] == whole[4])
    #expect(mid[0] != start[0] && mid[0] != end[0])
    let part = try Self.frames(
      dir, "part", Self.flip(["--from", "0.25", "--to", "0.6", "--frames", "4"]))
    #expect(part.count == 4 && part[0] == quarter[0] && part[3] == mid[0])
    #expect(part[1] != part[0] && part[2] != part[3])
  }

  /// `--cancel`: the leaf goes to `--to` and falls back; first and last frames are page N, the
  /// middle one the still at `--to`, and the way back mirrors the way out.
  @Test func cancelledTurnFallsBack() throws {
    guard quireExecutable != nil else { return }
    let dir = temporaryFolder("flip-cancel")
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let f = try Self.frames(dir, "cancel", Self.flip(["--cancel", "--to", "0.5", "--frames", "9"]))
    let half = try Self.frames(dir, "half", Self.flip(["--at", "0.5"]))
    let page = try Self.frames(dir, "page", Self.flip(["--at", "0"]))
    #expect(f.count == 9 && f[0] == page[0] && f[8] == page[0])
    #expect(f[4] == half[0])
    #expect(f[2] == f[6] && f[1] == f[7] && f[2] != f[3])
  }

  /// `--duration 1.5 --fps 24` is 36 frames of 1/24 s (it was 37 lasting 1.542 s).
  @Test func durationIsFramesTimesFrameTime() throws {
    guard quireExecutable != nil else { return }
    let dir = temporaryFolder("flip-duration")
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let r = try runQuire(Self.flip(["--duration", "1.5", "--fps", "24", "-o", dir + "/d"]))
    try #require(r.status == 0, "\(r.stderr)")
    let data = try Data(contentsOf: URL(fileURLWithPath: dir + "/d/frames.json"))
    let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    #expect(json["frameCount"] as? Int == 36)
    #expect((json["duration"] as? Double).map { abs($0 - 1.5) < 1e-9 } == true, "\(json.keys)")
  }

  /// An odd `--size` to MP4 says that the video is padded to even sides.
  @Test func oddSizedVideoSaysItIsPadded() throws {
    guard quireExecutable != nil,
      FileManager.default.isExecutableFile(atPath: "/usr/bin/ffmpeg")
    else { return }
    let dir = temporaryFolder("flip-odd")
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let r = try runQuire(
      [
        "flip", Self.sample, "--page", "3", "--size", "241x321", "--frames", "3", "-o",
        dir + ".mp4",
      ])
    defer { try? FileManager.default.removeItem(atPath: dir + ".mp4") }
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stderr.contains("241x321 frames are padded to 242x322"), "\(r.stderr)")
    let even = try runQuire(
      [
        "flip", Self.sample, "--page", "3", "--size", "240x320", "--frames", "3", "-o",
        dir + ".mp4",
      ])
    #expect(even.status == 0 && !even.stderr.contains("padded"), "\(even.stderr)")
  }

  /// The shelf moves grid → scatter and scatter → grid (`--layout`/`--to`), `--toggle` goes
  /// there and back (last frame = first), `--front K` animates the book coming to the front.
  @Test func shelfBothWaysThereAndBackAndFront() throws {
    guard quireExecutable != nil else { return }
    let dir = temporaryFolder("shelf-ways")
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let books =
      [Self.sample]
      + ["css-fixtures.epub", "xiyouji-chapter1.txt"].map {
        packageRoot.appendingPathComponent("samples/" + $0).path
      }
    let shelf = { (name: String, extra: [String]) throws -> [PixelBuffer] in
      try Self.frames(
        dir, name, ["shelf"] + books + ["--canvas", "360x300", "--frames", "5"] + extra)
    }
    let out = try shelf("out", ["--layout", "grid", "--to", "scatter"])
    let back = try shelf("back", ["--layout", "scatter", "--to", "grid"])
    #expect(out.count == 5 && back.count == 5)
    #expect(out[0] == back[4] && out[4] == back[0], "the two directions meet at both ends")
    for f in [out, back] {
      for i in 0..<4 { #expect(f[i] != f[i + 1], "frame \(i + 1) moves") }
    }
    let toggle = try shelf("toggle", ["--layout", "grid", "--to", "scatter", "--toggle"])
    #expect(toggle.first == toggle.last && toggle[0] != toggle[toggle.count / 2])
    let front = try shelf("front", ["--layout", "grid", "--to", "grid", "--front", "2"])
    #expect(front[0] != front[4] && front[1] != front[2], "bring-to-front moves")
  }
}
