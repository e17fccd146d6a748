// `quire batch` (issue #16): the plan (folders, lists, unpacked EPUBs, names), resuming by
// stamp (every part of the stamp invalidates), failure isolation, and the CLI end to end
// with a damaged book among good ones.

import Foundation
import Synchronization
import Testing

@testable import Quire

/// A converter that writes a manifest of `pages` pages (or fails for names in `failing`)
/// and counts its calls.
private final class FakeConverter: Sendable {
  let calls = Mutex<[String]>([])
  let failing: Set<String>
  init(failing: Set<String> = []) { self.failing = failing }

  func convert(_ book: BatchBook) -> BatchConversion {
    calls.withLock { $0.append(book.name) }
    if failing.contains(book.name) { return BatchConversion(exitCode: 65, error: "bad book") }
    try? FileManager.default.createDirectory(at: book.output, withIntermediateDirectories: true)
    let manifest = #"{"pageCount": 7, "warnings": [{"count": 3}, {"count": 1}]}"#
    try? Data(manifest.utf8).write(to: book.output.appendingPathComponent("manifest.json"))
    return BatchConversion(exitCode: 0)
  }
}

@Suite struct BatchTests {
  private func folder(_ name: String, _ files: [String: String]) throws -> URL {
    let root = URL(fileURLWithPath: temporaryFolder(name))
    for (path, text) in files {
      let url = root.appendingPathComponent(path)
      try FileManager.default.createDirectory(
        at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data(text.utf8).write(to: url)
    }
    return root
  }

  @Test func planFindsBooksInFoldersAndListsWithUniqueNames() throws {
    let root = try folder(
      "batch-plan",
      [
        "a/One Book.epub": "x", "a/notes.md": "x", "a/.hidden.epub": "x", "a/b/one book.txt": "x",
        "a/unpacked/META-INF/container.xml": "x", "a/unpacked/OPS/c.xhtml": "x",
        "extra.html": "x", "books.list": "# two\nextra.html\n\na/One Book.epub\n",
      ])
    let out = URL(fileURLWithPath: "/out")
    let books = try BatchPlan.books(
      [root.appendingPathComponent("a").path, root.appendingPathComponent("books.list").path],
      outputRoot: out)
    // Sorted by path inside the folder, the unpacked EPUB is one book, the hidden file and
    // the .md are not books, the list's repeat of One Book is dropped.
    #expect(books.map(\.name) == ["One_Book", "one_book-2", "unpacked", "extra"])
    #expect(books[0].output.path == "/out/One_Book")
    #expect(books[2].input.lastPathComponent == "unpacked")
    #expect(throws: QuireError.self) {
      try BatchPlan.books([root.appendingPathComponent("missing.epub").path], outputRoot: out)
    }
    let nested = try folder("batch-nested", ["l1.list": "l2.list\n", "l2.list": "x.epub\n"])
    #expect(throws: QuireError.self) {
      try BatchPlan.books([nested.appendingPathComponent("l1.list").path], outputRoot: out)
    }
    #expect(BatchPlan.folderName(URL(fileURLWithPath: "/x/y/...")) == "book")
    #expect(BatchPlan.folderName(URL(fileURLWithPath: "/x/%*?.epub")) == "___")
    #expect(BatchPlan.folderName(URL(fileURLWithPath: "/x/a b:c.epub")) == "a_b_c")
  }

  @Test func resumeSkipsStampedBooksAndEveryStampPartInvalidates() throws {
    let input = try folder(
      "batch-resume", ["one.txt": "Call me Ishmael.", "two.txt": "It was a dark night."])
    let out = URL(fileURLWithPath: temporaryFolder("batch-out"))
    let books = try BatchPlan.books([input.path], outputRoot: out)
    func run(_ settings: String, force: Bool = false) throws -> (BatchReport, [String]) {
      let fake = FakeConverter()
      var r = BatchRequest(books: books, outputRoot: out, settings: settings)
      r.jobs = 2
      r.force = force
      let report = try BatchJob.run(r, convert: fake.convert)
      return (report, fake.calls.withLock { $0 }.sorted())
    }
    let (first, firstCalls) = try run("--size 300x400")
    #expect(firstCalls == ["one", "two"])
    #expect(first.books.map(\.status) == [.converted, .converted])
    #expect(first.books.map(\.pages) == [7, 7] && first.books.map(\.warnings) == [4, 4])
    // Same books, same settings: nothing converted.
    let (again, againCalls) = try run("--size 300x400")
    #expect(againCalls.isEmpty && again.books.map(\.status) == [.skipped, .skipped])
    #expect(again.books.map(\.pages) == [7, 7])
    // A changed book converts that book only.
    try Data("Call me Ishmael!".utf8).write(to: input.appendingPathComponent("one.txt"))
    #expect(try run("--size 300x400").1 == ["one"])
    // Other settings, a corrupt stamp, a missing manifest, --force: converted again.
    #expect(try run("--size 600x800").1 == ["one", "two"])
    try Data("{not json".utf8).write(
      to: out.appendingPathComponent("two").appendingPathComponent(BatchJob.stampName))
    #expect(try run("--size 600x800").1 == ["two"])
    try FileManager.default.removeItem(
      at: out.appendingPathComponent("one").appendingPathComponent("manifest.json"))
    #expect(try run("--size 600x800").1 == ["one"])
    #expect(try run("--size 600x800", force: true).1 == ["one", "two"])
    // A stamp from another engine version does not match.
    let stampURL = out.appendingPathComponent("one").appendingPathComponent(BatchJob.stampName)
    let stamp = try String(contentsOf: stampURL, encoding: .utf8)
    try Data(stamp.replacingOccurrences(of: layoutEngineVersion, with: "quire-typeset/0").utf8)
      .write(to: stampURL)
    #expect(try run("--size 600x800").1 == ["one"])
    let summary = try Data(contentsOf: out.appendingPathComponent(BatchJob.summaryName))
    let decoded = try JSONDecoder().decode(BatchReport.self, from: summary)
    #expect(decoded.format == "quire-batch/1" && decoded.books.count == 2)
  }

  @Test func oneFailingBookNeverStopsTheBatch() throws {
    let input = try folder("batch-fail-in", ["a.txt": "a", "b.txt": "b", "c.txt": "c"])
    let out = URL(fileURLWithPath: temporaryFolder("batch-fail"))
    let fake = FakeConverter(failing: ["b"])
    var r = BatchRequest(
      books: try BatchPlan.books([input.path], outputRoot: out), outputRoot: out, settings: "")
    r.jobs = 3
    let report = try BatchJob.run(r, convert: fake.convert)
    #expect(report.books.map(\.status) == [.converted, .failed, .converted])
    #expect(report.books[1].exitCode == 65 && report.books[1].error == "bad book")
    #expect(report.books[1].pages == nil)
    #expect(!FileManager.default.fileExists(atPath: out.path + "/b/" + BatchJob.stampName))
    // The failed book is tried again next time; the others are not.
    let again = FakeConverter()
    _ = try BatchJob.run(r, convert: again.convert)
    #expect(again.calls.withLock { $0 } == ["b"])
  }

  @Test("quire batch: real books, a damaged one, resume, summary.json")
  func commandLine() throws {
    guard quireExecutable != nil else {
      Issue.record("quire executable not built")
      return
    }
    let input = URL(fileURLWithPath: temporaryFolder("batch-cli-in"))
    try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
    let sample = packageRoot.appendingPathComponent("samples/xiyouji-chapter1.txt")
    try FileManager.default.copyItem(at: sample, to: input.appendingPathComponent("xiyouji.txt"))
    try Data([0x50, 0x4B, 0x03, 0x04, 1, 2, 3]).write(to: input.appendingPathComponent("junk.epub"))
    let out = temporaryFolder("batch-cli-out")
    let args = ["batch", input.path, "-o", out, "--size", "300x400", "--jobs", "2"]
    let first = try runQuire(args)
    #expect(first.status == 65, "\(first.stderr)")
    #expect(first.stderr.contains("junk.epub") && first.stderr.contains("1 failed"))
    let report = try JSONDecoder().decode(
      BatchReport.self, from: try Data(contentsOf: URL(fileURLWithPath: out + "/summary.json")))
    #expect(report.books.map(\.output) == ["junk", "xiyouji"])
    #expect(report.books.map(\.status) == [.failed, .converted])
    let pages = try #require(report.books[1].pages)
    #expect(pages > 1)
    #expect(FileManager.default.fileExists(atPath: out + "/xiyouji/page-0001.png"))
    #expect(report.settings == "--size 300x400")
    let second = try runQuire(args)
    #expect(second.stderr.contains("0 converted, 1 skipped, 1 failed"), "\(second.stderr)")
    let usage = try runQuire(["batch", input.path, "-o", out, "--pages", "1"])
    #expect(usage.status == 64)
  }
}
