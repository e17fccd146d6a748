// The registry of temporary files in progress: an interrupted process removes exactly the
// files of unfinished `AtomicFile`s (issue #9).

import Foundation
import Testing

@testable import QuireCore

@Suite("Atomic file registry", .serialized)
struct AtomicFileRegistryTests {
  @Test("A temporary file is registered until commit or discard, and removeAll unlinks it")
  func registry() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "quire-registry-\(getpid())")
    try? FileManager.default.removeItem(at: folder)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let a = try AtomicFile(path: folder.appendingPathComponent("a.bin").path)
    try a.write([1, 2, 3])
    #expect(AtomicFileRegistry.inProgress.contains(a.temporaryPath))
    try a.commit(sync: true)
    #expect(!AtomicFileRegistry.inProgress.contains(a.temporaryPath))
    #expect(FileManager.default.fileExists(atPath: a.path))
    try AtomicFile.syncFolder(folder.path)

    let b = try AtomicFile(path: folder.appendingPathComponent("b.bin").path)
    try b.write([4, 5])
    #expect(FileManager.default.fileExists(atPath: b.temporaryPath))
    #expect(AtomicFileRegistry.removeAll(closing: false, under: folder.path) == 1)
    #expect(!FileManager.default.fileExists(atPath: b.temporaryPath))
    #expect(!FileManager.default.fileExists(atPath: b.path))
    // Committing a file whose temporary was removed fails without a trap.
    #expect(throws: AtomicFileError.self) { try b.commit() }
    #expect(throws: AtomicFileError.self) { try b.commit() }
    try? FileManager.default.removeItem(at: folder)
  }
}
