// libFuzzer entry with a structure-aware EPUB mutator (LLVMFuzzerCustomMutator).
// Built by Fuzz/run.sh epub together with the QuireIngest sources.
//
// Design: inputs stay real EPUB (ZIP) files, so the seeds are the corpus books and every
// crasher is directly a fixture for Tests/QuireIngestTests/Fixtures/hostile/. The mutator
// opens the input with the reader's own ZipArchive, changes the book at the level of its
// container — entry names, which entries exist, container.xml's rootfile, the OPF's
// manifest/spine/metadata, XHTML elements and text, CSS rules — and writes a new ZIP
// (stored or raw deflate, chosen by the seed). Byte-level mutation of one entry's text
// (libFuzzer's own LLVMFuzzerMutate) is one of the operations; raw bytes of the whole
// file are mutated only when the input is not a readable ZIP. The size-attack shapes of
// issue #9 (storms of &shy;/tabs/<br/>, long combining runs, many attributes, deep
// nesting, selector-heavy CSS, data: URIs) are in the insertion dictionary, scaled small
// so one input stays fast.
// The one-input function is the same as the zip target's (`fuzzPackage`, small limits).

import CZlib
import Foundation

/// One input: the whole EPUB reader under the fuzzing limits.
@_cdecl("LLVMFuzzerTestOneInput")
public func epubFuzzTestOneInput(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
  fuzzPackage(Data(bytes: bytes, count: count), limits: EPUBMutator.limits)
  return 0
}

@_silgen_name("LLVMFuzzerMutate")
func libFuzzerMutate(_ data: UnsafeMutablePointer<UInt8>, _ size: Int, _ maxSize: Int) -> Int

/// libFuzzer's mutation hook: a structural mutation of the EPUB in `data` (in place, at most
/// `maxSize` bytes), or libFuzzer's byte mutation when it is not a readable ZIP.
@_cdecl("LLVMFuzzerCustomMutator")
public func epubFuzzCustomMutator(
  _ data: UnsafeMutablePointer<UInt8>, _ size: Int, _ maxSize: Int, _ seed: CUnsignedInt
) -> Int {
  var m = EPUBMutator(seed: UInt64(seed))
  let input = Data(bytes: data, count: size)
  guard let out = m.mutate(input, maxSize: maxSize), out.count <= maxSize, !out.isEmpty else {
    return libFuzzerMutate(data, size, maxSize)
  }
  out.copyBytes(to: data, count: out.count)
  return out.count
}

/// SplitMix64: a small deterministic generator seeded by libFuzzer.
struct SplitMix {
  var state: UInt64
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
  mutating func below(_ n: Int) -> Int { n <= 0 ? 0 : Int(next() % UInt64(n)) }
  mutating func chance(_ percent: Int) -> Bool { below(100) < percent }
}

/// One EPUB as (raw name, bytes) pairs in archive order.
struct EPUBMutator {
  /// The reader's limits for fuzzing, same as the zip target: small, so each input is fast.
  static let limits: IngestLimits = {
    var l = IngestLimits()
    l.maxEntryBytes = 8 << 20
    l.maxTotalBytes = 32 << 20
    l.maxEntries = 2_000
    return l
  }()

  var rng: SplitMix
  var entries: [(name: String, data: Data)] = []

  init(seed: UInt64) { rng = SplitMix(state: seed) }

  /// The mutated EPUB, or nil when the input is not a ZIP the reader opens.
  mutating func mutate(_ input: Data, maxSize: Int) -> Data? {
    guard let archive = try? ZipArchive(data: input, file: "fuzz.epub", limits: Self.limits)
    else { return nil }
    entries = archive.entries.prefix(400).compactMap { e in
      guard let d = try? archive.read(e.name) else { return nil }
      return (e.rawName, d)
    }
    if entries.isEmpty { entries = [("mimetype", Data("application/epub+zip".utf8))] }
    for _ in 0...rng.below(3) { mutateOnce() }
    // Keep the archive inside libFuzzer's max_len: deflate when stored is too big.
    let stored = rng.chance(30)
    let out = ZipWriter.archive(entries, deflate: !stored)
    return out.count <= maxSize ? out : ZipWriter.archive(entries, deflate: true)
  }

  mutating func mutateOnce() {
    switch rng.below(10) {
    case 0: renameEntry()
    case 1: dropOrDuplicateEntry()
    case 2: mutateContainer()
    case 3, 4: mutateOPF()
    case 5, 6, 7: mutateMarkup()
    case 8: mutateCSS()
    default: mutateBytes(of: rng.below(entries.count))
    }
  }

  func indices(where test: (String) -> Bool) -> [Int] {
    entries.indices.filter { test(entries[$0].name.lowercased()) }
  }

  mutating func pick(where test: (String) -> Bool) -> Int? {
    let found = indices(where: test)
    return found.isEmpty ? nil : found[rng.below(found.count)]
  }

  mutating func renameEntry() {
    let i = rng.below(entries.count)
    let names = entries.map(\.name)
    let tricky = [
      "../" + entries[i].name, "/" + entries[i].name, entries[i].name.uppercased(),
      entries[i].name + "/", "OEBPS//" + entries[i].name, "%2e%2e/x.xhtml", "C:\\evil.xhtml",
      entries[i].name.replacingOccurrences(of: "/", with: "\\"), "ünï/çødé.xhtml",
      String(repeating: "d/", count: 200) + "deep.xhtml", names[rng.below(names.count)],
      "OEBPS/" + String(repeating: "x", count: 300) + ".xhtml",
    ]
    entries[i].name = tricky[rng.below(tricky.count)]
  }

  mutating func dropOrDuplicateEntry() {
    let i = rng.below(entries.count)
    if rng.chance(50), entries.count > 1 {
      entries.remove(at: i)
    } else {
      entries.insert(entries[i], at: rng.below(entries.count + 1))
    }
  }

  mutating func mutateContainer() {
    guard let i = pick(where: { $0.hasSuffix("container.xml") }) else { return }
    let opfs = entries.map(\.name).filter { $0.lowercased().hasSuffix(".opf") }
    let target =
      [
        opfs.randomElement(using: &rng), "missing.opf", "../content.opf", "",
        "META-INF/container.xml",
      ]
      .compactMap { $0 }
    var s = text(i)
    let path = target[rng.below(target.count)]
    if let r = s.range(of: #"full-path="[^"]*""#, options: .regularExpression) {
      s.replaceSubrange(r, with: "full-path=\"\(path)\"")
    }
    if rng.chance(30) {  // a second rootfile, or none
      s = s.replacingOccurrences(
        of: "</rootfiles>",
        with: rng.chance(50)
          ? "<rootfile full-path=\"\(path)\" media-type=\"application/oebps-package+xml\"/></rootfiles>"
          : "")
    }
    entries[i].data = Data(s.utf8)
  }

  mutating func mutateOPF() {
    guard let i = pick(where: { $0.hasSuffix(".opf") }) else { return }
    var s = text(i)
    let names = entries.map(\.name)
    switch rng.below(8) {
    case 0:  // duplicate an itemref (spine)
      duplicate(#"<itemref[^>]*/>"#, in: &s, times: 1 + rng.below(50))
    case 1:  // drop a manifest item
      remove(#"<item [^>]*/>"#, in: &s)
    case 2:  // point an href somewhere else
      let targets = names + ["missing.xhtml", "../x.xhtml", "#frag", "a%20b.xhtml", "data:,x", ""]
      replace(#"href="[^"]*""#, in: &s, with: "href=\"\(targets[rng.below(targets.count)])\"")
    case 3:  // shuffle the spine's order by moving one itemref to the front
      if let r = s.range(of: #"<itemref[^>]*/>"#, options: .regularExpression),
        let spine = s.range(of: "<spine[^>]*>", options: .regularExpression)
      {
        let item = String(s[r])
        s.removeSubrange(r)
        if let spine2 = s.range(of: "<spine[^>]*>", options: .regularExpression) {
          s.insert(contentsOf: item, at: spine2.upperBound)
        } else {
          _ = spine
        }
      }
    case 4:  // attributes that change meaning
      let attrs = [
        " linear=\"no\"", " properties=\"nav\"", " properties=\"cover-image\"",
        " fallback=\"c0\"", " media-type=\"image/svg+xml\"", " media-type=\"text/css\"",
      ]
      replace(#"<item(ref)? "#, in: &s, with: "<item" + attrs[rng.below(attrs.count)] + " ")
    case 5:  // metadata: huge title, odd direction, many identifiers
      let meta = [
        "<dc:title>" + String(repeating: "T", count: 5_000) + "</dc:title>",
        "<dc:language>" + ["ar", "ja", "zz-Latn", "", "hi"][rng.below(5)] + "</dc:language>",
        String(repeating: "<dc:identifier>x</dc:identifier>", count: 100),
        "<meta name=\"cover\" content=\"nav\"/>",
      ]
      s = s.replacingOccurrences(
        of: "</metadata>", with: meta[rng.below(meta.count)] + "</metadata>")
      if rng.chance(30) {
        s = s.replacingOccurrences(
          of: "<spine", with: "<spine page-progression-direction=\"rtl\"")
      }
    case 6:  // an item for every entry (fonts, images, CSS become chapters or resources)
      let name = names[rng.below(names.count)]
      let type = ["application/xhtml+xml", "text/css", "image/png", "font/otf"][rng.below(4)]
      s = s.replacingOccurrences(
        of: "</manifest>",
        with:
          "<item id=\"fz\(rng.below(100))\" href=\"\(name)\" media-type=\"\(type)\"/></manifest>")
      s = s.replacingOccurrences(of: "</spine>", with: "<itemref idref=\"fz0\"/></spine>")
    default:
      mutateBytes(of: i)
      return
    }
    entries[i].data = Data(s.utf8)
  }

  /// Shapes inserted into chapters: ordinary markup, and the issue's size attacks scaled down.
  mutating func snippet() -> String {
    let n = 1 + rng.below(2_000)
    let shapes: [String] = [
      "<br/>", "<p>a</p>", "<table><tr><td>a</td><td>b</td></tr></table>",
      "<img src=\"data:image/png;base64,\(String(repeating: "QUJD", count: n))\"/>",
      "<img src=\"missing.png\"/>", "<svg><rect width=\"10\" height=\"10\"/></svg>",
      String(repeating: "a&#xAD;", count: n),
      "<pre>" + String(repeating: "x\t", count: n) + "</pre>",
      String(repeating: "<br/>", count: n), "a" + String(repeating: "\u{0301}", count: n),
      "<p " + (0..<min(n, 500)).map { "a\($0)=\"x\"" }.joined(separator: " ") + ">many</p>",
      String(repeating: "<div>", count: min(n, 300)) + "deep"
        + String(repeating: "</div>", count: min(n, 300)),
      String(repeating: "W", count: n), "<p dir=\"rtl\">مرحبا abc</p>",
      "<ruby>漢<rt>kan</rt></ruby>",
      "<style>" + String(repeating: "div p span.s { color: red } ", count: min(n, 300))
        + "</style>",
      "<p style=\"white-space:pre; font-size:400px; text-indent:-9999px\">x</p>",
      "<a href=\"#nowhere\" id=\"dup\">x</a><a id=\"dup\">y</a>", "&amp;&lt;&#0;&#xFFFF;&#x10FFFF;",
      "<ol start=\"-5\"><li value=\"999999999999\">x</li></ol>", "<h1>Title</h1>",
      "\u{FEFF}\u{202E}",
    ]
    return shapes[rng.below(shapes.count)]
  }

  mutating func mutateMarkup() {
    guard
      let i = pick(where: {
        $0.hasSuffix(".xhtml") || $0.hasSuffix(".html") || $0.hasSuffix(".htm")
      })
    else { return }
    var s = text(i)
    let tags = s.indices.filter { s[$0] == "<" }
    let at = tags.isEmpty ? s.endIndex : tags[rng.below(tags.count)]
    switch rng.below(4) {
    case 0, 1:  // insert a shape before a random tag
      s.insert(contentsOf: snippet(), at: at)
    case 2:  // duplicate the slice between two tags
      if tags.count > 1 {
        let a = rng.below(tags.count - 1)
        let b = a + 1 + rng.below(min(20, tags.count - a - 1))
        let slice = String(s[tags[a]..<tags[b]])
        s.insert(contentsOf: String(repeating: slice, count: 1 + rng.below(20)), at: tags[b])
      }
    default:  // delete the slice between two tags
      if tags.count > 1 {
        let a = rng.below(tags.count - 1)
        s.removeSubrange(tags[a]..<tags[a + 1])
      }
    }
    entries[i].data = Data(s.utf8)
  }

  mutating func mutateCSS() {
    let rules = [
      "p { display: none }", "* { float: left; width: 1px }", "body { font-size: 0 }",
      "p::first-letter { font-size: 900% }", "@media (min-width: 1px) { p { color: red } }",
      "@font-face { font-family: X; src: url(missing.otf) }", "div > p + p ~ span:not(.x) { }",
      "@import url(style.css);", "p { line-height: 0; margin: -500px }", "{{{{;;;}}}}",
      String(repeating: "a ", count: 500) + "{ color: blue }",
      (0..<300).map { ".c\($0) p span { color: #\($0 % 10)00 }" }.joined(separator: "\n"),
    ]
    let rule = rules[rng.below(rules.count)]
    if let i = pick(where: { $0.hasSuffix(".css") }) {
      entries[i].data.append(Data(("\n" + rule).utf8))
    } else if let i = pick(where: { $0.hasSuffix(".xhtml") || $0.hasSuffix(".html") }) {
      let s = text(i).replacingOccurrences(of: "</head>", with: "<style>\(rule)</style></head>")
      entries[i].data = Data(s.utf8)
    }
  }

  /// libFuzzer's byte mutation on one entry (bounded to 64 KiB of growth).
  mutating func mutateBytes(of i: Int) {
    guard entries.indices.contains(i) else { return }
    var bytes = [UInt8](entries[i].data)
    let size = bytes.count
    bytes.append(contentsOf: [UInt8](repeating: 0, count: 65_536))
    let n = bytes.withUnsafeMutableBufferPointer { b in
      size == 0 ? 0 : libFuzzerMutate(b.baseAddress!, size, b.count)
    }
    entries[i].data = Data(bytes.prefix(n))
  }

  func text(_ i: Int) -> String { String(decoding: entries[i].data, as: UTF8.self) }

  mutating func duplicate(_ pattern: String, in s: inout String, times: Int) {
    guard let r = s.range(of: pattern, options: .regularExpression) else { return }
    s.insert(contentsOf: String(repeating: String(s[r]), count: times), at: r.upperBound)
  }

  mutating func remove(_ pattern: String, in s: inout String) {
    if let r = s.range(of: pattern, options: .regularExpression) { s.removeSubrange(r) }
  }

  mutating func replace(_ pattern: String, in s: inout String, with new: String) {
    var ranges: [Range<String.Index>] = []
    var from = s.startIndex
    while let r = s.range(of: pattern, options: .regularExpression, range: from..<s.endIndex) {
      ranges.append(r)
      from = r.upperBound
    }
    guard !ranges.isEmpty else { return }
    s.replaceSubrange(ranges[rng.below(ranges.count)], with: new)
  }
}

extension SplitMix: RandomNumberGenerator {}

/// A minimal ZIP writer: local headers, central directory, end record; stored or raw deflate.
enum ZipWriter {
  static func archive(_ entries: [(name: String, data: Data)], deflate: Bool) -> Data {
    var out = Data()
    var central = Data()
    for e in entries {
      let name = Data(e.name.utf8)
      let stored = !deflate || e.name == "mimetype"
      let payload = stored ? e.data : (deflateRaw(e.data) ?? e.data)
      let method: UInt16 = stored || payload == e.data ? 0 : 8
      let crc = e.data.withUnsafeBytes { raw in
        UInt32(crc32(0, raw.baseAddress?.assumingMemoryBound(to: Bytef.self), uInt(raw.count)))
      }
      let offset = UInt32(truncatingIfNeeded: out.count)
      var local = Data()
      local.le32(0x0403_4b50)
      local.le16(20)
      local.le16(0)
      local.le16(method)
      local.le16(0)
      local.le16(0x5021)
      local.le32(crc)
      local.le32(UInt32(truncatingIfNeeded: payload.count))
      local.le32(UInt32(truncatingIfNeeded: e.data.count))
      local.le16(UInt16(truncatingIfNeeded: name.count))
      local.le16(0)
      out += local + name + payload
      var c = Data()
      c.le32(0x0201_4b50)
      c.le16(20)
      c.le16(20)
      c.le16(0)
      c.le16(method)
      c.le16(0)
      c.le16(0x5021)
      c.le32(crc)
      c.le32(UInt32(truncatingIfNeeded: payload.count))
      c.le32(UInt32(truncatingIfNeeded: e.data.count))
      c.le16(UInt16(truncatingIfNeeded: name.count))
      for _ in 0..<4 { c.le16(0) }  // extra, comment, disk, internal attributes
      c.le32(0)
      c.le32(offset)
      central += c + name
    }
    let cdOffset = UInt32(truncatingIfNeeded: out.count)
    out += central
    var end = Data()
    end.le32(0x0605_4b50)
    end.le16(0)
    end.le16(0)
    end.le16(UInt16(truncatingIfNeeded: entries.count))
    end.le16(UInt16(truncatingIfNeeded: entries.count))
    end.le32(UInt32(truncatingIfNeeded: central.count))
    end.le32(cdOffset)
    end.le16(0)
    return out + end
  }

  /// Raw deflate (no zlib header), as ZIP method 8 stores it.
  static func deflateRaw(_ data: Data) -> Data? {
    var stream = z_stream()
    guard czlib_deflate_init2(&stream, 6, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) == Z_OK else {
      return nil
    }
    defer { deflateEnd(&stream) }
    let bound = Int(deflateBound(&stream, uLong(data.count)))
    var out = [UInt8](repeating: 0, count: bound)
    let status: Int32 = data.withUnsafeBytes { raw in
      out.withUnsafeMutableBufferPointer { o in
        stream.next_in = UnsafeMutablePointer(
          mutating: raw.baseAddress?.assumingMemoryBound(to: Bytef.self))
        stream.avail_in = uInt(raw.count)
        stream.next_out = o.baseAddress
        stream.avail_out = uInt(o.count)
        return CZlib.deflate(&stream, Z_FINISH)
      }
    }
    guard status == Z_STREAM_END else { return nil }
    return Data(out.prefix(Int(stream.total_out)))
  }
}

extension Data {
  mutating func le16(_ v: UInt16) { append(contentsOf: [UInt8(v & 0xFF), UInt8(v >> 8)]) }
  mutating func le32(_ v: UInt32) {
    append(contentsOf: [
      UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 24),
    ])
  }
}
