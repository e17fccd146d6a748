// CheckpointSection: the entry's page checkpoints (QuireTypeset's FlowCheckpoint) in bytes.
//
// One length-prefixed block after the page index, one record per page: a tag (0 none, 1 a
// checkpoint, 2 a checkpoint with a list marker), then unsigned LEB128 integers — the path
// length and indices, the entries skipped, the boxes waiting, the next text block, the last
// offset — the five lengths as LEB128 of their IEEE bits byte-swapped (a value with a short
// mantissa, as page geometry mostly is, takes two or three bytes; 0 takes one), and the
// marker as a length and UTF-8 bytes. A checkpoint of plain prose takes ~25 bytes where
// 64-bit fields would take ~100. Decoding is bounded like the rest of the entry: at most 10
// bytes a number, paths no deeper than the layout keeps, markers ≤ 1 KB, every checkpoint
// plausible (`FlowCheckpoint.isPlausible`), the block read to its end exactly; anything else
// makes the entry a miss.

import Foundation
import QuireTypeset

enum CheckpointSection {
  /// The section's bytes for one checkpoint (or none) per page.
  static func encode(_ checkpoints: [FlowCheckpoint?]) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(checkpoints.count * 24)
    for c in checkpoints {
      guard let c else {
        out.append(0)
        continue
      }
      out.append(c.pendingMarker == nil ? 1 : 2)
      varint(&out, UInt64(c.path.count))
      for i in c.path { varint(&out, UInt64(i)) }
      for v in [c.skip, c.pendingOpens, c.nextBlock, c.lastOffset, c.pendingBreak ? 1 : 0] {
        varint(&out, UInt64(max(0, v)))
      }
      for d in [c.left, c.right, c.pendingSpace, c.marginPos, c.marginNeg] {
        varint(&out, d.bitPattern.byteSwapped)
      }
      if let marker = c.pendingMarker {
        let bytes = Array(marker.utf8)
        varint(&out, UInt64(bytes.count))
        out += bytes
      }
    }
    return out
  }

  /// `count` checkpoints from `bytes`, nil unless they decode, are plausible and fill it.
  static func decode(_ section: Data, count: Int) -> [FlowCheckpoint?]? {
    // An array's subscript is a load; Data's checks its representation on every byte (the
    // decode took ~6,700 instructions a checkpoint through Data, on every cached render).
    let bytes = [UInt8](section)
    var r = Reader(bytes: bytes, at: 0)
    var out: [FlowCheckpoint?] = []
    out.reserveCapacity(min(count, bytes.count))
    for _ in 0..<count {
      guard let tag = r.byte(), tag <= 2 else { return nil }
      if tag == 0 {
        out.append(nil)
        continue
      }
      guard let c = r.checkpoint(marker: tag == 2), c.isPlausible else { return nil }
      out.append(c)
    }
    return r.at == bytes.endIndex ? out : nil
  }

  static func varint(_ out: inout [UInt8], _ value: UInt64) {
    var v = value
    while v >= 0x80 {
      out.append(UInt8(v & 0x7f) | 0x80)
      v >>= 7
    }
    out.append(UInt8(v))
  }

  /// Bounds-checked reads.
  struct Reader {
    let bytes: [UInt8]
    var at: Int

    mutating func byte() -> UInt8? {
      guard at < bytes.endIndex else { return nil }
      defer { at += 1 }
      return bytes[at]
    }

    /// An unsigned LEB128 number of at most 10 bytes.
    mutating func varint() -> UInt64? {
      var v: UInt64 = 0
      for k in 0..<10 {
        guard let b = byte() else { return nil }
        v |= UInt64(b & 0x7f) << (7 * UInt64(k))
        if b < 0x80 { return v }
      }
      return nil
    }

    /// A varint no larger than `limit`, as an Int.
    mutating func int(limit: Int = Int(Int32.max)) -> Int? {
      guard let v = varint(), v <= UInt64(limit) else { return nil }
      return Int(v)
    }

    mutating func double() -> Double? {
      varint().map { Double(bitPattern: $0.byteSwapped) }
    }

    mutating func checkpoint(marker: Bool) -> FlowCheckpoint? {
      guard let depth = int(limit: FlowCheckpoint.maxDepth), depth >= 1 else { return nil }
      var path: [Int] = []
      path.reserveCapacity(depth)
      for _ in 0..<depth {
        guard let i = int() else { return nil }
        path.append(i)
      }
      guard let skip = int(), let opens = int(limit: depth), let next = int(),
        let last = int(), let broken = int(limit: 1), let left = double(), let right = double(),
        let space = double(), let pos = double(), let neg = double()
      else { return nil }
      var text: String? = nil
      if marker {
        guard let n = int(limit: 1024), bytes.endIndex - at >= n,
          let s = String(validating: bytes[at..<at + n], as: UTF8.self)
        else { return nil }
        at += n
        text = s
      }
      return FlowCheckpoint(
        path: path, skip: skip, left: left, right: right, pendingSpace: space, marginPos: pos,
        marginNeg: neg, pendingBreak: broken == 1, pendingMarker: text, pendingOpens: opens,
        nextBlock: next, lastOffset: last)
    }
  }
}
