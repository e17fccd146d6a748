// Findings of the structure-aware `epub` fuzz target (Fuzz/EPUBFuzz.swift), one focused
// test each, per Fuzz/README.md's rule. Their fixtures live in Fixtures/hostile/ (fuzz-*), so
// the sweep in HostileInputTests also opens them.

import Foundation
import Testing

@testable import QuireIngest

@Suite("Fuzz regressions (epub target)", .serialized)
struct FuzzRegressionTests {
  /// Seconds to open `name`: the faster of two opens (less noise on a shared machine).
  func openSeconds(_ name: String) -> (seconds: Double, error: IngestError?) {
    var best = Double.infinity
    var error: IngestError? = nil
    for _ in 0..<2 {
      let start = Date()
      error = Hostile.error(name)
      best = min(best, Date().timeIntervalSince(start))
    }
    return (best, error)
  }

  /// Fuzz finding (epub run 1, 2026-11-30): the mutator duplicated the spine's itemref, so
  /// one 1.1 MB chapter (1.7 KB compressed, 100k-deep nesting) is referenced 16 times (45 in
  /// the artifact). Each reference converts the chapter again: the cost is spine length ×
  /// chapter size with no per-book bound (45 references: 13.7 s in a release build; 2,000
  /// would be minutes) — issue #9's "elements and text bytes per book". Opening it must cost
  /// about one conversion (convert a document once) or stop at a per-book limit that names
  /// the book; never 16 conversions.
  @Test func fuzzTimeoutSpineRepeatsIsNotSixteenConversions() throws {
    let once = openSeconds("fuzz-timeout-markup-flatten.epub")
    #expect(once.error == nil)
    let repeated = openSeconds("fuzz-timeout-spine-repeats.epub")
    if let error = repeated.error {
      #expect(error.description.contains("fuzz-timeout-spine-repeats.epub"), "\(error)")
    }
    #expect(
      repeated.seconds <= 3 * once.seconds + 0.5,
      "16 spine references to one chapter took \(repeated.seconds) s, one took \(once.seconds) s")
  }
}
