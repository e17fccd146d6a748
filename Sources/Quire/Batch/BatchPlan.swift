// A batch converts many books, each into its own folder under one output root: the plan
// says which books and which folders, before anything runs.
//
// Inputs are book files, folders (searched recursively for book files: .epub, .xhtml,
// .html, .htm, .txt, .text and unpacked EPUB folders, sorted by path so a batch is the same batch every time) and
// lists (a file ending in .list: one path per line, relative to the list's folder, `#`
// comments and blank lines ignored). The same file named twice is converted once. Each book's
// folder is named after its file's stem, reduced to safe characters and cut to 100; names
// that collide (case-insensitively, since output roots may live on such file systems) get
// "-2", "-3", … in input order. Everything is bounded: folder depth, files visited, books.

import Foundation
import QuireCore

/// One book of a batch: the file read and the folder its pages and manifest go to.
public struct BatchBook: Sendable, Hashable {
  /// The book file.
  public var input: URL
  /// The book's output folder under the batch's root.
  public var output: URL
  /// The output folder's name.
  public var name: String
}

/// Which books a batch converts and where each one's outputs go.
public enum BatchPlan {
  /// Book file extensions a folder is searched for.
  public static let bookExtensions: Set<String> = ["epub", "xhtml", "html", "htm", "txt", "text"]
  /// The most books one batch plans (more is refused: split the batch).
  public static let maxBooks = 100_000
  /// Folder levels searched below a folder input.
  public static let maxDepth = 16
  /// Directory entries looked at, in all folders together.
  public static let maxEntriesVisited = 1_000_000
  /// Longest output folder name.
  static let maxNameLength = 100

  /// The books `inputs` name (files, folders, lists), each with a unique folder under
  /// `outputRoot`.
  public static func books(_ inputs: [String], outputRoot: URL) throws(QuireError) -> [BatchBook] {
    var files: [URL] = []
    var budget = maxEntriesVisited
    for input in inputs {
      try collect(URL(fileURLWithPath: input), listDepth: 0, budget: &budget, into: &files)
    }
    var seen = Set<String>()
    var taken = Set<String>()
    var books: [BatchBook] = []
    for file in files where seen.insert(file.standardizedFileURL.path).inserted {
      guard books.count < maxBooks else {
        throw .invalidRequest(.batchSize(maxBooks))
      }
      let name = uniqueName(folderName(file), taken: &taken)
      books.append(
        BatchBook(input: file, output: outputRoot.appendingPathComponent(name), name: name))
    }
    return books
  }

  private static func collect(
    _ url: URL, listDepth: Int, budget: inout Int, into files: inout [URL]
  ) throws(QuireError) {
    var isFolder: ObjCBool = false
    guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) else {
      throw .cannotOpen(file: url.path, reason: "no such file or folder")
    }
    if isFolder.boolValue && !isUnpackedEPUB(url) {
      files += bookFiles(in: url, depth: 0, budget: &budget)
    } else if url.pathExtension.lowercased() == "list" {
      // A list naming lists is followed one level only: no cycles, no fan-out bombs.
      guard listDepth == 0 else {
        throw .badData(file: url.path, reason: "a list inside a list is not followed")
      }
      for entry in try listEntries(url) {
        try collect(entry, listDepth: listDepth + 1, budget: &budget, into: &files)
      }
    } else {
      files.append(url)
    }
  }

  /// Book files under `folder`, sorted by path; hidden entries are skipped.
  static func bookFiles(in folder: URL, depth: Int, budget: inout Int) -> [URL] {
    guard depth <= maxDepth, budget > 0 else { return [] }
    let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
      .filter { !$0.hasPrefix(".") }.sorted()
    var out: [URL] = []
    for name in names {
      guard budget > 0 else { break }
      budget -= 1
      let url = folder.appendingPathComponent(name)
      var isFolder: ObjCBool = false
      guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) else {
        continue
      }
      if isFolder.boolValue && isUnpackedEPUB(url) {
        out.append(url)
      } else if isFolder.boolValue {
        out += bookFiles(in: url, depth: depth + 1, budget: &budget)
      } else if bookExtensions.contains(url.pathExtension.lowercased()) {
        out.append(url)
      }
    }
    return out
  }

  /// A folder holding META-INF/container.xml is one book (an unpacked EPUB), not a folder
  /// of books.
  static func isUnpackedEPUB(_ folder: URL) -> Bool {
    FileManager.default.fileExists(
      atPath: folder.appendingPathComponent("META-INF/container.xml").path)
  }

  /// The paths a list names, resolved against the list's folder. Lists are small text files:
  /// more than 16 MB is refused.
  static func listEntries(_ list: URL) throws(QuireError) -> [URL] {
    let data: Data
    do { data = try Data(contentsOf: list, options: .mappedIfSafe) } catch {
      throw .cannotOpen(file: list.path, reason: "cannot read the list")
    }
    guard data.count <= 16 << 20 else {
      throw .badData(file: list.path, reason: "a list over 16 MB")
    }
    let base = list.deletingLastPathComponent()
    return String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline)
      .map { $0.trimmingCharacters(in: .whitespaces) }
      .filter { !$0.isEmpty && !$0.hasPrefix("#") }
      .map { $0.hasPrefix("/") ? URL(fileURLWithPath: $0) : base.appendingPathComponent($0) }
  }

  /// A folder name from the file's stem: letters, digits, "-", "_" and "." (not leading),
  /// everything else "_"; "book" when nothing is left.
  static func folderName(_ file: URL) -> String {
    let stem = file.deletingPathExtension().lastPathComponent
    var name = String(
      stem.unicodeScalars.prefix(maxNameLength).map { v -> Character in
        let ok =
          (v.properties.isAlphabetic || v.properties.numericType != nil || v == "-" || v == "_"
            || v == ".") && v.value > 0x20
        return ok ? Character(v) : "_"
      })
    while name.hasPrefix(".") { name.removeFirst() }
    return name.isEmpty ? "book" : name
  }

  private static func uniqueName(_ base: String, taken: inout Set<String>) -> String {
    var name = base
    var k = 2
    while !taken.insert(name.lowercased()).inserted {
      name = "\(base)-\(k)"
      k += 1
    }
    return name
  }
}
