// Issue #9 through the built `quire`: options out of range are usage errors naming the
// option, no message carries Foundation text or more than a line's worth of input, a render
// owns its folder (lock → 73), leaves no stale pages and no manifest of another render, the
// thread count is cut to the memory budget, and SIGTERM leaves no temporary file.

import Foundation
import QuireCore
import Testing

@testable import Quire

/// A plain-text book of `paragraphs` paragraphs (a few pages at 600x800), written once per
/// name into the tests' temporary folder.
func generatedBook(_ name: String, paragraphs: Int = 60) throws -> String {
  let path = temporaryFolder("book-\(name)") + ".txt"
  let words = "the quick brown fox jumps over a lazy dog while reading a long book"
  let text = (1...paragraphs).map { "Paragraph \($0). " + String(repeating: words + " ", count: 6) }
    .joined(separator: "\n\n")
  try Data(text.utf8).write(to: URL(fileURLWithPath: path))
  return path
}

/// Every stderr line is short and free of Foundation's error text.
func expectCleanStderr(_ r: CommandResult, _ context: String) {
  for line in r.stderr.split(separator: "\n") {
    #expect(line.count <= 400, "\(context): a stderr line of \(line.count) characters")
  }
  for leak in ["NSCocoaErrorDomain", "Error Domain=", "NSError", "localizedDescription"] {
    #expect(!r.stderr.contains(leak), "\(context): Foundation text on stderr: \(r.stderr)")
  }
}

@Suite("Bounded options and output folder (CLI)", .serialized)
struct BoundedCLITests {
  @Test("Options out of range exit 64 naming the option; a truncated font exits 65")
  func badOptions() throws {
    let book = try generatedBook("options")
    let out = temporaryFolder("options-out")
    let folder = temporaryFolder("options-folder")
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let font = packageRoot.appendingPathComponent("fonts/NotoSerif-Regular.ttf").path
    let truncated = temporaryFolder("truncated") + ".ttf"
    try Data(try Data(contentsOf: URL(fileURLWithPath: font)).prefix(20_000))
      .write(to: URL(fileURLWithPath: truncated))
    let long = String(repeating: "x", count: 5000)
    let cases: [([String], Int32, String)] = [
      (["render", book, "-o", out, "--font-size", "400"], 64, "--font-size"),
      (["render", book, "-o", out, "--font-size", "150"], 64, "--font-size"),
      (["render", book, "-o", out, "--font", folder], 64, "--font"),
      (["render", book, "-o", out, "--font", "/dev/zero"], 64, "--font"),
      (["render", book, "-o", out, "--font", truncated], 65, "truncated"),
      (["render", book, "-o", ""], 64, "-o"),
      (["flip", book, "--page", "1", "-o", ""], 64, "-o"),
      (["render", book, "-o", out, "--size", "8192x8192"], 64, "--size"),
      (["render", book, "-o", out, "--line-height", "9"], 64, "--line-height"),
      (["render", book, "-o", out, "--threads", "0"], 64, "--threads"),
      (
        ["flip", book, "--page", "1", "-o", out + ".png", "--duration", "600", "--fps", "240"],
        64, "10000"
      ),
      (["flip", book, "--page", "1", "-o", out + ".png", "--frames", "20000"], 64, "--frames"),
      (["flip", book, "--page", "1", "-o", out + ".png", "--fps", "1000"], 64, "--fps"),
      (["render", book, "-o", out, "--pages", long], 64, "--pages"),
      (["render", book, "-o", out, "--lang", long], 64, "--lang"),
    ]
    for (args, status, needle) in cases {
      let r = try runQuire(args)
      let context = args.dropFirst(2).joined(separator: " ").prefix(80)
      #expect(r.status == status, "\(context): exit \(r.status), stderr \(r.stderr)")
      #expect(r.stderr.contains(needle), "\(context): stderr «\(r.stderr)» lacks «\(needle)»")
      #expect(r.stderr.split(separator: "\n").count == 1, "\(context): not one line")
      expectCleanStderr(r, String(context))
    }
    // Nothing was written for a usage error.
    #expect(!FileManager.default.fileExists(atPath: out))
  }

  @Test("A second render into a locked folder exits 73 and writes nothing")
  func lockContention() throws {
    let book = try generatedBook("lock")
    let out = temporaryFolder("lock-out")
    try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
    // Hold the folder's lock as a running render does.
    let fd = open(out + "/" + OutputFolder.lockName, O_RDWR | O_CREAT, 0o644)
    #expect(fd >= 0)
    defer { close(fd) }
    #expect(flock(fd, LOCK_EX | LOCK_NB) == 0)
    let r = try runQuire(["render", book, "-o", out, "--pages", "1"])
    #expect(r.status == 73, "stderr: \(r.stderr)")
    #expect(r.stderr.contains("another quire process"))
    #expect(!FileManager.default.fileExists(atPath: out + "/page-0001.png"))
    flock(fd, LOCK_UN)
    let again = try runQuire(["render", book, "-o", out, "--pages", "1"])
    #expect(again.status == 0, "stderr: \(again.stderr)")
    #expect(FileManager.default.fileExists(atPath: out + "/page-0001.png"))
  }

  @Test("A re-render removes stale pages; a failed render leaves no old manifest behind")
  func staleOutput() throws {
    let book = try generatedBook("stale")
    let out = temporaryFolder("stale-out")
    let full = try runQuire(["render", book, "-o", out, "--size", "300x400"])
    #expect(full.status == 0, "stderr: \(full.stderr)")
    let pagesBefore = try pageFiles(out)
    #expect(pagesBefore.count > 3)
    // Fewer, bigger pages: the earlier render's page files past the new count go.
    let again = try runQuire(["render", book, "-o", out, "--size", "600x800"])
    #expect(again.status == 0, "stderr: \(again.stderr)")
    let manifest =
      try JSONSerialization.jsonObject(
        with: Data(contentsOf: URL(fileURLWithPath: out + "/manifest.json"))) as? [String: Any]
    let count = try #require(manifest?["pageCount"] as? Int)
    #expect(count < pagesBefore.count)
    #expect(try pageFiles(out).count == count)
    // A render that fails after taking the folder: no manifest stays beside its pages.
    let garbage = temporaryFolder("garbage") + ".epub"
    try Data("PK\u{3}\u{4} not really a zip".utf8).write(to: URL(fileURLWithPath: garbage))
    let failed = try runQuire(["render", garbage, "-o", out])
    #expect(failed.status == 65, "stderr: \(failed.stderr)")
    #expect(!FileManager.default.fileExists(atPath: out + "/manifest.json"))
    #expect(try tmpFiles(out).isEmpty)
  }

  @Test("--threads beyond the memory budget runs fewer workers and says so")
  func threadBudget() throws {
    let book = try generatedBook("threads", paragraphs: 4)
    let out = temporaryFolder("threads-out")
    let r = try runQuire([
      "render", book, "-o", out, "--size", "4096x4096", "--threads", "256", "--color", "rgb",
      "--pages", "1",
    ])
    #expect(r.status == 0, "stderr: \(r.stderr)")
    #expect(r.stderr.contains("note: --threads 256: 4 used"), "stderr: \(r.stderr)")
    var request = RenderRequest(book: URL(fileURLWithPath: book), output: URL(fileURLWithPath: out))
    request.layout = LayoutSettings(pageWidth: 600, pageHeight: 800)
    request.threads = 8
    #expect(request.workerThreads == 8)
    request.layout = LayoutSettings(pageWidth: 4096, pageHeight: 4096)
    request.color = .rgb
    request.threads = 256
    #expect(request.workerThreads == 4)
  }

  @Test("SIGTERM during a flip leaves no temporary file and nothing under the final name")
  func sigterm() throws {
    let book = try generatedBook("signal")
    let folder = temporaryFolder("signal-out")
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let target = folder + "/turn.png"
    let p = Process()
    p.executableURL = URL(fileURLWithPath: try #require(quireExecutable))
    p.arguments = ["flip", book, "--page", "1", "-o", target, "--frames", "5000"]
    p.standardError = FileHandle.nullDevice
    try p.run()
    // Wait until the animation's temporary file exists (the flip is under way).
    let deadline = Date().addingTimeInterval(60)
    while try tmpFiles(folder).isEmpty && p.isRunning && Date() < deadline {
      usleep(50_000)
    }
    #expect(try !tmpFiles(folder).isEmpty, "the flip never started writing")
    kill(p.processIdentifier, SIGTERM)
    p.waitUntilExit()
    #expect(p.terminationReason == .exit && p.terminationStatus == 128 + SIGTERM)
    #expect(try tmpFiles(folder).isEmpty)
    #expect(!FileManager.default.fileExists(atPath: target))
  }

  private func pageFiles(_ folder: String) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: folder).filter {
      $0.hasPrefix("page-") && $0.hasSuffix(".png")
    }
  }

  private func tmpFiles(_ folder: String) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.contains(".tmp-") }
  }
}

@Suite("Bounded requests (library)")
struct BoundedRequestTests {
  @Test("Animation timing: frames, fps and duration × fps are capped with a request error")
  func timingCaps() throws {
    var t = AnimationTiming()
    t.duration = 600
    t.fps = 240
    #expect(throws: QuireError.self) { try t.timeline() }
    t.duration = 10
    t.fps = 30
    #expect(try t.timeline().frameCount == 300)
    t = AnimationTiming(frames: QuireLimits.maxFrames + 1)
    #expect(throws: QuireError.self) { try t.timeline() }
    t = AnimationTiming(frames: 10, fps: .nan)
    #expect(throws: QuireError.self) { try t.timeline() }
  }

  @Test("Layout settings: canvas pixels, font size against the text area")
  func layoutCaps() {
    #expect(LayoutSettings().problem == nil)
    #expect(LayoutSettings(pageWidth: 8192, pageHeight: 8192).problem?.setting == .pageSize)
    #expect(LayoutSettings(pageWidth: 4096, pageHeight: 4096).problem == nil)
    var big = LayoutSettings()
    big.fontSize = 400
    #expect(big.problem?.setting == .fontSize)
    big.fontSize = 130
    #expect(big.problem?.setting == .fontSize)
    big.fontSize = 60
    #expect(big.problem == nil)
  }

  @Test("The streamed manifest is byte for byte the encoded one, with and without boxes")
  func streamedManifest() throws {
    let book = try generatedBook("manifest", paragraphs: 8)
    var plan = PaginationPlan()
    plan.keepBoxes = true
    let settings = LayoutSettings(pageWidth: 300, pageHeight: 400)
    let paginated = try BookPagination(path: book, settings: settings, plan: plan)
      .run(visit: { _, _ in })
    #expect(paginated.records.count > 2)
    var files: [Int: String] = [:]
    for r in paginated.records where r.page.number % 2 == 1 {
      files[r.page.number] = pageFileName(r.page.number, digits: 4)
    }
    for boxes in [false, true] {
      let path = temporaryFolder("streamed-\(boxes)") + ".json"
      let file = try AtomicFile(path: path)
      try Manifest.write(paginated, settings: settings, files: files, boxes: boxes, to: file)
      try file.commit()
      let expected = Manifest(book: paginated, settings: settings, files: files, boxes: boxes)
        .encoded()
      #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == expected, "boxes: \(boxes)")
    }
  }

  @Test("Font files: a truncated table directory or table is refused, a whole font passes")
  func fontFiles() throws {
    let font = try [UInt8](
      Data(contentsOf: packageRoot.appendingPathComponent("fonts/NotoSerif-Regular.ttf")))
    #expect(FontFile.problem(font) == nil)
    #expect(FontFile.problem(Array(font.prefix(20_000)))?.contains("truncated") == true)
    #expect(FontFile.problem(Array(font.prefix(40)))?.contains("truncated") == true)
    #expect(FontFile.problem([UInt8](repeating: 0, count: 4096)) != nil)
    #expect(FontFile.problem(Array("wOFF".utf8) + [UInt8](repeating: 0, count: 40)) != nil)
    let otf = try [UInt8](
      Data(contentsOf: packageRoot.appendingPathComponent("fonts/NotoSerifCJK-Regular.otf")))
    #expect(FontFile.problem(otf) == nil)
  }
}
