// Book.open: decides what a file is by its content, then reads it as an EPUB (ZIP or
// unpacked folder), a single XHTML/HTML document, or plain text. See Ingest.swift for the
// design of the stage.

import Foundation
import QuireCore

/// Opens books. The façade of the Ingest stage.
package enum Book {
  /// Files larger than this are refused before being read (books are small; this is 2 GiB).
  package static let maxFileBytes = 2 << 30

  /// Opens any supported book: .epub (or any zip with an OCF container), a folder holding an
  /// unpacked EPUB, a single .xhtml/.html file, or plain text.
  package static func open(_ url: URL, options: IngestOptions = IngestOptions()) throws(IngestError)
    -> Document
  {
    let path = url.path
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      throw .cannotOpen(path: path, reason: "no such file or directory")
    }
    if isDirectory.boolValue {
      let files = FolderFiles(root: url, limits: options.limits)
      guard files.contains("META-INF/container.xml") else {
        throw .badData(
          file: path, reason: "folder is not an unpacked EPUB (no META-INF/container.xml)")
      }
      return try EPUBReader(files: files, options: options).document()
    }
    let data = try readFile(url)
    guard !data.isEmpty else { throw .badData(file: path, reason: "empty file (0 bytes)") }
    if ZipArchive.looksLikeZip(data) || ZipArchive.hasEndRecord(data) {
      let archive = try ZipArchive(data: data, file: path, limits: options.limits)
      return try EPUBReader(files: archive, options: options).document()
    }
    let ext = url.pathExtension.lowercased()
    if ["xhtml", "html", "htm", "xht"].contains(ext) || looksLikeHTML(data) {
      return try singleDocument(data, url: url, options: options)
    }
    if options.encoding == nil && looksBinary(data) {
      throw .badData(file: path, reason: "neither a ZIP/EPUB, nor HTML, nor text (binary data)")
    }
    return try PlainTextBook.document(from: data, path: path, options: options)
  }

  /// Reads a whole regular file, never more than `maxFileBytes` (a FIFO, /dev/zero or a file
  /// growing under us cannot make us read forever).
  static func readFile(
    _ url: URL, limit: Int = maxFileBytes, kind: IngestLimit = .fileBytes
  ) throws(IngestError) -> Data {
    let path = url.path
    let size: Int
    do {
      let attrs = try FileManager.default.attributesOfItem(atPath: path)
      guard attrs[.type] as? FileAttributeType == .typeRegular else {
        throw IngestError.cannotOpen(path: path, reason: "not a regular file")
      }
      size = (attrs[.size] as? NSNumber)?.intValue ?? 0
    } catch let error as IngestError {
      throw error
    } catch {
      throw .cannotOpen(path: path, reason: error.localizedDescription)
    }
    guard size <= limit else {
      throw .limitExceeded(
        file: path, limit: kind, reason: "file is \(size) bytes, over \(kind)=\(limit)")
    }
    // Read, not mapped: a mapped file truncated under us would be a SIGBUS, not an error.
    let data: Data
    do {
      let handle = try FileHandle(forReadingFrom: url)
      defer { try? handle.close() }
      data = try handle.read(upToCount: limit + 1) ?? Data()
    } catch {
      throw .cannotOpen(path: path, reason: error.localizedDescription)
    }
    guard data.count <= limit else {
      throw .limitExceeded(
        file: path, limit: kind, reason: "file grew past \(kind)=\(limit) while being read")
    }
    return data
  }

  /// `<html` or an XHTML doctype near the start (after a BOM, whitespace, an XML declaration).
  static func looksLikeHTML(_ data: Data) -> Bool {
    let head = String(decoding: data.prefix(1024), as: UTF8.self).lowercased()
    let trimmed = head.drop { $0 == "\u{FEFF}" || $0.isWhitespace }
    guard trimmed.hasPrefix("<") else { return false }
    return head.contains("<html") || head.contains("<!doctype html")
  }

  /// NUL bytes in the first 4 KiB that are not the zero halves of UTF-16 code units.
  static func looksBinary(_ data: Data) -> Bool {
    let head = Array(data.prefix(4096))
    if head.starts(with: [0xFF, 0xFE]) || head.starts(with: [0xFE, 0xFF]) { return false }
    var evenZero = 0
    var oddZero = 0
    for (i, b) in head.enumerated() where b == 0 {
      if i % 2 == 0 { evenZero += 1 } else { oddZero += 1 }
    }
    if evenZero + oddZero == 0 { return false }
    // UTF-16 without a BOM: zeros in one parity only.
    return evenZero > 0 && oddZero > 0
  }

  static func singleDocument(_ data: Data, url: URL, options: IngestOptions) throws(IngestError)
    -> Document
  {
    let folder = FolderFiles(root: url.deletingLastPathComponent(), limits: options.limits)
    let name = url.lastPathComponent
    guard data.count <= options.limits.maxEntryBytes else {
      throw .limitExceeded(
        file: url.path, limit: .entryBytes,
        reason:
          "document is \(data.count) bytes, over maxEntryBytes=\(options.limits.maxEntryBytes)")
    }
    let converter = ChapterConverter(
      options: options, bookLanguage: nil, loadResource: { href in try? folder.read(href) })
    let ext = url.pathExtension.lowercased()
    let mediaType = ext == "xhtml" || ext == "xht" ? "application/xhtml+xml" : "text/html"
    let converted = converter.convert(
      ChapterSource(spineIndex: 0, href: name, mediaType: mediaType, linear: true, data: data))
    let store = PackageResourceStore(files: folder, refused: [], decoded: [:])
    var fontWarnings: [Diagnostic] = []
    let fonts = EPUBReader.loadFonts(
      converted.fontFaces, store: store, encryption: EncryptionMap(), warnings: &fontWarnings)
    let title = url.deletingPathExtension().lastPathComponent
    let language = converted.chapter.language
    return Document(
      format: .html,
      metadata: BookMetadata(
        title: title, language: language,
        direction: converted.chapter.direction ?? PackageDocument.direction(nil, language: language)
      ),
      chapters: [converted.chapter], toc: [],
      fonts: fonts,
      images: [], resources: store, warnings: converted.warnings + fontWarnings)
  }
}

extension ZipArchive {
  /// An end-of-central-directory record in the last 64 KiB (self-extracting or prefixed ZIPs).
  static func hasEndRecord(_ data: Data) -> Bool {
    let r = ByteReader(data)
    let n = UInt64(data.count)
    guard n >= 22 else { return false }
    let lowest = n > 22 + 65_535 ? n - 22 - 65_535 : 0
    var p = n - 22
    while true {
      if r.u32(p) == endSignature { return true }
      if p == lowest { return false }
      p -= 1
    }
  }
}

/// Reads an EPUB from its files (ZIP or folder) into a Document.
struct EPUBReader {
  let files: any PackageFiles
  let options: IngestOptions

  func document() throws(IngestError) -> Document {
    let plan = try prepare()
    let results = ResultSlots<Result<ConvertedChapter, IngestError>>(count: plan.items.count)
    let navigation = ResultSlots<Navigation>(count: 1)
    let order = plan.conversionOrder(0..<plan.items.count)
    // The navigation (iteration 0) is read while the chapters convert, largest first.
    DispatchQueue.concurrentPerform(iterations: order.count + 1) { k in
      if k == 0 {
        navigation.set(0, Navigation(plan, limits: options.limits))
      } else {
        results.set(order[k - 1], plan.convert(order[k - 1]))
      }
    }
    return try assemble(plan, results.values, navigation: navigation.values[0])
  }

  /// The book's table of contents and landmarks as the navigation document (or NCX) gives
  /// them, before their targets are located in the chapters: all `assemble` reads from the
  /// package besides the chapters that takes time (parsing the nav document twice), so it
  /// is read on a core of its own while the chapters convert.
  struct Navigation: Sendable {
    var toc: [RawTOCEntry]
    /// What reading the table of contents worked around (after the chapters' warnings).
    var warnings: [Diagnostic] = []
    var landmarks: [(type: String, entry: RawTOCEntry)]

    init(_ plan: Plan, limits: IngestLimits) {
      toc = TableOfContents.read(
        package: plan.opf, files: plan.files, limits: limits, warnings: &warnings)
      landmarks = TableOfContents.landmarks(package: plan.opf, files: plan.files, limits: limits)
    }
  }

  /// The package read up to the chapters: everything `assemble` needs besides them.
  struct Plan: Sendable {
    var files: any PackageFiles
    var opf: PackageDocument
    var opfPath: String
    var encryption: EncryptionMap
    var items: [(item: ManifestItem, linear: Bool)]
    var converter: ChapterConverter
    var warnings: [Diagnostic]
    /// Each spine item's rendition, by path (Package/Rendition.swift).
    var renditions: [String: Rendition] = [:]

    /// The chapters of `range` in the order to convert them on several threads: largest
    /// (stored size) first, so that the last chapter to finish is a short one and the
    /// conversion does not end on one core; ties in spine order. Results land by index, so
    /// the order never shows in the output.
    func conversionOrder(_ range: Range<Int>) -> [Int] {
      let sizes = range.map { files.size(of: items[$0].item.path) ?? 0 }
      return (0..<range.count).sorted {
        sizes[$0] != sizes[$1] ? sizes[$0] > sizes[$1] : $0 < $1
      }.map { range.lowerBound + $0 }
    }

    /// Converts spine item `i` (its index among readable spine documents).
    func convert(_ i: Int) -> Result<ConvertedChapter, IngestError> {
      let (item, linear) = items[i]
      do throws(IngestError) {
        let data = try files.read(item.path)
        var source = ChapterSource(
          spineIndex: i, href: item.path, mediaType: item.mediaType, linear: linear, data: data)
        source.rendition = renditions[item.path] ?? opf.rendition
        let converted = converter.convert(source)
        try converter.budget.charge(
          converted, spine: i, book: files.file, limits: converter.options.limits)
        return .success(converted)
      } catch {
        return .failure(error)
      }
    }
  }

  func prepare() throws(IngestError) -> Plan {
    let limits = options.limits
    var warnings = files.openingWarnings
    let book = files.file

    // mimetype: wrong or missing is a warning, not fatal (many readers accept such books).
    if files.contains("mimetype") {
      let value = (try? files.read("mimetype")).map { String(decoding: $0, as: UTF8.self) } ?? ""
      if value.trimmingCharacters(in: .whitespacesAndNewlines) != "application/epub+zip" {
        warnings.append(
          Diagnostic(
            .mimetype,
            file: "mimetype", message: "says '\(value.prefix(60))', not application/epub+zip"))
      }
    } else {
      warnings.append(Diagnostic(.mimetype, file: "mimetype", message: "missing"))
    }

    let opfPath = try PackageDocument.rootfilePath(files, limits: limits)
    let opf = try PackageDocument(
      data: try files.read(opfPath), path: opfPath, book: book, limits: limits)
    warnings += opf.warnings
    let encryption = EncryptionMap(files: files, limits: limits, warnings: &warnings)

    // Spine → content documents that exist.
    var items: [(item: ManifestItem, linear: Bool)] = []
    var renditions: [String: Rendition] = [:]
    var encryptedCount = 0
    // A document listed twice in the spine is read once (epubcheck OPF-034): every listing
    // would convert and lay it out again, so a short package could multiply a big chapter.
    var listedPaths: Set<String> = []
    for ref in opf.spine {
      guard let declared = opf.byID[ref.idref] else {
        warnings.append(
          Diagnostic(
            .spineItem,
            file: opfPath,
            message:
              "spine idref '\(QuotedInput.elided(ref.idref))' is not in the manifest; skipped"))
        continue
      }
      guard let item = opf.contentItem(for: declared, warnings: &warnings) else { continue }
      if item.path == opfPath {
        warnings.append(
          Diagnostic(
            .spineItem,
            file: opfPath,
            message:
              "spine item '\(QuotedInput.elided(item.id))' is the package document itself; skipped")
        )
        continue
      }
      if encryption.refused[item.path] != nil {
        encryptedCount += 1
        continue
      }
      guard files.contains(item.path) else {
        warnings.append(
          Diagnostic(
            .spineItem,
            file: item.path,
            message: "spine item '\(QuotedInput.elided(item.id))' is missing from the book; skipped"
          ))
        continue
      }
      guard listedPaths.insert(item.path).inserted else {
        warnings.append(
          Diagnostic(
            .spineItem, file: item.path,
            message:
              "spine lists '\(QuotedInput.elided(item.id))' again; only its first place is kept"))
        continue
      }
      items.append((item, ref.linear))
      renditions[item.path] = opf.rendition.applying(
        ref.properties, file: opfPath, warnings: &warnings)
    }
    if items.isEmpty {
      if encryptedCount > 0 {
        throw .unsupported(file: book, reason: "every spine document is encrypted (DRM)")
      }
      throw .badData(file: book, reason: "no readable spine documents in \(opfPath)")
    }
    if let cover = opf.coverItem(policy: options.cover, spine: items, files: files) {
      items.insert((cover, true), at: 0)
    }

    let converter = ChapterConverter(
      options: options, bookLanguage: opf.metadata.language,
      loadResource: { [files] href in
        if encryption.refused[href] != nil { return nil }
        return try? files.read(href)
      })
    var plan = Plan(
      files: files, opf: opf, opfPath: opfPath, encryption: encryption, items: items,
      converter: converter, warnings: warnings)
    plan.renditions = renditions
    return plan
  }

  /// The Document from the plan and every chapter's conversion, in spine order; the order
  /// of work never shows in the output.
  func assemble(
    _ plan: Plan, _ slots: [Result<ConvertedChapter, IngestError>?],
    navigation read: Navigation? = nil
  ) throws(IngestError) -> Document {
    let limits = options.limits
    let (opf, items, encryption) = (plan.opf, plan.items, plan.encryption)
    var warnings = plan.warnings
    var chapters: [Chapter] = []
    var fontFaces: [FontFaceRule] = []
    for (i, slot) in slots.enumerated() {
      let (item, linear) = items[i]
      switch slot {
      case .success(let converted)?:
        chapters.append(converted.chapter)
        fontFaces += converted.fontFaces
        warnings += converted.warnings
      case .failure(let error)?:
        if error.isFatal { throw error }
        warnings.append(
          Diagnostic(
            .unreadableChapter, file: item.path, spine: i,
            message: "unreadable, left empty: \(error)"))
        chapters.append(
          Chapter(
            spineIndex: i, href: item.path, mediaType: item.mediaType, linear: linear, size: 0,
            language: opf.metadata.language, direction: nil, blocks: [], anchors: [:], length: 0))
      case nil:
        preconditionFailure("chapter \(i) was never converted")
      }
    }

    // TOC → Locations.
    var spineByPath: [String: Int] = [:]
    for (i, c) in chapters.enumerated() where spineByPath[c.href] == nil { spineByPath[c.href] = i }
    func locate(_ raw: [RawTOCEntry]) -> [TOCEntry] {
      raw.map { e in
        var location: Location? = nil
        if let path = e.path, let spine = spineByPath[path] {
          location = Location(
            spine: spine, offset: e.fragment.flatMap { chapters[spine].anchors[$0] } ?? 0)
        }
        let href = e.path.map { $0 + (e.fragment.map { "#\($0)" } ?? "") } ?? ""
        return TOCEntry(
          title: e.title, href: href, location: location, children: locate(e.children))
      }
    }
    let navigation = read ?? Navigation(plan, limits: limits)
    let toc = locate(navigation.toc)
    warnings += navigation.warnings

    // Obfuscated fonts are de-obfuscated once, so every reader of the resource gets real bytes.
    var decoded: [String: Data] = [:]
    for (path, method) in encryption.obfuscated.sorted(by: { $0.key < $1.key })
    where files.contains(path) {
      guard let key = EncryptionMap.key(method, identifier: opf.uniqueIdentifier) else {
        warnings.append(
          Diagnostic(
            .font,
            file: path, message: "obfuscated font, but the package identifier gives no key"))
        continue
      }
      do {
        decoded[path] = EncryptionMap.deobfuscate(try files.read(path), method: method, key: key)
      } catch {
        if error.isFatal { throw error }
        warnings.append(Diagnostic(.font, file: path, message: "unreadable font: \(error)"))
      }
    }
    var resources = PackageResourceStore(
      files: files, refused: Set(encryption.refused.keys), decoded: decoded)
    resources.imageFallbacks = opf.imageFallbacks()
    var fontWarnings: [Diagnostic] = []
    let fonts = Self.loadFonts(
      fontFaces, store: resources, encryption: encryption, warnings: &fontWarnings)
    warnings += fontWarnings

    let images = opf.manifest.filter {
      $0.mediaType.hasPrefix("image/") && encryption.refused[$0.path] == nil
    }
    .compactMap { item in
      files.size(of: item.path).map {
        ImageResource(href: item.path, mediaType: item.mediaType, size: $0)
      }
    }

    var document = Document(
      format: .epub, metadata: opf.metadata, chapters: chapters, toc: toc, fonts: fonts,
      images: images,
      resources: resources, warnings: warnings)
    document.landmarks = navigation.landmarks.map {
      let e = locate([$0.entry])[0]
      return Landmark(type: $0.type, title: e.title, href: e.href, location: e.location)
    }
    return document
  }

  /// Loads the files named by @font-face rules (each distinct rule once), through the
  /// resource store, which serves obfuscated fonts already decoded. Every `url()` source is
  /// read so the typesetter can fall back along the `src` list; a missing file is a warning.
  static func loadFonts(
    _ rules: [FontFaceRule], store: any ResourceStore, encryption: EncryptionMap,
    warnings: inout [Diagnostic]
  ) -> [EmbeddedFont] {
    var seen: Set<FontFaceRule> = []
    var fonts: [EmbeddedFont] = []
    for rule in rules where seen.insert(rule).inserted {
      var sources: [EmbeddedFontSource] = []
      var obfuscated = false
      for source in rule.sources {
        switch source {
        case .local(let name): sources.append(.local(name))
        case .url(let path, let fragment):
          if encryption.refused[path] != nil { continue }
          guard let data = store.data(forHref: path) else {
            warnings.append(
              Diagnostic(
                .font, file: path,
                message: "font for '\(QuotedInput.elided(rule.family))' is missing or unreadable"))
            continue
          }
          obfuscated = obfuscated || encryption.obfuscated[path] != nil
          sources.append(.file(href: path, fragment: fragment, data: data))
        }
      }
      guard !sources.isEmpty else { continue }
      var first: (href: String, data: Data)?
      for case .file(let href, _, let data) in sources where first == nil { first = (href, data) }
      fonts.append(
        EmbeddedFont(
          family: rule.family, weight: rule.weight, italic: rule.italic,
          href: first?.href ?? rule.src, data: first?.data ?? Data(), wasObfuscated: obfuscated,
          descriptors: rule.descriptors, sources: sources))
    }
    return fonts
  }
}

/// Fixed slots written from concurrent work, read once all work is done.
final class ResultSlots<Value: Sendable>: Sendable {
  private let storage: Mutex<[Value?]>
  init(count: Int) { storage = Mutex(Array(repeating: nil, count: count)) }
  func set(_ i: Int, _ value: Value) {
    storage.withLock { $0[i] = value }
  }
  var values: [Value?] {
    storage.withLock { $0 }
  }
}

// MARK: - Lazy opening (the render fast path)
//
// `Book.openLazily` reads the package (container, OPF, spine, encryption) and stops before
// the chapters: a `ChapterLoader` converts spine items on demand, caching each. `prefix(n)`
// is a Document of the first n chapters (their @font-face fonts included) for laying out the
// pages a reader asked for before the rest of the book is read; `document()` converts what is
// left in parallel and assembles exactly what `Book.open` returns (same code: `assemble`).

extension Book {
  /// Opens a book without converting its chapters yet (EPUB); other formats are read whole.
  /// `fontFiles` keeps embedded font files' usable bytes between runs (nil: none).
  package static func openLazily(
    _ url: URL, options: IngestOptions = IngestOptions(),
    fontFiles: (any FontFileArchive)? = nil
  ) throws(IngestError) -> ChapterLoader {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
      throw .cannotOpen(path: url.path, reason: "no such file or directory")
    }
    let files: any PackageFiles
    if isDirectory.boolValue {
      let folder = FolderFiles(root: url, limits: options.limits)
      guard folder.contains("META-INF/container.xml") else {
        return ChapterLoader(whole: try open(url, options: options))
      }
      files = folder
    } else {
      let data = try readFile(url)
      guard !data.isEmpty, ZipArchive.looksLikeZip(data) || ZipArchive.hasEndRecord(data) else {
        return ChapterLoader(whole: try open(url, options: options))
      }
      files = try ZipArchive(data: data, file: url.path, limits: options.limits)
    }
    let reader = EPUBReader(files: files, options: options)
    return ChapterLoader(reader: reader, plan: try reader.prepare(), fontFiles: fontFiles)
  }
}

/// Converts a book's chapters on demand; safe to use from several threads (each chapter is
/// converted at most once per caller race, and the first result is kept).
package final class ChapterLoader: Sendable {
  private let reader: EPUBReader?
  private let plan: EPUBReader.Plan?
  private let whole: Document?
  /// Where embedded font files' usable bytes are kept between runs (nil: read every time).
  private let fontFiles: (any FontFileArchive)?
  /// Conversion results by chapter, and the resource store once built.
  private let state:
    Mutex<
      (slots: [Result<ConvertedChapter, IngestError>?], resources: PackageResourceStore?)
    >

  init(reader: EPUBReader, plan: EPUBReader.Plan, fontFiles: (any FontFileArchive)? = nil) {
    self.reader = reader
    self.plan = plan
    self.whole = nil
    self.fontFiles = fontFiles
    state = Mutex((Array(repeating: nil, count: plan.items.count), nil))
  }

  init(whole: Document) {
    reader = nil
    plan = nil
    self.whole = whole
    fontFiles = nil
    state = Mutex(([], nil))
  }

  /// This loader's package with `fontFiles` keeping its embedded fonts' usable bytes, for a
  /// loader opened before the store was known (no chapter converted yet is shared).
  package func keeping(_ fontFiles: (any FontFileArchive)?) -> ChapterLoader {
    guard let reader, let plan else { return self }
    return ChapterLoader(reader: reader, plan: plan, fontFiles: fontFiles)
  }

  /// Number of chapters (readable spine items).
  package var count: Int { whole?.chapters.count ?? plan!.items.count }

  package var metadata: BookMetadata { whole?.metadata ?? plan!.opf.metadata }

  /// The first `n` chapters (converted now if not yet, in parallel) as a Document with the
  /// fonts their @font-face rules declare. Its toc, landmarks and warnings are empty: the
  /// whole book's come from `document()`.
  package func prefix(_ n: Int) throws(IngestError) -> Document {
    let n = max(0, min(n, count))
    if var doc = whole {
      doc.chapters = Array(doc.chapters.prefix(n))
      doc.toc = []
      doc.warnings = []
      return doc
    }
    let plan = plan!
    let converted = try chapters(0..<n)
    var faces: [FontFaceRule] = []
    for c in converted { faces += c.fontFaces }
    let store = resources()
    var ignored: [Diagnostic] = []
    let fonts = EPUBReader.loadFonts(
      faces, store: fontStore(store), encryption: plan.encryption, warnings: &ignored)
    return Document(
      format: .epub, metadata: plan.opf.metadata, chapters: converted.map(\.chapter), toc: [],
      fonts: fonts, images: [], resources: store, warnings: [])
  }

  /// Chapter `k` alone (converted now if not yet) in a Document of all `count` chapters whose
  /// others are left empty, with the fonts chapter k's @font-face rules declare: what laying
  /// out that one chapter needs (a page from the persisted layout cache). Its toc, landmarks
  /// and warnings are empty.
  package func only(_ k: Int) throws(IngestError) -> Document {
    if var doc = whole {
      for i in doc.chapters.indices where i != k {
        doc.chapters[i].blocks = []
        doc.chapters[i].anchors = [:]
      }
      doc.toc = []
      doc.warnings = []
      return doc
    }
    let plan = plan!
    guard plan.items.indices.contains(k) else { return try prefix(0) }
    let converted = try chapters(k..<(k + 1))[0]
    var ignored: [Diagnostic] = []
    let store = resources()
    let fonts = EPUBReader.loadFonts(
      converted.fontFaces, store: fontStore(store), encryption: plan.encryption,
      warnings: &ignored)
    let chapters = plan.items.indices.map { i in
      i == k
        ? converted.chapter
        : Chapter(
          spineIndex: i, href: plan.items[i].item.path, mediaType: plan.items[i].item.mediaType,
          linear: plan.items[i].linear, size: 0, language: plan.opf.metadata.language,
          direction: nil, blocks: [], anchors: [:], length: 0)
    }
    return Document(
      format: .epub, metadata: plan.opf.metadata, chapters: chapters, toc: [], fonts: fonts,
      images: [], resources: store, warnings: [])
  }

  /// The whole book, exactly as `Book.open` gives it; converts the chapters not yet converted
  /// in parallel.
  package func document() throws(IngestError) -> Document {
    if let whole { return whole }
    let reader = reader!
    let plan = plan!
    let navigation = fill(0..<count, navigation: true)
    return try reader.assemble(plan, snapshot(), navigation: navigation)
  }

  /// Converted chapters of `range`, failures handled as `Book.open` does (fatal ones thrown,
  /// others left empty).
  private func chapters(_ range: Range<Int>) throws(IngestError) -> [ConvertedChapter] {
    let plan = plan!
    fill(range)
    let all = snapshot()
    var out: [ConvertedChapter] = []
    for i in range {
      switch all[i] {
      case .success(let c)?: out.append(c)
      case .failure(let error)?:
        if error.isFatal { throw error }
        let (item, linear) = plan.items[i]
        out.append(
          ConvertedChapter(
            chapter: Chapter(
              spineIndex: i, href: item.path, mediaType: item.mediaType, linear: linear, size: 0,
              language: plan.opf.metadata.language, direction: nil, blocks: [], anchors: [:],
              length: 0), fontFaces: [], warnings: []))
      case nil: preconditionFailure("chapter \(i) was never converted")
      }
    }
    return out
  }

  /// Converts the chapters of `range` that are not converted yet, in parallel, largest
  /// first; with `navigation`, reads the book's navigation meanwhile and returns it.
  @discardableResult
  private func fill(_ range: Range<Int>, navigation: Bool = false) -> EPUBReader.Navigation? {
    let plan = plan!
    let known = snapshot()
    let missing = plan.conversionOrder(range).filter { known[$0] == nil }
    let extra = navigation ? 1 : 0
    let read = ResultSlots<EPUBReader.Navigation>(count: 1)
    if missing.count + extra == 0 { return nil }
    let limits = reader!.options.limits
    DispatchQueue.concurrentPerform(iterations: missing.count + extra) { k in
      if k < extra {
        read.set(0, EPUBReader.Navigation(plan, limits: limits))
        return
      }
      let i = missing[k - extra]
      let result = plan.convert(i)
      state.withLock { if $0.slots[i] == nil { $0.slots[i] = result } }
    }
    return read.values[0]
  }

  /// The store fonts are loaded from: `store`, its plain font files kept in `fontFiles`.
  private func fontStore(_ store: PackageResourceStore) -> any ResourceStore {
    guard let fontFiles else { return store }
    return ArchivedFontStore(base: store, archive: fontFiles)
  }

  private func snapshot() -> [Result<ConvertedChapter, IngestError>?] {
    state.withLock { $0.slots }
  }

  /// The book's resources with obfuscated fonts decoded, as `assemble` builds them (its
  /// warnings are left to `document()`).
  private func resources() -> PackageResourceStore {
    state.withLock { state in
      if let cached = state.resources { return cached }
      let store = buildResources()
      state.resources = store
      return store
    }
  }

  private func buildResources() -> PackageResourceStore {
    let plan = plan!
    var decoded: [String: Data] = [:]
    for (path, method) in plan.encryption.obfuscated.sorted(by: { $0.key < $1.key })
    where plan.files.contains(path) {
      if let kept = fontFiles?.bytes(path: path) {
        decoded[path] = kept
        continue
      }
      guard let key = EncryptionMap.key(method, identifier: plan.opf.uniqueIdentifier),
        let bytes = try? plan.files.read(path)
      else { continue }
      decoded[path] = EncryptionMap.deobfuscate(bytes, method: method, key: key)
      fontFiles?.keep(decoded[path]!, path: path)
    }
    var store = PackageResourceStore(
      files: plan.files, refused: Set(plan.encryption.refused.keys), decoded: decoded)
    store.imageFallbacks = plan.opf.imageFallbacks()
    return store
  }
}
