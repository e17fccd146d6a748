// libFuzzer entry for the typesetter (built by Fuzz/run.sh typeset, compiled into the
// QuireTypeset module). One input = layout options + one paragraph of styled runs, decoded
// from the bytes into a hand-built Document (no ingest in the loop: the fuzzer's bytes go
// straight to the inline stages). Each input is laid out and checked:
//   - no line leaves the text area (but CJK punctuation hanging past the measure, which
//     is designed to, by at most one em);
//   - every letter of the source is shown on the lines, in order (white space, soft
//     hyphens, marks and invisible characters aside; case folded for text-transform).
// A failed check traps, so libFuzzer saves the input as a crasher.

import Foundation
import QuireIngest

/// Characters the decoder draws from: the classes that stress breaking.
private let alphabet: [UInt32] = [
  0x61, 0x62, 0x65, 0x6E, 0x78, 0x41, 0x30, 0x20, 0x20, 0x20, 0x09, 0x0A, 0xAD, 0xA0, 0x2D,
  0x2014, 0x2F, 0x2E, 0x2C, 0x301, 0x302, 0x34F, 0x200B, 0x200D, 0x2028, 0x4E00, 0x4E8C,
  0x3001, 0x3002, 0x300C, 0x300D, 0x30FC, 0x3042, 0xFF1F, 0x627, 0x644, 0x645, 0x5D0, 0x5D1,
  0x915, 0x94D, 0x937, 0x1F600, 0xFE0F, 0x10FFFD, 0xFFFC,
]

/// The bytes as a cursor.
private struct FuzzBytes {
  let bytes: UnsafeBufferPointer<UInt8>
  var at = 0
  mutating func next() -> UInt8? {
    guard at < bytes.count else { return nil }
    defer { at += 1 }
    return bytes[at]
  }
}

/// Options and a paragraph from the bytes.
private func decode(_ bytes: UnsafeBufferPointer<UInt8>) -> (LayoutOptions, Document, String) {
  var input = FuzzBytes(bytes: bytes)
  var o = LayoutOptions()
  let flags = input.next() ?? 0
  o.lineBreaking = flags & 1 == 0 ? .optimal : .greedy
  o.align = flags & 2 == 0 ? .justify : .start
  o.hyphenate = flags & 4 == 0 ? .auto : .off
  o.width = 120 + Int(input.next() ?? 0) * 3
  o.height = 200 + Int(input.next() ?? 0) * 3
  o.fontSize = 6 + Double(input.next() ?? 0) / 8
  o.margins = .init(top: 10, right: 10, bottom: 10, left: 10)
  var inlines: [Inline] = []
  var offset = 0
  var source = ""
  var blockStyle = ComputedStyle()
  blockStyle.textIndent = .rem(Double(Int(flags >> 4) - 4) / 2)
  if flags & 8 != 0 { blockStyle.whiteSpace = flags & 0x10 == 0 ? .pre : .nowrap }
  while let s = input.next() {
    var style = blockStyle
    style.italic = s & 1 != 0
    style.fontWeight = s & 2 != 0 ? 700 : 400
    style.smallCaps = s & 4 != 0
    style.textTransform = s & 8 != 0 ? .uppercase : .none
    style.fontSize = s & 16 != 0 ? 1.8 : 1
    let length = Int(input.next() ?? 0) % 64 + 1
    var text = String.UnicodeScalarView()
    for _ in 0..<length {
      guard let b = input.next() else { break }
      let v: UInt32
      if b < 0xF0 {
        v = alphabet[Int(b) % alphabet.count]
      } else {  // a repeat: the previous scalar many times (runs of marks, long words)
        // At most 20 000 scalars in all: fast to lay out under ASan.
        let count = min(Int(input.next() ?? 0) * 4, max(0, 20_000 - offset - text.count))
        let last = text.last ?? "x"
        for _ in 0..<count { text.append(last) }
        continue
      }
      text.append(Unicode.Scalar(v) ?? "x")
    }
    let run = String(text)
    source += style.textTransform == .uppercase ? run.uppercased() : run
    inlines.append(
      .text(TextRun(text: run, style: style, location: Location(spine: 0, offset: offset))))
    offset += text.count
  }
  let block = Block(
    kind: .paragraph, style: blockStyle, inlines: inlines,
    location: Location(spine: 0, offset: 0), element: "p")
  let chapter = Chapter(
    spineIndex: 0, href: "fuzz.xhtml", mediaType: "application/xhtml+xml", linear: true,
    size: offset, language: "en", direction: nil, blocks: [block], anchors: [:], length: offset)
  let doc = Document(
    format: .html,
    metadata: BookMetadata(title: "fuzz", language: "en", identifier: "fuzz", direction: .ltr),
    chapters: [chapter], toc: [], fonts: [], images: [], resources: EmptyResourceStore(),
    warnings: [])
  return (o, doc, source)
}

/// The letters a reader must find on the page: letters and digits, case folded.
private func letters(_ s: String) -> [UInt32] {
  s.unicodeScalars.filter { $0.properties.isAlphabetic || ("0"..."9").contains($0) }
    .filter { $0.properties.generalCategory != .nonspacingMark }
    .flatMap { String($0).lowercased().unicodeScalars.map(\.value) }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func typesetFuzzTestOneInput(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
  let (options, doc, source) = decode(UnsafeBufferPointer(start: bytes, count: count))
  guard let typesetter = try? Typesetter(document: doc, options: options) else { return 0 }
  let book = typesetter.layoutBook(threads: 1)
  let left = options.margins.left
  let right = Double(options.width) - options.margins.right
  let hanging: Set<Character> = ["。", "、", "，", "．", "」", "？", "）"]
  for line in book.pages.flatMap(\.lines) {
    let slack = line.text.last.map { hanging.contains($0) } == true ? 4 * options.fontSize : 0.01
    // One grapheme (one glyph, at a huge size on a narrow page) cannot be cut.
    if line.text.count == 1 { continue }
    if line.rect.x < left - slack || line.rect.maxX > right + slack {
      fatalError("line \(line.rect) leaves \(left)…\(right): \(line.text.prefix(80))")
    }
  }
  let shown = letters(book.pages.flatMap(\.lines).map(\.text).joined())
  if shown != letters(source) {
    fatalError("text not conserved: \(shown.count) letters shown of \(letters(source).count)")
  }
  return 0
}
