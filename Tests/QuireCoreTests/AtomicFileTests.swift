import Foundation
import QuireCore
import Testing

@Suite struct AtomicFileTests {
  /// A fresh empty folder for one test.
  static func folder(_ name: String) throws -> String {
    let dir = NSTemporaryDirectory() + "quire-core-tests-\(getpid())/\(name)"
    try? FileManager.default.removeItem(atPath: dir)
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    return dir
  }

  static func contents(_ dir: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).sorted()
  }

  @Test func commitRenamesIntoPlaceAndLeavesNothingElse() throws {
    let dir = try Self.folder("commit")
    let file = try AtomicFile(path: dir + "/page-0001.png")
    #expect(Self.contents(dir) == [URL(fileURLWithPath: file.temporaryPath).lastPathComponent])
    try file.write([1, 2, 3, 4, 5])
    try file.write(Data([6, 7]))
    try file.write([9, 9], at: 1)  // patch, append position unchanged
    try file.write([8])
    #expect(Self.contents(dir) != ["page-0001.png"])  // nothing under the name before commit
    try file.commit()
    #expect(Self.contents(dir) == ["page-0001.png"])
    #expect(
      try Data(contentsOf: URL(fileURLWithPath: dir + "/page-0001.png"))
        == Data([1, 9, 9, 4, 5, 6, 7, 8]))
  }

  @Test func aWriterDroppedWithoutCommitLeavesNeitherTemporaryNorPartialFile() throws {
    let dir = try Self.folder("dropped")
    try AtomicFile.write(Array("old".utf8), to: dir + "/out.json")
    do {
      let file = try AtomicFile(path: dir + "/out.json")
      try file.write(Array("half of the new".utf8))
      // An error before commit: the writer goes out of scope.
    }
    #expect(Self.contents(dir) == ["out.json"])
    #expect(try String(contentsOfFile: dir + "/out.json", encoding: .utf8) == "old")
  }

  @Test func aFailedOpenNamesTheStepAndCreatesNothing() throws {
    let dir = try Self.folder("open")
    #expect {
      try AtomicFile.write([1], to: dir + "/missing-folder/page.png")
    } throws: { error in
      guard let e = error as? AtomicFileError else { return false }
      return e.step == .open && e.path == dir + "/missing-folder/page.png"
        && e.reason.hasPrefix("open: ")
    }
    #expect(Self.contents(dir).isEmpty)
  }

  @Test func aFailedRenameRemovesTheTemporaryFileAndKeepsTheTarget() throws {
    let dir = try Self.folder("rename")
    // A non-empty folder under the target's name: rename(2) cannot replace it.
    try FileManager.default.createDirectory(
      atPath: dir + "/frames/keep", withIntermediateDirectories: true)
    let file = try AtomicFile(path: dir + "/frames")
    try file.write([1, 2, 3])
    #expect {
      try file.commit()
    } throws: { error in
      (error as? AtomicFileError)?.step == .rename
    }
    #expect(Self.contents(dir) == ["frames"])
    #expect(Self.contents(dir + "/frames") == ["keep"])
  }

  @Test func discardRemovesTheTemporaryFile() throws {
    let dir = try Self.folder("discard")
    let file = try AtomicFile(path: dir + "/movie.mp4")
    try file.write([0, 1])
    file.discard()
    file.discard()  // twice is harmless
    #expect(Self.contents(dir).isEmpty)
  }

  @Test func writersOfOneTargetGetDistinctTemporaryNames() throws {
    let dir = try Self.folder("distinct")
    let a = try AtomicFile(path: dir + "/x.png")
    let b = try AtomicFile(path: dir + "/x.png")
    #expect(a.temporaryPath != b.temporaryPath)
    try a.write([1])
    try b.write([2])
    try a.commit()
    try b.commit()
    #expect(Self.contents(dir) == ["x.png"])
    #expect(try Data(contentsOf: URL(fileURLWithPath: dir + "/x.png")) == Data([2]))
  }
}
