// The persisted layout cache (issue #16): hits give what a layout gives, every key part
// invalidates (book bytes, CSS, font file, page size, a setting, the engine version), a
// corrupt or truncated entry is a miss that is rebuilt, concurrent writers leave a whole
// entry, the size bound evicts the least recently used entry, `--cache off` writes nothing,
// and cached output (manifest and page PNG) is byte-identical to uncached output.
//
// The book is an unpacked EPUB made here (three chapters and a style sheet), so a CSS edit
// is one file write. A hit is told from a miss by tampering: the entry under the key is
// re-stored with its engine name changed, which only a hit can return.

import Foundation
import QuireCore
import QuireTypeset
import Synchronization
import Testing

@testable import Quire

/// An unpacked EPUB (also for DisplayListCacheTests): three chapters of `paragraphs` paragraphs each, one style sheet.
func cacheTestBook(_ name: String, css: String = "p { margin: 0; text-indent: 1em; }")
  throws -> URL
{
  let root = URL(fileURLWithPath: temporaryFolder(name))
  func put(_ path: String, _ text: String) throws {
    let url = root.appendingPathComponent(path)
    try FileManager.default.createDirectory(
      at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(text.utf8).write(to: url)
  }
  try put("mimetype", "application/epub+zip")
  try put(
    "META-INF/container.xml",
    """
    <?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
    <rootfiles><rootfile full-path="OPS/book.opf" media-type="application/oebps-package+xml"/></rootfiles></container>
    """)
  var items = ""
  var spine = ""
  for k in 1...3 {
    let words = (0..<90).map { "word\(($0 * 7 + k) % 23)" }.joined(separator: " ")
    let body = (1...12).map { "<p>Paragraph \($0) of chapter \(k): \(words).</p>" }.joined()
    try put(
      "OPS/c\(k).xhtml",
      """
      <?xml version="1.0" encoding="utf-8"?><html xmlns="http://www.w3.org/1999/xhtml"><head>
      <title>C\(k)</title><link rel="stylesheet" href="style.css"/></head>
      <body><h1>Chapter \(k)</h1>\(body)</body></html>
      """)
    items += #"<item id="c\#(k)" href="c\#(k).xhtml" media-type="application/xhtml+xml"/>"#
    spine += #"<itemref idref="c\#(k)"/>"#
  }
  try put("OPS/style.css", css)
  try put(
    "OPS/book.opf",
    """
    <?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id">
    <metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:identifier id="id">cache-test</dc:identifier>
    <dc:title>Cache test</dc:title><dc:language>en</dc:language></metadata>
    <manifest>\(items)<item id="css" href="style.css" media-type="text/css"/></manifest>
    <spine>\(spine)</spine></package>
    """)
  return root
}

private func settings(width: Int = 300, height: Int = 400) -> LayoutSettings {
  LayoutSettings(pageWidth: width, pageHeight: height)
}

/// Re-stores the entry of `book` under `settings` with its engine name set to "tampered".
private func tamper(_ cache: LayoutCache, _ book: URL, _ s: LayoutSettings) throws {
  let key = try #require(cache.key(book, s))
  var entry = try #require(cache.load(key))
  entry.layout.engine = "tampered"
  #expect(cache.store(entry, key))
}

private func paginate(_ book: URL, _ s: LayoutSettings, _ cache: LayoutCache?) throws -> PageMap {
  var r = PaginateRequest(book: book)
  r.layout = s
  r.threads = 1
  r.cache = cache
  return try PaginateJob.run(r)
}

/// A cache folder's files but the fontconfig memo (written by every key with system fonts)
/// and compiled hyphenation patterns (written by the CLI's first use of a dictionary).
private func layoutFiles(_ folder: String) throws -> [String] {
  try FileManager.default.contentsOfDirectory(atPath: folder).filter {
    $0 != FontconfigMemo.fileName && !$0.hasSuffix(CompiledPatterns.suffix)
  }.sorted()
}

private func json(_ map: PageMap) throws -> String {
  let enc = JSONEncoder()
  enc.outputFormatting = [.sortedKeys]
  return String(decoding: try enc.encode(map), as: UTF8.self)
}

@Suite struct LayoutCacheTests {
  private func cache(_ name: String) -> LayoutCache {
    LayoutCache(directory: URL(fileURLWithPath: temporaryFolder(name)))
  }

  @Test func hitAnswersThePageMapOfTheLayout() throws {
    let book = try cacheTestBook("lc-hit-book")
    let c = cache("lc-hit")
    let fresh = try paginate(book, settings(), nil)
    #expect(fresh.pageCount > 3)
    let miss = try paginate(book, settings(), c)
    #expect(c.entries().count == 1)
    let hit = try paginate(book, settings(), c)
    #expect(try json(miss) == json(fresh))
    #expect(try json(hit) == json(fresh))
    try tamper(c, book, settings())
    #expect(try paginate(book, settings(), c).layout.engine == "tampered")
  }

  @Test func everyKeyPartInvalidates() throws {
    let book = try cacheTestBook("lc-key-book")
    let fontFolder = URL(fileURLWithPath: temporaryFolder("lc-key-font"))
    try FileManager.default.createDirectory(at: fontFolder, withIntermediateDirectories: true)
    let font = fontFolder.appendingPathComponent("body.ttf")
    let fonts = packageRoot.appendingPathComponent("fonts")
    try FileManager.default.copyItem(
      at: fonts.appendingPathComponent("NotoSerif-Regular.ttf"), to: font)
    var base = settings()
    base.font = .file(font)
    let c = cache("lc-key")
    _ = try paginate(book, base, c)
    try tamper(c, book, base)
    func isHit(_ s: LayoutSettings, _ cache: LayoutCache) throws -> Bool {
      try paginate(book, s, cache).layout.engine == "tampered"
    }
    #expect(try isHit(base, c))
    // A setting, the page size (and with it the media viewport), the engine version.
    var bigger = base
    bigger.fontSize = 18
    #expect(try !isHit(bigger, c))
    var wider = base
    wider.pageWidth = 320
    #expect(try !isHit(wider, c))
    var newEngine = c
    newEngine.engine = "quire-typeset/test-next"
    #expect(try !isHit(base, newEngine))
    #expect(try isHit(base, c))
    // The font file's bytes (same path, other font).
    try FileManager.default.removeItem(at: font)
    try FileManager.default.copyItem(at: fonts.appendingPathComponent("DejaVuSans.ttf"), to: font)
    #expect(try !isHit(base, c))
    try FileManager.default.removeItem(at: font)
    try FileManager.default.copyItem(
      at: fonts.appendingPathComponent("NotoSerif-Regular.ttf"), to: font)
    #expect(try isHit(base, c))
    // The book's CSS, then its text.
    let css = book.appendingPathComponent("OPS/style.css")
    try Data("p { margin: 0 0 1em 0; }".utf8).write(to: css)
    #expect(try !isHit(base, c))
    try Data("p { margin: 0; text-indent: 1em; }".utf8).write(to: css)
    #expect(try isHit(base, c))
    let chapter = book.appendingPathComponent("OPS/c2.xhtml")
    let text = try String(contentsOf: chapter, encoding: .utf8)
    try Data(text.replacingOccurrences(of: "Paragraph 3", with: "Paragraph three").utf8)
      .write(to: chapter)
    #expect(try !isHit(base, c))
  }

  @Test func aChangedSystemFontSetInvalidates() throws {
    let book = try cacheTestBook("lc-sysfont-book")
    let folder = URL(fileURLWithPath: temporaryFolder("lc-sysfont-fonts"))
    let truetype = folder.appendingPathComponent("truetype")
    try FileManager.default.createDirectory(at: truetype, withIntermediateDirectories: true)
    let fonts = packageRoot.appendingPathComponent("fonts")
    var c = cache("lc-sysfont")
    c.systemFontFolders = [folder.path]
    func isHit(_ s: LayoutSettings) throws -> Bool {
      try paginate(book, s, c).layout.engine == "tampered"
    }
    let base = settings()
    _ = try paginate(book, base, c)
    try tamper(c, book, base)
    #expect(try isHit(base))
    // A font installed in a folder below the system's font folder.
    try FileManager.default.copyItem(
      at: fonts.appendingPathComponent("DejaVuSans.ttf"),
      to: truetype.appendingPathComponent("DejaVuSans.ttf"))
    #expect(try !isHit(base))
    try tamper(c, book, base)
    #expect(try isHit(base))
    // The font removed again.
    try FileManager.default.removeItem(at: truetype.appendingPathComponent("DejaVuSans.ttf"))
    #expect(try !isHit(base))
    // With system fonts off the system's fonts are no part of the key.
    var off = base
    off.systemFonts = false
    _ = try paginate(book, off, c)
    try tamper(c, book, off)
    try FileManager.default.copyItem(
      at: fonts.appendingPathComponent("DejaVuSans.ttf"),
      to: folder.appendingPathComponent("DejaVuSans.ttf"))
    #expect(try isHit(off))
  }

  @Test func systemFontStampNamesFontconfigsFoldersAndRemembersTheParse() throws {
    // On any system with fontconfig: its configuration file and at least one font folder.
    let memo = FontconfigMemo(directory: cache("lc-fontconfig").directory)
    let stamp = memo.stamp()
    #expect(stamp.contains { $0.hasPrefix("config=") && !$0.hasSuffix(":absent") })
    #expect(stamp.contains { $0.hasPrefix("fonts=/") })
    // The parse is remembered: a later stamp comes from the memo (a folder written into it
    // shows up), until one of the inputs it recorded changes (a stale input stamp).
    let file = memo.directory.appendingPathComponent(FontconfigMemo.fileName)
    let text = try String(contentsOf: file, encoding: .utf8)
    #expect(memo.stamp() == stamp)
    try (text + "folder /quire-test-folder\n").write(to: file, atomically: true, encoding: .utf8)
    #expect(memo.stamp().contains("fonts=/quire-test-folder:absent"))
    let stale = text.replacingOccurrences(of: "\ninput ", with: "\ninput /quire-moved")
    try (stale + "folder /quire-test-folder\n").write(to: file, atomically: true, encoding: .utf8)
    #expect(memo.stamp() == stamp)
    #expect(try String(contentsOf: file, encoding: .utf8) == text)
  }

  @Test func corruptOrTruncatedEntriesAreMissesAndRebuilt() throws {
    let book = try cacheTestBook("lc-corrupt-book")
    let c = cache("lc-corrupt")
    let expected = try json(paginate(book, settings(), c))
    let key = try #require(c.key(book, settings()))
    let path = c.path(key)
    let good = try Data(contentsOf: URL(fileURLWithPath: path))
    #expect(LayoutCacheFile.decode(good) != nil)
    let offsets =
      Array(stride(from: 0, to: good.count, by: max(1, good.count / 400)))
      + Array(0..<LayoutCacheFile.headerSize) + [good.count - 1]
    for offset in offsets {
      var flipped = good
      flipped[offset] ^= 0x5A
      #expect(LayoutCacheFile.decode(flipped) == nil, "byte \(offset) flipped")
      #expect(LayoutCacheFile.decode(good.prefix(offset)) == nil, "cut at \(offset)")
    }
    // A damaged payload with a matching checksum: the JSON decoder or the consistency check
    // refuses it, or it decodes to some entry; never a crash.
    let header = LayoutCacheFile.headerSize
    for offset in stride(from: header, to: good.count, by: max(1, good.count / 300)) {
      var payload = [UInt8](good.dropFirst(header))
      payload[offset - header] = UInt8(truncatingIfNeeded: payload[offset - header] &+ 13)
      var bytes = Array(good.prefix(12))
      let crc = LayoutCacheFile.crc(Data(payload))
      for i in 0..<4 { bytes.append(UInt8(truncatingIfNeeded: crc >> (8 * UInt32(i)))) }
      bytes += good[16..<header]
      bytes += payload
      _ = LayoutCacheFile.decode(Data(bytes))
    }
    for cut in [0, 5, header, good.count / 2, good.count - 1] {
      try good.prefix(cut).write(to: URL(fileURLWithPath: path))
      #expect(try json(paginate(book, settings(), c)) == expected)
      #expect(
        try Data(contentsOf: URL(fileURLWithPath: path)) == good, "rebuilt after a cut at \(cut)")
    }
  }

  @Test func concurrentWritersLeaveOneWholeEntry() throws {
    let book = try cacheTestBook("lc-concurrent-book")
    let c = cache("lc-concurrent")
    _ = try paginate(book, settings(), c)
    let key = try #require(c.key(book, settings()))
    let entry = try #require(c.load(key))
    let broken = Mutex(0)
    DispatchQueue.concurrentPerform(iterations: 6) { worker in
      for _ in 0..<15 {
        if worker % 3 == 2 {
          if let e = c.load(key), e.pages.count != entry.pages.count {
            broken.withLock { $0 += 1 }
          }
        } else {
          c.store(entry, key)
        }
      }
    }
    #expect(broken.withLock { $0 } == 0)
    #expect(c.load(key)?.pages.count == entry.pages.count)
    let left = try layoutFiles(c.directory.path)
    #expect(left == [key.digest + LayoutCache.suffix], "no temporary file is left: \(left)")
  }

  @Test func sizeBoundEvictsTheLeastRecentlyUsed() throws {
    let book = try cacheTestBook("lc-lru-book")
    var c = cache("lc-lru")
    let sizes = [(300, 400), (320, 400), (340, 400)]
    _ = try paginate(book, settings(width: 300, height: 400), c)
    let one = try #require(c.entries().first?.bytes)
    c.maxBytes = one * 5 / 2  // two entries fit, three do not
    _ = try paginate(book, settings(width: 320, height: 400), c)
    usleep(20_000)
    let firstKey = try #require(c.key(book, settings(width: 300, height: 400)))
    #expect(c.load(firstKey) != nil)
    usleep(20_000)
    _ = try paginate(book, settings(width: 340, height: 400), c)
    let kept = sizes.map {
      c.key(book, settings(width: $0.0, height: $0.1)).flatMap { c.load($0) } != nil
    }
    #expect(kept == [true, false, true], "the 320-wide entry was the least recently used")
    #expect(c.entries().reduce(0) { $0 + $1.bytes } <= c.maxBytes)
  }

  @Test func cachedRenderIsByteIdenticalAndDrawsFromOneChapter() throws {
    let book = try cacheTestBook("lc-render-book")
    let c = cache("lc-render")
    let pageCount = try paginate(book, settings(), nil).pageCount
    // The last selection without boxes is answered from the entry with boxes (the entries'
    // boxes are stripped from the manifest).
    let selections = [
      ([2], false), ([pageCount], true), ([1, pageCount - 1], true), ([2, 3], false),
    ]
    for (pages, boxes) in selections {
      var reference = RenderRequest(
        book: book, output: URL(fileURLWithPath: temporaryFolder("lc-r-ref")))
      reference.layout = settings()
      reference.pages = PageSelection(pages: pages)
      reference.boxes = boxes
      reference.threads = 1
      _ = try RenderJob.run(reference)
      var cached = reference
      cached.cache = c
      for run in ["miss", "hit"] {
        cached.output = URL(fileURLWithPath: temporaryFolder("lc-r-\(run)"))
        let summary = try RenderJob.run(cached)
        #expect(summary.rendered == pages.count)
        for file in ["manifest.json"] + pages.map({ pageFileName($0, digits: 4) }) {
          let a = try Data(contentsOf: reference.output.appendingPathComponent(file))
          let b = try Data(contentsOf: cached.output.appendingPathComponent(file))
          #expect(a == b, "\(file) of pages \(pages), boxes \(boxes), \(run)")
        }
      }
    }
    // The hit path is the one taken: a tampered entry shows in the manifest.
    try tamper(c, book, settings())
    var r = RenderRequest(book: book, output: URL(fileURLWithPath: temporaryFolder("lc-r-t")))
    r.layout = settings()
    r.pages = PageSelection(pages: [3])
    r.cache = c
    _ = try RenderJob.run(r)
    let manifest = try String(
      contentsOf: r.output.appendingPathComponent("manifest.json"), encoding: .utf8)
    #expect(manifest.contains("\"engine\" : \"tampered\""))
  }

  @Test func aCacheThatCannotBeWrittenIsNeitherKeyedNorStoredByAFullRender() throws {
    let book = try cacheTestBook("lc-ro-book")
    // A folder under a regular file can never be made, not even by root.
    let blocker = temporaryFolder("lc-ro-blocker")
    try Data("a file".utf8).write(to: URL(fileURLWithPath: blocker))
    let unwritable = LayoutCache(directory: URL(fileURLWithPath: blocker + "/cache"))
    #expect(!unwritable.isWritable)
    let writable = cache("lc-ro-writable")
    #expect(writable.isWritable)
    func request(_ name: String, _ cache: LayoutCache?) -> RenderRequest {
      var r = RenderRequest(book: book, output: URL(fileURLWithPath: temporaryFolder(name)))
      r.layout = settings()
      r.threads = 2
      r.cache = cache
      return r
    }
    // The whole book can only be stored, never drawn from the cache: no key without a store.
    #expect(RenderJob.cacheKey(request("lc-ro-k1", unwritable)) == nil)
    #expect(RenderJob.cacheKey(request("lc-ro-k2", writable)) != nil)
    // A few pages may be drawn from a cache that is only readable: keyed.
    var few = request("lc-ro-k3", unwritable)
    few.pages = PageSelection(pages: [2])
    #expect(RenderJob.cacheKey(few) != nil)
    let reference = request("lc-ro-ref", nil)
    _ = try RenderJob.run(reference)
    for (name, c) in [("lc-ro-no", unwritable), ("lc-ro-yes", writable)] {
      let r = request(name, c)
      let summary = try RenderJob.run(r)
      let files = try FileManager.default.contentsOfDirectory(atPath: r.output.path).sorted()
      #expect(files.count == summary.pageCount + 1)
      for file in files {
        let a = try Data(contentsOf: reference.output.appendingPathComponent(file))
        let b = try Data(contentsOf: r.output.appendingPathComponent(file))
        #expect(a == b, "\(file) with cache \(name)")
      }
    }
    // The entry is stored beside the manifest, and stored before the render returns.
    #expect(writable.entries().filter { $0.name.hasSuffix(LayoutCache.suffix) }.count == 1)
    #expect(!FileManager.default.fileExists(atPath: blocker + "/cache"))
  }

  @Test func unchangedBookFilesAreNotHashedAgain() throws {
    let folder = URL(fileURLWithPath: temporaryFolder("lc-memo-book"))
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let book = folder.appendingPathComponent("book.txt")
    try Data("One paragraph.\n\nAnother one.\n".utf8).write(to: book)
    var c = cache("lc-memo")
    func memos() -> [String] {
      ((try? FileManager.default.contentsOfDirectory(atPath: c.directory.path)) ?? [])
        .filter { $0.hasSuffix(ContentHashMemo.suffix) }.sorted()
    }
    // A file changed a moment ago is hashed, not remembered (racy writes).
    let first = try #require(c.key(book, settings()))
    #expect(memos().isEmpty)
    // Once settled it is remembered, and the memo is what later keys are made from: a memo
    // holding another hash gives another key, so the book's bytes were not read.
    c.hashSettleSeconds = 0
    #expect(c.key(book, settings()) == first)
    let names = memos()
    #expect(names.count == 1)
    let memo = c.directory.appendingPathComponent(names[0])
    let real = try String(contentsOf: memo, encoding: .utf8)
    #expect(real.count == 41)
    try Data((String(repeating: "0", count: 40) + "\n").utf8).write(to: memo)
    let fromMemo = try #require(c.key(book, settings()))
    #expect(fromMemo != first)
    // A memo that is not 40 hex digits is ignored and rewritten.
    try Data("not a hash\n".utf8).write(to: memo)
    #expect(c.key(book, settings()) == first)
    #expect(try String(contentsOf: memo, encoding: .utf8) == real)
    // A write to the book is a new identity (here its size changes too, so the test does not
    // depend on the time stamps' granularity): the old memo is not consulted.
    try Data((String(repeating: "0", count: 40) + "\n").utf8).write(to: memo)
    try Data("One paragraph.\n\nAnother, longer one.\n".utf8).write(to: book)
    let changed = try #require(c.key(book, settings()))
    #expect(changed != first && changed != fromMemo)
    #expect(memos().count == 2)
    // Memos are entries of the size bound like layouts.
    #expect(c.entries().filter { $0.name.hasSuffix(ContentHashMemo.suffix) }.count == 2)
  }

  @Test func commandLineCacheOffWritesNothingAndDefaultsToXDG() throws {
    let exe = try #require(quireExecutable)
    let book = try cacheTestBook("lc-cli-book")
    let xdg = URL(fileURLWithPath: temporaryFolder("lc-cli-xdg"))
    try FileManager.default.createDirectory(at: xdg, withIntermediateDirectories: true)
    @Sendable func run(_ args: [String]) throws -> (Int32, String) {
      let p = Process()
      p.executableURL = URL(fileURLWithPath: exe)
      p.arguments = args
      var env = ProcessInfo.processInfo.environment
      env["XDG_CACHE_HOME"] = xdg.path
      p.environment = env
      let out = Pipe()
      p.standardOutput = out
      p.standardError = FileHandle.nullDevice
      try p.run()
      let data = out.fileHandleForReading.readDataToEndOfFile()
      p.waitUntilExit()
      return (p.terminationStatus, String(decoding: data, as: UTF8.self))
    }
    let off = try run(["paginate", book.path, "--size", "300x400", "--json", "--cache", "off"])
    #expect(off.0 == 0)
    #expect(try FileManager.default.contentsOfDirectory(atPath: xdg.path).isEmpty)
    let first = try run(["paginate", book.path, "--size", "300x400", "--json"])
    let second = try run(["paginate", book.path, "--size", "300x400", "--json"])
    #expect(first.1 == off.1)
    #expect(second.1 == off.1)
    let entries = try layoutFiles(xdg.appendingPathComponent("quire").path)
    #expect(entries.count == 1 && entries[0].hasSuffix(".qlc"))
    // The CLI keeps the book language's compiled hyphenation patterns in the cache folder.
    if FileManager.default.fileExists(atPath: "/usr/share/hyphen/hyph_en_US.dic") {
      let all = try FileManager.default.contentsOfDirectory(
        atPath: xdg.appendingPathComponent("quire").path)
      #expect(all.filter { $0.hasSuffix(CompiledPatterns.suffix) }.count == 1, "\(all)")
    }
    // Two processes storing the same key at once: both succeed with the same output.
    let other = temporaryFolder("lc-cli-two")
    let both = Mutex<[String]>([])
    DispatchQueue.concurrentPerform(iterations: 2) { _ in
      let r = try? run(["paginate", book.path, "--size", "300x420", "--json", "--cache", other])
      both.withLock { $0.append(r.map { "\($0.0) \($0.1)" } ?? "failed") }
    }
    let outputs = both.withLock { $0 }
    #expect(outputs.count == 2 && outputs[0] == outputs[1] && outputs[0].hasPrefix("0 "))
    #expect(try layoutFiles(other).count == 1)
    #expect(try run(["paginate", book.path, "--cache", ""]).0 == 64)
  }

  /// `quire render --pages N` of a seen book, in separate processes: the first, middle and
  /// last page of every chapter are byte-identical to `--cache off` when the layout is
  /// answered from the entry, the pages from their chapter's display lists and the
  /// hyphenation patterns from their compiled file (the first cached run lays the book out
  /// and compiles them, later ones read all three).
  @Test func cachedRenderProcessesMatchUncachedOnChapterEdges() throws {
    let exe = try #require(quireExecutable)
    let book = try cacheTestBook("lc-proc-book")
    let cache = temporaryFolder("lc-proc-cache")
    func run(_ command: String, _ args: [String]) throws {
      let p = Process()
      p.executableURL = URL(fileURLWithPath: exe)
      p.arguments = [command, book.path, "--size", "300x400"] + args
      p.standardOutput = FileHandle.nullDevice
      p.standardError = FileHandle.nullDevice
      try p.run()
      p.waitUntilExit()
      #expect(p.terminationStatus == 0, "\(command) \(args)")
    }
    let map = try paginate(book, settings(), nil)
    var numbers: Set<Int> = []
    for spine in Set(map.pages.map(\.spine)) {
      let pages = map.pages.filter { $0.spine == spine }.map(\.number)
      numbers.formUnion([pages[0], pages[pages.count / 2], pages[pages.count - 1]])
    }
    #expect(numbers.count >= 6)
    for n in numbers.sorted() {
      let off = temporaryFolder("lc-proc-off")
      try run("render", ["-o", off, "--pages", "\(n)", "--cache", "off"])
      for pass in ["first", "second"] {
        let out = temporaryFolder("lc-proc-\(pass)")
        try run("render", ["-o", out, "--pages", "\(n)", "--cache", cache])
        for file in ["manifest.json", pageFileName(n, digits: 4)] {
          let a = try Data(contentsOf: URL(fileURLWithPath: off).appendingPathComponent(file))
          let b = try Data(contentsOf: URL(fileURLWithPath: out).appendingPathComponent(file))
          #expect(a == b, "\(file) of page \(n), \(pass) cached run")
        }
      }
    }
    // Every chapter drawn has its display lists beside the entry (the second runs, and the
    // first runs of pages after a chapter's first, drew from them).
    let drawn = try FileManager.default.contentsOfDirectory(atPath: cache).filter {
      $0.hasSuffix(DisplayListFile.suffix)
    }
    #expect(drawn.count == Set(map.pages.map(\.spine)).count, "\(drawn)")
    if FileManager.default.fileExists(atPath: "/usr/share/hyphen/hyph_en_US.dic") {
      let names = try FileManager.default.contentsOfDirectory(atPath: cache)
      #expect(names.contains { $0.hasSuffix(CompiledPatterns.suffix) }, "\(names)")
    }
  }
}
