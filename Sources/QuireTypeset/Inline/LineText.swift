// The text of a laid-out line (LineBox.text), written as UTF-8 straight into the string's
// storage. Appending scalar by scalar to a String costs a grapheme-aware append and a
// possible reallocation per scalar, and appending to a byte array a uniqueness and capacity
// check per byte; here the caller first bounds the line's bytes (4 per scalar, 1 per
// space), and each byte is one store. The result is the same string: every scalar is
// encoded as UTF-8, invalid values become " ".

struct LineText {
  private var bytes: UnsafeMutableBufferPointer<UInt8>
  /// Bytes written so far.
  private(set) var count = 0

  /// A writer into `bytes`, which must hold every byte appended.
  init(_ bytes: UnsafeMutableBufferPointer<UInt8>) { self.bytes = bytes }

  /// Appends the scalars `text[range]` (values that are not scalars become a space): at
  /// most 4 bytes each.
  @inline(__always)
  mutating func append(_ text: [UInt32], _ range: Range<Int>) {
    for t in range {
      let v = text[t]
      if v < 0x80 {
        bytes[count] = UInt8(truncatingIfNeeded: v)
        count += 1
      } else if let u = Unicode.Scalar(v) {
        UTF8.encode(u) {
          bytes[count] = $0
          count += 1
        }
      } else {
        bytes[count] = 0x20
        count += 1
      }
    }
  }

  /// Appends one space (1 byte).
  @inline(__always) mutating func appendSpace() {
    bytes[count] = 0x20
    count += 1
  }

  /// The string of `bound` bytes at most that `write` appends to a `LineText`.
  static func string(bound: Int, _ write: (inout LineText) -> Void) -> String {
    String(unsafeUninitializedCapacity: max(1, bound)) { buffer in
      var text = LineText(buffer)
      write(&text)
      return text.count
    }
  }
}
