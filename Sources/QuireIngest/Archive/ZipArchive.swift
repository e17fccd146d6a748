// A ZIP reader for books, on libdeflate's and zlib's raw inflate.
//
// Why not libzip (or minizip): a book is small, so the whole archive sits in memory as one
// `Data`, and every entry is inflated from that buffer on demand. What we need that libzip
// does not give is *limits enforced while inflating*: we stop the moment an entry passes
// `maxEntryBytes`, the archive passes `maxTotalBytes`, or the output/input ratio passes
// `maxCompressionRatio`, whatever the headers claim. A header's size is trusted only within
// those caps: an entry is inflated in one call (libdeflate) into a buffer of its declared size
// or the caps, whichever is less — never more than the caps allow anyway — and what came out
// is compared with the header (a mismatch is an error). An entry that does not inflate that
// way is inflated again with zlib in bounded steps (inflate into a window, check, repeat),
// which names the precise error (truncated, lying header, a limit). The format around it
// (EOCD, central directory, ZIP64 extra fields) is a few hundred lines of bounds-checked reads.
//
// Offsets are UInt64 from the start of the file; every read goes through `ByteReader`,
// which checks the range against the buffer first, so a lying offset is an error, never a trap.

import CDeflate
import CZlib
import Foundation
import QuireCore

/// One entry of the central directory, with its name already normalized.
struct ZipEntry: Sendable, Hashable {
  /// Normalized path inside the archive ("OPS/ch1.xhtml").
  var name: String
  /// The name as decoded from the archive, before normalization (for messages).
  var rawName: String
  var method: UInt16
  var flags: UInt16
  var crc32: UInt32
  var compressedSize: UInt64
  var uncompressedSize: UInt64
  var localHeaderOffset: UInt64
  /// A Unix symlink entry: its bytes are the link text, served as plain data, never followed.
  var isSymlink: Bool
  var isDirectory: Bool
  var isEncrypted: Bool { flags & 1 != 0 }
}

/// Bounds-checked little-endian reads from a byte buffer.
struct ByteReader {
  let bytes: Data
  let base: Int

  init(_ bytes: Data) {
    self.bytes = bytes
    self.base = bytes.startIndex
  }

  func has(_ offset: UInt64, _ count: UInt64) -> Bool {
    let (end, overflow) = offset.addingReportingOverflow(count)
    return !overflow && end <= UInt64(bytes.count)
  }

  func u16(_ o: UInt64) -> UInt16? {
    guard has(o, 2) else { return nil }
    let i = base + Int(o)
    return UInt16(bytes[i]) | UInt16(bytes[i + 1]) << 8
  }

  func u32(_ o: UInt64) -> UInt32? {
    guard has(o, 4) else { return nil }
    let i = base + Int(o)
    return UInt32(bytes[i]) | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2]) << 16 | UInt32(
      bytes[i + 3]) << 24
  }

  func u64(_ o: UInt64) -> UInt64? {
    guard let lo = u32(o), let hi = u32(o + 4) else { return nil }
    return UInt64(lo) | UInt64(hi) << 32
  }

  func slice(_ o: UInt64, _ count: UInt64) -> Data? {
    guard has(o, count) else { return nil }
    let i = base + Int(o)
    return bytes[i..<(i + Int(count))]
  }
}

/// An opened ZIP archive held in memory. Thread-safe: reads are pure except the total-bytes
/// budget, which sits behind a mutex.
final class ZipArchive: Sendable {
  let file: String
  let data: Data
  let limits: IngestLimits
  /// Entries in central-directory order, duplicates and rejected names removed.
  let entries: [ZipEntry]
  let warnings: [Diagnostic]
  private let index: [String: Int]
  /// Entries already counted against `maxTotalBytes`, and their inflated total.
  private let budget = Mutex<(charged: Set<Int>, total: UInt64)>(([], 0))

  static let localSignature: UInt32 = 0x0403_4b50
  static let centralSignature: UInt32 = 0x0201_4b50
  static let endSignature: UInt32 = 0x0605_4b50
  static let end64Signature: UInt32 = 0x0606_4b50
  static let end64LocatorSignature: UInt32 = 0x0706_4b50

  /// True when the bytes look like a ZIP: a local header first, or an empty archive's EOCD.
  static func looksLikeZip(_ data: Data) -> Bool {
    let r = ByteReader(data)
    guard let sig = r.u32(0) else { return false }
    return sig == localSignature || sig == endSignature
  }

  init(data: Data, file: String, limits: IngestLimits) throws(IngestError) {
    self.file = file
    self.data = data
    self.limits = limits
    let r = ByteReader(data)
    var warnings: [Diagnostic] = []

    let (entryCount, cdOffset, cdSize) = try Self.centralDirectory(r, file: file, limits: limits)

    // The central directory, entry by entry.
    var entries: [ZipEntry] = []
    var index: [String: Int] = [:]
    var p = cdOffset
    let cdEnd = cdOffset + cdSize
    var seen: UInt64 = 0
    while seen < entryCount {
      guard p + 46 <= cdEnd, r.u32(p) == Self.centralSignature,
        let madeBy = r.u16(p + 4), let flags = r.u16(p + 8), let method = r.u16(p + 10),
        let crc = r.u32(p + 16), let csize32 = r.u32(p + 20), let usize32 = r.u32(p + 24),
        let nameLen = r.u16(p + 28), let extraLen = r.u16(p + 30), let commentLen = r.u16(p + 32),
        let external = r.u32(p + 38), let offset32 = r.u32(p + 42)
      else {
        throw .badData(
          file: file, reason: "corrupt central directory at entry \(seen) (offset \(p))")
      }
      let nameStart = p + 46
      let extraStart = nameStart + UInt64(nameLen)
      let next = extraStart + UInt64(extraLen) + UInt64(commentLen)
      guard next <= cdEnd, let nameBytes = r.slice(nameStart, UInt64(nameLen)) else {
        throw .badData(
          file: file, reason: "corrupt central directory: entry \(seen) runs past its end")
      }
      let (usize, csize, offset) = Self.zip64Values(
        r, extra: extraStart..<(extraStart + UInt64(extraLen)),
        saturated: (usize32, csize32, offset32))
      let (decoded, lossy) = EntryName.decode(nameBytes, utf8Flag: flags & (1 << 11) != 0)
      if lossy {
        warnings.append(
          Diagnostic(
            .archiveEntry, file: file,
            message: "entry name '\(QuotedInput.elided(decoded))' is not valid UTF-8"))
      }
      let unixMode = (madeBy >> 8) == 3 ? (external >> 16) & 0o170000 : 0
      let isSymlink = unixMode == 0o120000
      let isDirectory =
        decoded.hasSuffix("/") || decoded.hasSuffix("\\") || unixMode == 0o040000
        || (external & 0x10 != 0 && usize == 0)
      seen += 1
      p = next

      switch EntryName.normalize(decoded) {
      case .rejected(let why):
        warnings.append(Diagnostic(.archiveEntry, file: file, message: "entry skipped: \(why)"))
        continue
      case .path(let name, let notes):
        for n in notes { warnings.append(Diagnostic(.archiveEntry, file: file, message: n)) }
        if isDirectory { continue }
        if isSymlink {
          warnings.append(
            Diagnostic(
              .archiveEntry,
              file: file,
              message:
                "symlink entry '\(QuotedInput.elided(decoded))' is read as plain data, never followed"
            ))
        }
        if index[name] != nil {
          warnings.append(
            Diagnostic(
              .archiveEntry,
              file: file,
              message:
                "duplicate entry '\(QuotedInput.elided(name))': the first one is used, later ones ignored"
            ))
          continue
        }
        index[name] = entries.count
        entries.append(
          ZipEntry(
            name: name, rawName: decoded, method: method, flags: flags, crc32: crc,
            compressedSize: csize,
            uncompressedSize: usize, localHeaderOffset: offset, isSymlink: isSymlink,
            isDirectory: false))
      }
    }
    self.entries = entries
    self.index = index
    self.warnings = warnings
  }

  /// Where the central directory is and how many entries it declares: the end-of-central-
  /// directory record (the last PK\5\6 within the final 64 KiB + 22 bytes), or the ZIP64
  /// record its locator points at. The count is held to `maxEntries` and the directory to
  /// the file before anything else is read.
  private static func centralDirectory(_ r: ByteReader, file: String, limits: IngestLimits)
    throws(IngestError) -> (count: UInt64, offset: UInt64, size: UInt64)
  {
    guard let eocd = findEndRecord(r) else {
      if looksLikeZip(r.bytes) {
        throw .badData(
          file: file, reason: "truncated ZIP archive: no end-of-central-directory record")
      }
      throw .badData(file: file, reason: "not a ZIP archive")
    }
    guard let count16 = r.u16(eocd + 10), let size32 = r.u32(eocd + 12),
      let offset32 = r.u32(eocd + 16)
    else {
      throw .badData(file: file, reason: "truncated end-of-central-directory record")
    }
    var entryCount = UInt64(count16)
    var cdSize = UInt64(size32)
    var cdOffset = UInt64(offset32)
    // ZIP64: a locator 20 bytes before the EOCD points at the EOCD64 record.
    if eocd >= 20, r.u32(eocd - 20) == end64LocatorSignature {
      guard let end64 = r.u64(eocd - 20 + 8), r.u32(end64) == end64Signature,
        let n = r.u64(end64 + 32), let size = r.u64(end64 + 40), let off = r.u64(end64 + 48)
      else {
        throw .badData(
          file: file, reason: "ZIP64 end-of-central-directory locator points outside the file")
      }
      entryCount = n
      cdSize = size
      cdOffset = off
    }
    guard entryCount <= UInt64(limits.maxEntries) else {
      throw .limitExceeded(
        file: file, limit: .entries,
        reason:
          "archive declares \(entryCount) entries, over the limit maxEntries=\(limits.maxEntries)")
    }
    guard r.has(cdOffset, cdSize) else {
      throw .badData(
        file: file, reason: "truncated ZIP archive: central directory lies outside the file")
    }
    return (entryCount, cdOffset, cdSize)
  }

  /// An entry's sizes and offset, the saturated 32-bit ones (0xFFFFFFFF) replaced from the
  /// ZIP64 extra field 0x0001, which holds 8-byte values for exactly those fields, in the
  /// order uncompressed, compressed, local header offset.
  private static func zip64Values(
    _ r: ByteReader, extra: Range<UInt64>, saturated: (UInt32, UInt32, UInt32)
  ) -> (uncompressed: UInt64, compressed: UInt64, offset: UInt64) {
    var values = [UInt64(saturated.0), UInt64(saturated.1), UInt64(saturated.2)]
    var e = extra.lowerBound
    while e + 4 <= extra.upperBound, let tag = r.u16(e), let len = r.u16(e + 2) {
      let body = e + 4
      let bodyEnd = body + UInt64(len)
      guard bodyEnd <= extra.upperBound else { break }
      if tag == 0x0001 {
        var q = body
        for k in 0..<3 where values[k] == 0xFFFF_FFFF && q + 8 <= bodyEnd {
          if let v = r.u64(q) { values[k] = v }
          q += 8
        }
      }
      e = bodyEnd
    }
    return (values[0], values[1], values[2])
  }

  private static func findEndRecord(_ r: ByteReader) -> UInt64? {
    let n = UInt64(r.bytes.count)
    guard n >= 22 else { return nil }
    let lowest = n > 22 + 65_535 ? n - 22 - 65_535 : 0
    var p = n - 22
    while true {
      if r.u32(p) == endSignature { return p }
      if p == lowest { return nil }
      p -= 1
    }
  }

  func entry(named name: String) -> ZipEntry? {
    index[name].map { entries[$0] }
  }

  func contains(_ name: String) -> Bool { index[name] != nil }

  /// Inflates one entry, enforcing every limit while the bytes come out and checking the
  /// CRC-32 and the declared size at the end.
  func read(_ name: String) throws(IngestError) -> Data {
    guard let i = index[name] else {
      throw .badData(
        file: file, reason: "entry '\(QuotedInput.elided(name))' is not in the archive")
    }
    let entry = entries[i]
    let entryLabel = "entry '\(QuotedInput.elided(entry.name))'"
    if entry.isEncrypted {
      throw .unsupported(
        file: file,
        reason: "entry '\(QuotedInput.elided(entry.name))' is encrypted (password-protected ZIP)")
    }
    let r = ByteReader(data)
    let h = entry.localHeaderOffset
    guard r.u32(h) == Self.localSignature, let nameLen = r.u16(h + 26), let extraLen = r.u16(h + 28)
    else {
      throw .badData(
        file: file,
        reason: "entry '\(QuotedInput.elided(entry.name))': local header missing or truncated")
    }
    let start = h + 30 + UInt64(nameLen) + UInt64(extraLen)
    guard let input = r.slice(start, entry.compressedSize) else {
      throw .badData(
        file: file,
        reason:
          "entry '\(QuotedInput.elided(entry.name))': truncated (data runs past the end of the file)"
      )
    }
    // What this entry may produce: the per-entry cap, the ratio cap (never below 1 MiB, so
    // tiny well-compressed files pass), and whatever is left of the archive's total budget.
    let ratioCap = max(
      UInt64(1 << 20), UInt64(limits.maxCompressionRatio) &* max(entry.compressedSize, 1))
    let entryCap = UInt64(limits.maxEntryBytes)
    // A declared size over the cap is refused before a byte is inflated (ZIP64 bombs).
    guard entry.uncompressedSize <= entryCap else {
      throw .limitExceeded(
        file: file, limit: .entryBytes,
        reason:
          "entry '\(QuotedInput.elided(entry.name))' declares \(entry.uncompressedSize) bytes, over maxEntryBytes=\(entryCap)"
      )
    }
    let out: Data
    switch entry.method {
    case 0:
      guard entry.compressedSize <= entryCap else {
        throw .limitExceeded(
          file: file, limit: .entryBytes,
          reason:
            "entry '\(QuotedInput.elided(entry.name))' is \(entry.compressedSize) bytes, over maxEntryBytes=\(entryCap)"
        )
      }
      out = Data(input)
    case 8:
      out = try Inflater.inflateRaw(
        input, declared: entry.uncompressedSize, entryCap: entryCap, ratioCap: ratioCap,
        ratio: limits.maxCompressionRatio, entry: entryLabel, file: file)
    default:
      throw .unsupported(
        file: file,
        reason: "entry '\(QuotedInput.elided(entry.name))' uses compression method \(entry.method)")
    }
    if UInt64(out.count) != entry.uncompressedSize {
      throw .badData(
        file: file,
        reason:
          "entry '\(QuotedInput.elided(entry.name))' inflates to \(out.count) bytes but its header says \(entry.uncompressedSize)"
      )
    }
    let crc = out.withUnsafeBytes { raw in UInt32(libdeflate_crc32(0, raw.baseAddress, raw.count)) }
    if crc != entry.crc32 {
      throw .badData(
        file: file,
        reason: "entry '\(QuotedInput.elided(entry.name))': CRC-32 mismatch (damaged archive)")
    }
    try charge(i, UInt64(out.count), name: entry.name)
    return out
  }

  /// Counts an entry's bytes against `maxTotalBytes` the first time it is read.
  private func charge(_ i: Int, _ bytes: UInt64, name: String) throws(IngestError) {
    try budget.withLock { (budget) throws(IngestError) in
      if budget.charged.contains(i) { return }
      let total = budget.total + bytes
      if total > UInt64(limits.maxTotalBytes) {
        throw .limitExceeded(
          file: file, limit: .totalBytes,
          reason:
            "entry '\(QuotedInput.elided(name))' takes the archive past maxTotalBytes=\(limits.maxTotalBytes) inflated"
        )
      }
      budget.total = total
      budget.charged.insert(i)
    }
  }
}

/// Raw inflate within the limits: libdeflate into a buffer of the most the entry may
/// produce (its declared size, or the ratio cap when that is lower), which is several times
/// faster than zlib's streaming inflate; when that fails for any reason (damage, a lie, a
/// limit) zlib's inflate run in bounded steps finds the precise error, so messages stay
/// those of the streaming reader. A stream both accept inflates to the same bytes.
enum Inflater {
  static func inflateRaw(
    _ input: Data, declared: UInt64, entryCap: UInt64, ratioCap: UInt64, ratio: Int, entry: String,
    file: String
  ) throws(IngestError) -> Data {
    if let whole = inflateWhole(input, cap: min(declared, ratioCap, entryCap)) { return whole }
    return try inflateSteps(
      input, declared: declared, entryCap: entryCap, ratioCap: ratioCap, ratio: ratio,
      entry: entry, file: file)
  }

  /// The whole stream inflated by libdeflate into at most `cap` bytes; nil when it does not
  /// decode completely within them.
  static func inflateWhole(_ input: Data, cap: UInt64) -> Data? {
    guard cap <= UInt64(Int32.max), !input.isEmpty,
      let decompressor = libdeflate_alloc_decompressor()
    else { return nil }
    defer { libdeflate_free_decompressor(decompressor) }
    var out = Data(count: Int(cap))
    var produced = 0
    let status = input.withUnsafeBytes { source in
      out.withUnsafeMutableBytes { target in
        libdeflate_deflate_decompress_ex(
          decompressor, source.baseAddress, source.count, target.baseAddress, target.count, nil,
          &produced)
      }
    }
    guard status == LIBDEFLATE_SUCCESS else { return nil }
    out.count = produced
    return out
  }

  /// zlib's raw inflate, run in bounded steps.
  static func inflateSteps(
    _ input: Data, declared: UInt64, entryCap: UInt64, ratioCap: UInt64, ratio: Int, entry: String,
    file: String
  ) throws(IngestError) -> Data {
    var stream = z_stream()
    guard czlib_inflate_init2(&stream, -15) == Z_OK else {
      throw .badData(file: file, reason: "\(entry): inflateInit2 failed")
    }
    defer { inflateEnd(&stream) }
    var out = Data()
    let chunk = 64 * 1024
    var buffer = [UInt8](repeating: 0, count: chunk)
    var failure: IngestError? = nil
    input.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
      let base = raw.baseAddress?.assumingMemoryBound(to: Bytef.self)
      stream.next_in = UnsafeMutablePointer(mutating: base)
      // Entries over 4 GiB compressed are refused by the entry cap long before this matters.
      stream.avail_in = uInt(min(raw.count, Int(UInt32.max)))
      while true {
        let status: Int32 = buffer.withUnsafeMutableBufferPointer { b in
          stream.next_out = b.baseAddress
          stream.avail_out = uInt(chunk)
          return inflate(&stream, Z_NO_FLUSH)
        }
        let produced = chunk - Int(stream.avail_out)
        if UInt64(out.count + produced) > entryCap {
          failure = .limitExceeded(
            file: file, limit: .entryBytes,
            reason: "\(entry) inflates past maxEntryBytes=\(entryCap)")
          return
        }
        if UInt64(out.count + produced) > declared {
          // Never trust the header, but hold it to its word: more bytes than declared is a
          // lie (or damage), stop now rather than after inflating the rest.
          failure = .badData(
            file: file,
            reason: "\(entry) inflates past its declared size of \(declared) bytes (lying header)")
          return
        }
        if UInt64(out.count + produced) > ratioCap {
          failure = .limitExceeded(
            file: file, limit: .compressionRatio,
            reason: "\(entry) inflates past maxCompressionRatio=\(ratio) (zip bomb?)")
          return
        }
        out.append(contentsOf: buffer[0..<produced])
        if status == Z_STREAM_END { return }
        if status == Z_BUF_ERROR && stream.avail_in == 0 {
          failure = .badData(file: file, reason: "\(entry): compressed data ends early (truncated)")
          return
        }
        if status != Z_OK && status != Z_BUF_ERROR {
          failure = .badData(file: file, reason: "\(entry): inflate failed (zlib status \(status))")
          return
        }
        // No output and no way to make progress: input exhausted, or zlib stalled.
        if produced == 0 && (stream.avail_in == 0 || status == Z_BUF_ERROR) {
          failure = .badData(file: file, reason: "\(entry): compressed data ends early (truncated)")
          return
        }
      }
    }
    if let failure { throw failure }
    return out
  }
}
