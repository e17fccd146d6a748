// Reference tools the tests compare against (PIL as a PNG decoder, ffprobe), run as child
// processes with their standard output captured.

import Foundation

/// A child process run to completion.
public enum Subprocess {
  /// Debian's python3 (with python3-pil); the `python3` on PATH may be a pyenv without PIL.
  public static let python = "/usr/bin/python3"

  /// Whether `python` can import PIL.
  public static let hasPIL: Bool = {
    FileManager.default.isExecutableFile(atPath: python)
      && (try? run(python, ["-c", "import PIL.Image"]))?.status == 0
  }()

  /// Runs `executable` with `arguments`; its exit status and standard output (standard error
  /// is discarded).
  public static func run(_ executable: String, _ arguments: [String]) throws
    -> (status: Int32, out: Data)
  {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: executable)
    p.arguments = arguments
    let out = Pipe()
    p.standardOutput = out
    p.standardError = FileHandle.nullDevice
    try p.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    return (p.terminationStatus, data)
  }
}
