// Bytes → text for plain-text books.
//
// Order: a byte-order mark decides (UTF-8, UTF-16LE/BE, UTF-32LE/BE); else valid UTF-8;
// else GB18030 (the legacy encoding of the Chinese books we must read; it covers GBK and
// GB2312 as subsets). `IngestOptions.encoding` forces any encoding name glibc knows.
//
// Why glibc `iconv` and not Foundation: on Linux, `String(data:encoding:)` only knows the
// Unicode encodings, ASCII, Latin-1 and a few Western code pages; GB18030 is not among them
// (CFStringEncoding conversions are not wired through on Linux). glibc's iconv ships a
// complete GB18030 table (the four-byte ranges included) and converts the corpus file back
// to the exact original UTF-8. Invalid byte sequences become U+FFFD (one per bad byte).

import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

struct DecodedText {
  var text: String
  /// The encoding actually used (IANA-ish name).
  var encoding: String
  /// Number of invalid byte sequences replaced by U+FFFD.
  var replacements: Int
}

/// One iconv conversion descriptor; closed when the owner goes away.
final class IconvConverter {
  private let cd: iconv_t
  let fromEncoding: String

  init?(from: String) {
    let cd = iconv_open("UTF-8", from)
    guard let cd, cd != iconv_t(bitPattern: -1) else { return nil }
    self.cd = cd
    self.fromEncoding = from
  }

  deinit { iconv_close(cd) }

  /// Converts all of `data`; bad bytes become U+FFFD.
  func convert(_ data: Data) -> (String, Int) {
    var output = [UInt8]()
    output.reserveCapacity(data.count * 3 / 2)
    var replacements = 0
    var input = [UInt8](data)
    let chunk = 64 * 1024
    var outBuf = [UInt8](repeating: 0, count: chunk)
    input.withUnsafeMutableBufferPointer { inPtr in
      var inLeft = inPtr.count
      var inPos = 0
      while inLeft > 0 {
        var inP: UnsafeMutablePointer<CChar>? = UnsafeMutableRawPointer(inPtr.baseAddress! + inPos)
          .assumingMemoryBound(to: CChar.self)
        var inBytes = inLeft
        let (rc, produced, err) = outBuf.withUnsafeMutableBufferPointer {
          outPtr -> (Int, Int, Int32) in
          var outP: UnsafeMutablePointer<CChar>? = UnsafeMutableRawPointer(outPtr.baseAddress!)
            .assumingMemoryBound(to: CChar.self)
          var outLeft = outPtr.count
          let rc = iconv(cd, &inP, &inBytes, &outP, &outLeft)
          let e = errno
          return (rc, outPtr.count - outLeft, e)
        }
        output.append(contentsOf: outBuf[0..<produced])
        inPos += inLeft - inBytes
        inLeft = inBytes
        if rc == -1 {
          if err == E2BIG { continue }
          // EILSEQ (invalid) or EINVAL (truncated at the end): replace one byte, go on.
          output.append(contentsOf: [0xEF, 0xBF, 0xBD])
          replacements += 1
          inPos += 1
          inLeft -= 1
          // Reset the shift state after an error.
          iconv(cd, nil, nil, nil, nil)
        }
      }
    }
    return (String(decoding: output, as: UTF8.self), replacements)
  }
}

enum TextDecoding {
  static func decode(_ data: Data, forced: String?, file: String) throws(IngestError) -> DecodedText
  {
    if let forced {
      guard let conv = IconvConverter(from: forced) else {
        throw .badData(file: file, reason: "unknown encoding \(forced) (iconv_open failed)")
      }
      var bytes = data
      // A BOM of the forced Unicode encoding is not text.
      let upper = forced.uppercased()
      if upper.hasPrefix("UTF-8") || upper == "UTF8", bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
        bytes = bytes.dropFirst(3)
      }
      let (text, bad) = conv.convert(bytes)
      return DecodedText(text: stripBOM(text), encoding: forced, replacements: bad)
    }
    let b = [UInt8](data.prefix(4))
    if b.starts(with: [0xFF, 0xFE, 0x00, 0x00]) {
      return try iconvDecode(data.dropFirst(4), "UTF-32LE", file)
    }
    if b.starts(with: [0x00, 0x00, 0xFE, 0xFF]) {
      return try iconvDecode(data.dropFirst(4), "UTF-32BE", file)
    }
    if b.starts(with: [0xEF, 0xBB, 0xBF]) { return utf8(data.dropFirst(3)) }
    if b.starts(with: [0xFF, 0xFE]) { return utf16(data.dropFirst(2), littleEndian: true) }
    if b.starts(with: [0xFE, 0xFF]) { return utf16(data.dropFirst(2), littleEndian: false) }
    if let s = String(validatingUTF8Data: data) {
      return DecodedText(text: s, encoding: "UTF-8", replacements: 0)
    }
    // Not UTF-8: GB18030, unless that is even worse than lossy UTF-8.
    let gb = try iconvDecode(data, "GB18030", file)
    let lossy = utf8(data)
    return lossy.replacements < gb.replacements ? lossy : gb
  }

  private static func iconvDecode(_ data: Data, _ name: String, _ file: String) throws(IngestError)
    -> DecodedText
  {
    guard let conv = IconvConverter(from: name) else {
      throw .badData(file: file, reason: "encoding \(name) unavailable (iconv_open failed)")
    }
    let (text, bad) = conv.convert(data)
    return DecodedText(text: text, encoding: name, replacements: bad)
  }

  static func utf8(_ data: Data) -> DecodedText {
    // Count maximal invalid subsequences the way the standard library replaces them.
    let (text, bad) = transcode(data.makeIterator(), UTF8.self)
    return DecodedText(text: text, encoding: "UTF-8", replacements: bad)
  }

  /// Decodes code units, replacing each maximal invalid subsequence with U+FFFD; returns
  /// the text and how many replacements were made.
  static func transcode<I: IteratorProtocol, C: UnicodeCodec>(_ units: I, _ codec: C.Type)
    -> (String, Int) where I.Element == C.CodeUnit
  {
    var it = units
    var decoder = C()
    var bad = 0
    var text = String.UnicodeScalarView()
    loop: while true {
      switch decoder.decode(&it) {
      case .scalarValue(let s): text.append(s)
      case .error:
        bad += 1
        text.append("\u{FFFD}")
      case .emptyInput: break loop
      }
    }
    return (String(text), bad)
  }

  static func utf16(_ data: Data, littleEndian: Bool) -> DecodedText {
    var units: [UInt16] = []
    units.reserveCapacity(data.count / 2)
    var i = data.startIndex
    while i + 1 < data.endIndex {
      let a = UInt16(data[i])
      let b = UInt16(data[i + 1])
      units.append(littleEndian ? a | b << 8 : a << 8 | b)
      i += 2
    }
    var (text, bad) = transcode(units.makeIterator(), UTF16.self)
    bad += data.count % 2
    if data.count % 2 == 1 { text.append("\u{FFFD}") }
    return DecodedText(
      text: text, encoding: littleEndian ? "UTF-16LE" : "UTF-16BE", replacements: bad)
  }

  private static func stripBOM(_ s: String) -> String {
    s.unicodeScalars.first == "\u{FEFF}" ? String(s.unicodeScalars.dropFirst()) : s
  }
}
