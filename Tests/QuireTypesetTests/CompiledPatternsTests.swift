import CHyphen
import Foundation
import QuireIngest
import Synchronization
import Testing

@testable import QuireTypeset

/// Compiled pattern tries (CompiledPatterns.swift): read back, they are libhyphen's own
/// structure state for state and hyphenate alike; the file is keyed by the pattern file's
/// bytes and the format version; truncated, garbled or forged files are misses; concurrent
/// writers leave one whole file.
@Suite struct CompiledPatternsTests {
  static let words = [
    "hyphenation", "extraordinary", "typesetting", "representation", "communication",
    "silbentrennung", "schifffahrt", "donaudampfschiffahrt", "informatique",
    "anticonstitutionnellement",
    "paralelepipedo", "ontwikkelingssamenwerking", "ingegneria", "a", "",
  ]

  static func folder(_ name: String) -> String {
    let path = NSTemporaryDirectory() + "quire-compiled-\(name)-\(getpid())"
    try? FileManager.default.removeItem(atPath: path)
    return path
  }

  /// libhyphen's answer for `word`: the hyphen digits and any replacement points.
  static func hyphens(_ dict: UnsafeMutablePointer<HyphenDict>, _ word: String) -> String {
    let bytes = Array(word.utf8)
    var out = [CChar](repeating: 0, count: bytes.count + 5)
    var rep: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = nil
    var pos: UnsafeMutablePointer<Int32>? = nil
    var cut: UnsafeMutablePointer<Int32>? = nil
    let text = bytes.map { CChar(bitPattern: $0) } + [0]
    _ = hnj_hyphen_hyphenate2(dict, text, Int32(bytes.count), &out, nil, &rep, &pos, &cut)
    var answer = String(
      decoding: out.prefix(bytes.count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    if let rep, let pos, let cut {
      for i in 0..<bytes.count {
        if let r = rep[i] { answer += " \(i):\(String(cString: r)),\(pos[i]),\(cut[i])" }
        free(rep[i])
      }
      free(rep)
      free(pos)
      free(cut)
    }
    return answer
  }

  static func source(_ path: String) throws -> (text: [UInt8], hash: [UInt8]) {
    let text = try #require(CompiledPatterns.readFile(path, limit: CompiledPatterns.maxFileBytes))
    return (text, SHA1.digest(text))
  }

  @Test func readBackIsLibhyphensStructureAndHyphenatesAlike() throws {
    let paths = PatternLoaderTests.dictionaries
    guard !paths.isEmpty else {
      print("skip: no /usr/share/hyphen dictionaries")
      return
    }
    for path in paths {
      let (text, hash) = try Self.source(path)
      let built = try #require(PatternLoader.load(bytes: text), "\(path)")
      defer { hnj_hyphen_free(built) }
      let bytes = try #require(CompiledPatterns.encode(built, source: hash), "\(path)")
      let read = try #require(
        bytes.withUnsafeBytes { CompiledPatterns.decode($0, source: hash) }, "\(path)")
      defer { free(read) }
      let theirs = try #require(hnj_hyphen_load(path))
      defer { hnj_hyphen_free(theirs) }
      #expect(PatternLoaderTests.difference(read, theirs) == nil, "\(path)")
      for word in Self.words {
        #expect(Self.hyphens(read, word) == Self.hyphens(theirs, word), "\(path): \(word)")
      }
    }
  }

  @Test(.enabled(if: FileManager.default.fileExists(atPath: "/usr/share/hyphen/hyph_en_US.dic")))
  func keyedByThePatternBytesAndTheVersion() throws {
    let folder = Self.folder("key")
    let (text, hash) = try Self.source("/usr/share/hyphen/hyph_en_US.dic")
    #expect(CompiledPatterns.load(folder: folder, source: hash) == nil, "empty folder: a miss")
    let built = try #require(PatternLoader.load(bytes: text))
    defer { hnj_hyphen_free(built) }
    #expect(CompiledPatterns.store(built, folder: folder, source: hash))
    let name = CompiledPatterns.fileName(source: hash)
    #expect(name.hasSuffix("-v\(CompiledPatterns.version).qhy"))
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == [name])
    let hit = try #require(CompiledPatterns.load(folder: folder, source: hash))
    #expect(PatternLoaderTests.difference(hit, built) == nil)
    free(hit)
    // A changed pattern file hashes differently: another name, a miss.
    let changed = SHA1.digest(text + Array("\n1xq1\n".utf8))
    #expect(CompiledPatterns.load(folder: folder, source: changed) == nil)
    // The same bytes under the right name but from another hash or version: a miss.
    let path = folder + "/" + name
    let good = try #require(CompiledPatterns.readFile(path, limit: 1 << 26))
    var otherSource = good
    otherSource[24] ^= 1
    try Data(otherSource).write(to: URL(fileURLWithPath: path))
    #expect(CompiledPatterns.load(folder: folder, source: hash) == nil)
    var otherVersion = good
    otherVersion[8] = UInt8(truncatingIfNeeded: CompiledPatterns.version + 1)
    try Data(otherVersion).write(to: URL(fileURLWithPath: path))
    #expect(CompiledPatterns.load(folder: folder, source: hash) == nil)
  }

  /// The registry's path: the first load builds and stores, the next reads the file.
  @Test(.enabled(if: FileManager.default.fileExists(atPath: "/usr/share/hyphen/hyph_en_US.dic")))
  func loadingStoresThenReads() throws {
    let folder = Self.folder("registry")
    let path = "/usr/share/hyphen/hyph_en_US.dic"
    let first = try #require(Hyphenator.loadDictionary(path, compiledFolder: folder))
    #expect(!first.compiled)
    let second = try #require(Hyphenator.loadDictionary(path, compiledFolder: folder))
    #expect(second.compiled)
    #expect(PatternLoaderTests.difference(first.dict, second.dict) == nil)
    hnj_hyphen_free(first.dict)
    free(second.dict)
    // Without a folder nothing is read or written.
    let plain = try #require(Hyphenator.loadDictionary(path, compiledFolder: nil))
    #expect(!plain.compiled)
    hnj_hyphen_free(plain.dict)
    // A garbled file is rebuilt and rewritten.
    let (_, hash) = try Self.source(path)
    let file = folder + "/" + CompiledPatterns.fileName(source: hash)
    try Data("garbage".utf8).write(to: URL(fileURLWithPath: file))
    let rebuilt = try #require(Hyphenator.loadDictionary(path, compiledFolder: folder))
    #expect(!rebuilt.compiled)
    hnj_hyphen_free(rebuilt.dict)
    let again = try #require(Hyphenator.loadDictionary(path, compiledFolder: folder))
    #expect(again.compiled)
    free(again.dict)
  }

  /// Every truncation and random byte flips are misses (length, CRC-32); flips with the
  /// checksum recomputed (a forged file) are misses or dictionaries that still hyphenate
  /// without a fault.
  @Test(.enabled(if: FileManager.default.fileExists(atPath: "/usr/share/hyphen/hyph_it_IT.dic")))
  func truncatedGarbledOrForgedFilesAreMisses() throws {
    let (text, hash) = try Self.source("/usr/share/hyphen/hyph_it_IT.dic")
    let built = try #require(PatternLoader.load(bytes: text))
    defer { hnj_hyphen_free(built) }
    let good = try #require(CompiledPatterns.encode(built, source: hash))
    func decode(_ bytes: [UInt8]) -> UnsafeMutablePointer<HyphenDict>? {
      bytes.withUnsafeBytes { CompiledPatterns.decode($0, source: hash) }
    }
    for n in stride(from: 0, to: good.count, by: max(1, good.count / 400)) {
      #expect(decode(Array(good.prefix(n))) == nil, "truncated to \(n)")
    }
    var rng = SystemRandomNumberGenerator()
    var forgedAccepted = 0
    for _ in 0..<600 {
      var bad = good
      for _ in 0..<Int.random(in: 1...3, using: &rng) {
        bad[Int.random(in: 0..<bad.count, using: &rng)] ^= UInt8.random(in: 1...255, using: &rng)
      }
      if bad != good { #expect(decode(bad) == nil) }
      // Forged: the checksum made right again.
      var forged = bad
      let crc = CompiledPatterns.crc(Array(forged[CompiledPatterns.headerSize...]))
      for i in 0..<4 { forged[12 + i] = UInt8(truncatingIfNeeded: crc >> (8 * UInt32(i))) }
      if let dict = decode(forged) {
        forgedAccepted += 1
        for word in Self.words { _ = Self.hyphens(dict, word) }
        free(dict)
      }
    }
    print("forged files accepted (and hyphenating safely): \(forgedAccepted) of 600")
    let whole = try #require(decode(good))
    free(whole)
  }

  @Test(.enabled(if: FileManager.default.fileExists(atPath: "/usr/share/hyphen/hyph_en_US.dic")))
  func concurrentWritersLeaveOneWholeFile() throws {
    let folder = Self.folder("concurrent")
    let path = "/usr/share/hyphen/hyph_en_US.dic"
    let compiled = Mutex(0)
    DispatchQueue.concurrentPerform(iterations: 6) { _ in
      for _ in 0..<3 {
        guard let (dict, isCompiled) = Hyphenator.loadDictionary(path, compiledFolder: folder)
        else { continue }
        if isCompiled {
          compiled.withLock { $0 += 1 }
          free(dict)
        } else {
          hnj_hyphen_free(dict)
        }
      }
    }
    #expect(compiled.withLock { $0 } >= 1)
    let (_, hash) = try Self.source(path)
    let names = try FileManager.default.contentsOfDirectory(atPath: folder)
    #expect(names == [CompiledPatterns.fileName(source: hash)], "no temporary file is left")
    let dict = try #require(CompiledPatterns.load(folder: folder, source: hash))
    free(dict)
  }
}
