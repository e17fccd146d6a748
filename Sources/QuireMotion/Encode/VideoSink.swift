import Foundation

/// MP4 (H.264) or WebM (VP9) through the `ffmpeg` program: frames converted to planar 4:2:0
/// (`PlanarYUV`, in the parallel per-frame step) are piped to
/// `ffmpeg -f rawvideo -pix_fmt yuv420p -s WxH -r FPS -i - …`, so ffmpeg only encodes.
/// yuv420p needs even dimensions, so odd sizes are padded by one white row/column. ffmpeg
/// writes to the temporary file of an `AtomicFile` in the output folder; `finish` commits
/// (renames) it, and a failed run discards it. Linking libavcodec instead would add a
/// large C surface for an optional output; the program is the stable interface.
///
/// H.264 is x264's `superfast` preset at CRF 18: on a 60-frame curl at 600x800 it takes 0.31
/// CPU-seconds against `fast`'s 0.78 at the same quality (PSNR 47.4 against 47.6 dB, SSIM
/// 0.9987 against 0.9988) for a file 1.6× larger (183 against 113 kB; Benchmarks/flip.md,
/// session 12) — the encoder, not the drawing, bounded the frames per second. x264 runs on
/// one thread (`-threads 1`: no frame threads, lookahead on the same thread): it costs the
/// same CPU-seconds as x264's default of 1.5 threads a core (0.33–0.35 s on that curl, equal
/// quality, a file 1 % smaller) but no longer competes with the recorder's frame workers for
/// the cores, which is what made the end-to-end rate swing from run to run (session 13).
package struct VideoSink: FrameSink {
  package let path: String
  package let width: Int
  package let height: Int
  package let encoder: @Sendable (PixelBuffer, PixelBuffer?) throws -> Data
  private let process: Process
  private let input: FileHandle
  private let errors: Pipe
  private let file: AtomicFile
  private var frameCount = 0
  private var finished = false

  /// The ffmpeg executable on PATH, if any.
  package static func ffmpegPath(searching searchPath: String? = nil) -> String? {
    let path = searchPath ?? ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    for dir in path.split(separator: ":") {
      let candidate = String(dir) + "/ffmpeg"
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    return nil
  }

  /// `searchPath`: directories to look for ffmpeg in (colon-separated; default $PATH).
  package init(path: String, fps: Double, width: Int, height: Int, searchPath: String? = nil)
    throws
  {
    guard let ffmpeg = Self.ffmpegPath(searching: searchPath) else {
      throw FrameSinkError.ffmpegNotFound(path: path)
    }
    guard width > 0, height > 0, width <= 16384, height <= 16384 else {
      throw FrameSinkError.cannotCreate(path: path, reason: "bad frame size \(width)x\(height)")
    }
    let ext = (path as NSString).pathExtension.lowercased()
    let codec: [String]
    let container: String
    switch ext {
    case "webm":
      codec = [
        "-c:v", "libvpx-vp9", "-b:v", "0", "-crf", "32", "-deadline", "realtime",
        "-cpu-used", "8",
      ]
      container = "webm"
    default:
      codec = [
        "-c:v", "libx264", "-preset", "superfast", "-crf", "18", "-threads", "1", "-movflags",
        "+faststart",
      ]
      container = "mp4"
    }
    self.path = path
    self.width = width
    self.height = height
    do { file = try AtomicFile(path: path) } catch {
      throw FrameSinkError.cannotCreate(path: path, reason: error.reason)
    }
    let even = PlanarYUV.paddedSize(width: width, height: height)
    let p = Process()
    p.executableURL = URL(fileURLWithPath: ffmpeg)
    p.arguments =
      [
        "-hide_banner", "-loglevel", "error", "-y", "-f", "rawvideo", "-pix_fmt", "yuv420p",
        "-s", "\(even.width)x\(even.height)", "-r", String(fps), "-i", "-",
      ]
      + codec + ["-f", container, file.temporaryPath]
    let stdin = Pipe()
    errors = Pipe()
    p.standardInput = stdin
    p.standardOutput = FileHandle.nullDevice
    p.standardError = errors
    // A dead ffmpeg must surface as a write error, not kill us with SIGPIPE.
    signal(SIGPIPE, SIG_IGN)
    do { try p.run() } catch {
      throw FrameSinkError.cannotCreate(path: path, reason: "cannot start ffmpeg")
    }
    process = p
    input = stdin.fileHandleForWriting
    Self.widen(input)
    let w = width
    let h = height
    encoder = { frame, _ in
      guard frame.width == w && frame.height == h else {
        throw FrameSinkError.frameSize(
          path: path, expected: "\(w)x\(h)", got: "\(frame.width)x\(frame.height)")
      }
      return PlanarYUV.data(frame)
    }
  }

  /// Asks Linux for a 1 MB pipe (F_SETPIPE_SZ, 1031; the default is 64 kB), so a frame is a
  /// few writes instead of dozens of wake-ups of both processes. Best effort: a refusal
  /// (a lower /proc/sys/fs/pipe-max-size) leaves the default.
  private static func widen(_ pipe: FileHandle) {
    #if os(Linux)
      _ = fcntl(pipe.fileDescriptor, 1031, Int32(1 << 20))
    #endif
  }

  package mutating func append(_ frame: Data, info: FrameInfo) throws {
    do { try input.write(contentsOf: frame) } catch {
      try? input.close()
      process.waitUntilExit()
      file.discard()
      throw FrameSinkError.ffmpegFailed(
        path: path, status: process.terminationStatus, message: errorText())
    }
    frameCount += 1
  }

  package mutating func finish() throws {
    try? input.close()
    process.waitUntilExit()
    guard process.terminationStatus == 0, frameCount > 0 else {
      file.discard()
      if frameCount == 0 { throw FrameSinkError.noFrames(path: path) }
      throw FrameSinkError.ffmpegFailed(
        path: path, status: process.terminationStatus, message: errorText())
    }
    do { try file.commit() } catch {
      throw FrameSinkError.cannotWrite(path: path, reason: error.reason)
    }
  }

  private func errorText() -> String {
    let data = errors.fileHandleForReading.availableData
    return String(decoding: data.prefix(2000), as: UTF8.self)
      .trimmingCharacters(in: .whitespacesAndNewlines)
  }
}
