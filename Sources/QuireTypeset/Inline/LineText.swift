// The text of a laid-out line (LineBox.text), accumulated as UTF-8 bytes and decoded once.
// Appending scalar by scalar to a String costs a grapheme-aware append and a possible
// reallocation per scalar; a byte buffer makes the per-line text a tenth of the cost. The
// result is the same string: every scalar is encoded as UTF-8, invalid values become " ".

struct LineText {
  private var bytes: [UInt8] = []

  init(capacity: Int = 0) { bytes.reserveCapacity(capacity) }

  /// Appends the scalars `text[range]` (values that are not scalars become a space).
  @inline(__always)
  mutating func append(_ text: [UInt32], _ range: Range<Int>) {
    for t in range {
      let v = text[t]
      if v < 0x80 {
        bytes.append(UInt8(truncatingIfNeeded: v))
      } else if let u = Unicode.Scalar(v) {
        UTF8.encode(u) { bytes.append($0) }
      } else {
        bytes.append(0x20)
      }
    }
  }

  mutating func appendSpace() { bytes.append(0x20) }

  var string: String { String(decoding: bytes, as: UTF8.self) }
}
