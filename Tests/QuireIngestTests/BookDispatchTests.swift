import Foundation
import Testing

@testable import QuireIngest

struct BookDispatchTests {
  static func temporaryFolder(_ name: String) throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "quire-\(name)-\(getpid())")
    try? FileManager.default.removeItem(at: url)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  @Test func singleXHTMLFileIsAOneChapterBook() throws {
    let folder = try Self.temporaryFolder("xhtml")
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("story.xhtml")
    try Data("<html xmlns=\"http://www.w3.org/1999/xhtml\"><body><p>Hi</p></body></html>".utf8)
      .write(to: file)
    let doc = try Book.open(file)
    #expect(doc.format == .html)
    #expect(doc.chapters.map(\.href) == ["story.xhtml"])
    #expect(doc.chapters.first?.mediaType == "application/xhtml+xml")
    #expect(doc.metadata.title == "story")
  }

  @Test func sniffsHTMLWithoutExtension() throws {
    let folder = try Self.temporaryFolder("sniff")
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("page")
    try Data("\u{FEFF}  <!DOCTYPE html><html><body>x</body></html>".utf8).write(to: file)
    #expect(try Book.open(file).format == .html)
    let text = folder.appendingPathComponent("notes")
    try Data("Just words.\n\nMore words.".utf8).write(to: text)
    #expect(try Book.open(text).format == .text)
  }

  @Test func specialFilesAreNotRead() {
    #expect(throws: IngestError.cannotOpen(path: "/dev/zero", reason: "not a regular file")) {
      try Book.open(URL(fileURLWithPath: "/dev/zero"))
    }
  }

  @Test func fileSizeCapIsEnforced() throws {
    let file = try Self.temporaryFolder("cap").appendingPathComponent("big.txt")
    defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
    try Data(count: 100).write(to: file)
    #expect(try Book.readFile(file, limit: 100).count == 100)
    let e = #expect(throws: IngestError.self) { try Book.readFile(file, limit: 99) }
    #expect(e?.limit == .fileBytes)
    #expect(e?.reason.contains("maxFileBytes=99") == true)
  }

  @Test func binaryDetection() {
    #expect(!Book.looksBinary(Data("plain".utf8)))
    #expect(!Book.looksBinary(Data([0x68, 0, 0x69, 0])))  // UTF-16LE "hi"
    #expect(!Book.looksBinary(Data([0xFF, 0xFE, 0, 0, 1, 0])))  // BOM
    #expect(Book.looksBinary(Data([0x89, 0x50, 0, 0, 0, 0x0D])))
  }

  @Test func folderNeverServesFilesOutsideItself() throws {
    let folder = try Self.temporaryFolder("escape")
    defer { try? FileManager.default.removeItem(at: folder) }
    try FileManager.default.createDirectory(
      at: folder.appendingPathComponent("OEBPS"), withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(
      atPath: folder.appendingPathComponent("OEBPS/passwd.xhtml").path,
      withDestinationPath: "/etc/passwd")
    try Data("inside".utf8).write(to: folder.appendingPathComponent("OEBPS/ok.txt"))
    let files = FolderFiles(root: folder, limits: IngestLimits())
    #expect(files.contains("OEBPS/ok.txt"))
    #expect(try files.read("OEBPS/ok.txt") == Data("inside".utf8))
    #expect(!files.contains("OEBPS/passwd.xhtml"))
    #expect(throws: IngestError.self) { try files.read("OEBPS/passwd.xhtml") }
    #expect(throws: IngestError.self) {
      try files.read("../\(folder.lastPathComponent)/OEBPS/ok.txt")
    }
    #expect(throws: IngestError.self) { try files.read("/etc/passwd") }
  }

  @Test func unpackedBookWhoseOnlyChapterLinksOutsideIsRefused() throws {
    let folder = try Self.temporaryFolder("unpacked-link")
    defer { try? FileManager.default.removeItem(at: folder) }
    let archive = try ZipArchive(
      data: try Data(contentsOf: Hostile.url("minimal.epub")), file: "m", limits: IngestLimits())
    for entry in archive.entries {
      let url = folder.appendingPathComponent(entry.name)
      try FileManager.default.createDirectory(
        at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try archive.read(entry.name).write(to: url)
    }
    let chapter = folder.appendingPathComponent("OEBPS/ch1.xhtml")
    try FileManager.default.removeItem(at: chapter)
    try FileManager.default.createSymbolicLink(
      atPath: chapter.path, withDestinationPath: "/etc/passwd")
    #expect(throws: IngestError.self) { try Book.open(folder) }
    Hostile.expectNoHostContent(try Book.open(Hostile.url("minimal.epub")))
  }

  @Test func folderWithoutContainerIsBadData() throws {
    let folder = try Self.temporaryFolder("plain-folder")
    defer { try? FileManager.default.removeItem(at: folder) }
    #expect(throws: IngestError.self) { try Book.open(folder) }
  }
}
