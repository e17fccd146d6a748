import Foundation

/// A folder of frame-0001.png … plus frames.json (DESIGN.md's contract: frameCount, fps,
/// width, height, style, and per frame t and progress; a chain adds `segments` and each
/// frame's `segment`, its t and progress being the segment's own).
package struct FrameFolderSink: FrameSink {
  package let directory: String
  package let fps: Double
  package let style: String
  package let width: Int
  package let height: Int
  package let encoder: @Sendable (PixelBuffer, PixelBuffer?) throws -> [UInt8]
  /// A chain's segments (nil for one animation).
  package var segments: [SegmentRecord]? = nil
  private var frames: [FrameRecord] = []

  struct FrameRecord: Codable {
    var index: Int
    var file: String
    var t: Double
    var progress: Double
    var segment: Int?
  }

  struct Manifest: Codable {
    var format = "quire-frames/1"
    var frameCount: Int
    var fps: Double
    var width: Int
    var height: Int
    var style: String
    var frames: [FrameRecord]
    /// How long the frames play: frameCount / fps seconds (each frame shows 1/fps s).
    var duration: Double
    var segments: [SegmentRecord]?
  }

  /// `level`: libdeflate level (1 fastest … 12 smallest).
  package init(
    directory: String, fps: Double, style: String, width: Int, height: Int, level: Int32 = 1
  ) throws {
    var isDirectory: ObjCBool = false
    if FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) {
      guard isDirectory.boolValue else {
        throw FrameSinkError.cannotCreate(path: directory, reason: "exists and is not a folder")
      }
    } else {
      do {
        try FileManager.default.createDirectory(
          atPath: directory, withIntermediateDirectories: true)
      } catch {
        // Foundation's text is not shown: the POSIX reason when mkdir of the folder says one.
        let reason = mkdir(directory, 0o755) != 0 ? String(cString: strerror(errno)) : "mkdir"
        throw FrameSinkError.cannotCreate(path: directory, reason: reason)
      }
    }
    self.directory = directory
    self.fps = fps
    self.style = style
    self.width = width
    self.height = height
    let w = width
    let h = height
    self.encoder = { frame, _ in
      guard frame.width == w && frame.height == h else {
        throw FrameSinkError.frameSize(
          path: directory, expected: "\(w)x\(h)", got: "\(frame.width)x\(frame.height)")
      }
      // The core's encoder; filter none: the fastest, and page frames are flat paper.
      return PNGEncoder.encode(frame, filter: .none, level: level)
    }
  }

  package static func fileName(index: Int) -> String {
    let n = String(index + 1)
    return "frame-" + String(repeating: "0", count: Swift.max(0, 4 - n.count)) + n + ".png"
  }

  package mutating func append(_ frame: [UInt8], info: FrameInfo) throws {
    let name = Self.fileName(index: info.index)
    try AtomicFile.writeFrameOutput(frame, to: directory + "/" + name)
    frames.append(
      FrameRecord(
        index: info.index + 1, file: name, t: info.t, progress: info.progress,
        segment: info.segment.map { $0 + 1 }))
  }

  package mutating func finish() throws {
    guard !frames.isEmpty else { throw FrameSinkError.noFrames(path: directory) }
    let manifest = Manifest(
      frameCount: frames.count, fps: fps, width: width, height: height, style: style,
      frames: frames, duration: Double(frames.count) / fps, segments: segments)
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    let data: Data
    do { data = try encoder.encode(manifest) } catch {
      throw FrameSinkError.cannotWrite(
        path: directory + "/frames.json", reason: "cannot encode frames.json")
    }
    try AtomicFile.writeFrameOutput(data, to: directory + "/frames.json")
  }
}
