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
    let r = try runProcess(
      "/usr/bin/env",
      [
        "python3", packageRoot.appendingPathComponent("scripts/ray/test_quire_ray.py").path,
        "--quire", try #require(quireExecutable), "--corpus", corpus.path,
      ])
    let tail = String(r.stderr.suffix(3000))
    #expect(r.status == 0, "test_quire_ray.py failed:\n\(tail)")
    #expect(r.stdout.contains("\"books\": 6"))
  }
}
