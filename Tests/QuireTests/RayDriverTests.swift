// The Ray driver (scripts/ray/quire_ray.py, issue #16) on a local Ray cluster of two nodes
// that scripts/ray/test_quire_ray.py starts: corpus books and a damaged one through the
// built `quire`, one worker killed (the retry path), resume, the object-storage writer.
// Skipped, saying why, only when Python cannot import ray (scripts/install-deps.sh installs
// it from PyPI).

import Foundation
import Testing

/// Whether `python3 -c "import ray"` works.
private let rayImportable: Bool = {
  let p = Process()
  p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
  p.arguments = ["python3", "-c", "import ray"]
  p.standardOutput = FileHandle.nullDevice
  p.standardError = FileHandle.nullDevice
  guard (try? p.run()) != nil else { return false }
  p.waitUntilExit()
  return p.terminationStatus == 0
}()

@Suite struct RayDriverTests {
  @Test(
    "Ray driver: corpus books on a local two-node cluster, a worker lost, a damaged book",
    .enabled(
      if: rayImportable, "python3 cannot import ray (pip install ray; install-deps.sh does)"),
    .enabled(if: corpusPresent, "the corpus (../shared/corpus) is missing"),
    .timeLimit(.minutes(10)))
  func corpusOnTwoWorkers() throws {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    p.arguments = [
      "python3", packageRoot.appendingPathComponent("scripts/ray/test_quire_ray.py").path,
      "--quire", try #require(quireExecutable), "--corpus", corpus.path,
    ]
    var environment = ProcessInfo.processInfo.environment
    environment["XDG_CACHE_HOME"] = temporaryFolder("ray-xdg-cache")
    p.environment = environment
    let out = Pipe()
    let err = Pipe()
    p.standardOutput = out
    p.standardError = err
    try p.run()
    let stdout = out.fileHandleForReading.readDataToEndOfFile()
    let stderr = err.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    let tail = String(decoding: stderr.suffix(3000), as: UTF8.self)
    #expect(p.terminationStatus == 0, "test_quire_ray.py failed:\n\(tail)")
    #expect(String(decoding: stdout, as: UTF8.self).contains("\"books\": 6"))
  }
}
