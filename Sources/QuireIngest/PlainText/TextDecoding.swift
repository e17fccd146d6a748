// Bytes → text for plain-text books.
//
// Order: a byte-order mark decides (UTF-8, UTF-16LE/BE, UTF-32LE/BE); else valid UTF-8;
// else a legacy encoding chosen by EncodingDetection.swift (uchardet's answer weighed by how
// much evidence the text gives, tried on a sample, with windows-1252 and GB18030 as the
// fallbacks for Western and Chinese text). `IngestOptions.encoding` forces any encoding
// name glibc knows.
//
// Why glibc `iconv` and not Foundation: on Linux, `String(data:encoding:)` only knows the
// Unicode encodings, ASCII, Latin-1 and a few Western code pages; GB18030, Shift_JIS, Big5
// and the rest are not among them (CFStringEncoding conversions are not wired through on
// Linux). glibc's iconv ships complete tables (GB18030's four-byte ranges included) and
// converts the corpus file back to the exact original UTF-8. Invalid byte sequences become
// U+FFFD (one per bad byte).

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
  /// How a legacy encoding was guessed (nil for a BOM, UTF-8 or a forced encoding).
  var guess: EncodingGuess? = nil

  /// A legacy encoding chosen on a word or two of evidence, or not the detector's answer.
  var isUncertain: Bool {
    guard let guess else { return false }
    return guess.evidence < EncodingDetection.reportedEvidence
      || guess.detectorAnswer.map { EncodingDetection.iconvNames(forDetectorName: $0) }?
        .contains(encoding) != true
  }
}

/// One iconv conversion descriptor; closed when the owner goes away.
final class IconvConverter {
  private let cd: iconv_t
  let fromEncoding: String

  /// A converter from `from` to `to` (UTF-8 unless named), or nil when iconv knows neither.
  init?(from: String, to: String = "UTF-8") {
    let cd = iconv_open(to, from)
    guard let cd, cd != iconv_t(bitPattern: -1) else { return nil }
    self.cd = cd
    self.fromEncoding = from
  }

  deinit { iconv_close(cd) }

  /// Converts all of `data` to UTF-8 text; bad bytes become U+FFFD.
  func convert(_ data: Data) -> (String, Int) {
    let (bytes, replacements) = convertBytes(data, replacement: [0xEF, 0xBF, 0xBD])
    return (String(decoding: bytes, as: UTF8.self), replacements)
  }

  /// Converts all of `data`; each byte iconv cannot convert becomes `replacement` (which
  /// must be in the target encoding). Returns the bytes and how many were replaced.
  func convertBytes(_ data: Data, replacement: [UInt8]) -> ([UInt8], Int) {
    var output = [UInt8]()
    output.reserveCapacity(data.count * 3 / 2)
    var replacements = 0
    var input = [UInt8](data)
    let chunk = 64 * 1024
    var outBuf = [UInt8](repeating: 0, count: chunk)
    input.withUnsafeMutableBufferPointer { inPtr in
      guard let inBase = inPtr.baseAddress else { return }
      var inLeft = inPtr.count
      var inPos = 0
      while inLeft > 0 {
        var inP: UnsafeMutablePointer<CChar>? = UnsafeMutableRawPointer(inBase + inPos)
          .assumingMemoryBound(to: CChar.self)
        var inBytes = inLeft
        let (rc, produced, err) = outBuf.withUnsafeMutableBufferPointer {
          outPtr -> (Int, Int, Int32) in
          guard let outBase = outPtr.baseAddress else { return (-1, 0, EINVAL) }
          var outP: UnsafeMutablePointer<CChar>? = UnsafeMutableRawPointer(outBase)
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
          output.append(contentsOf: replacement)
          replacements += 1
          inPos += 1
          inLeft -= 1
          // Reset the shift state after an error.
          iconv(cd, nil, nil, nil, nil)
        }
      }
    }
    return (output, replacements)
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
    return try legacy(data, file: file)
  }

  /// Decodes text that has no BOM and is not UTF-8: the first candidate of the guess that
  /// decodes the sample cleanly (at most one bad sequence per 200 non-ASCII bytes: damage,
  /// not a wrong guess), else the one with the fewest bad sequences; lossy UTF-8 when even
  /// that is worse.
  static func legacy(_ data: Data, file: String) throws(IngestError) -> DecodedText {
    let sample = EncodingDetection.sample(data)
    let guess = EncodingDetection.guess(sample)
    let tolerated = guess.evidence / 200
    var best: (name: String, replacements: Int)? = nil
    for name in guess.candidates {
      guard let converter = IconvConverter(from: name) else { continue }
      let (_, bad) = converter.convert(sample)
      if bad <= tolerated {
        best = (name, bad)
        break
      }
      if bad < best?.replacements ?? Int.max { best = (name, bad) }
    }
    let lossy = utf8(data)
    guard let best else { return lossy }
    var decoded = try iconvDecode(data, best.name, file)
    decoded.guess = guess
    return lossy.replacements < decoded.replacements ? lossy : decoded
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
