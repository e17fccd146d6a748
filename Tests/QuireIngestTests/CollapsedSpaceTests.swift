// Session 17's shortcut of white-space collapsing (issue #16): text kept as it is only when
// collapsing would give it back unchanged.

import Testing

@testable import QuireIngest

/// Session 17's shortcut of white-space collapsing: text that `isCollapsed` passes is what
/// `collapse` would give back, with the same flags.
@Suite struct CollapsedSpaceTests {
  private func collapsed(_ input: [UInt8], afterSpace: Bool) -> ([UInt8], Bool, Bool) {
    var last = afterSpace
    var saw = false
    var out = [UInt8](repeating: 0xEE, count: input.count)
    let n = input.withUnsafeBufferPointer { b in
      out.withUnsafeMutableBufferPointer { o in
        CollapsedSpace.collapse(b, into: o, lastWasSpace: &last, sawOther: &saw)
      }
    }
    return (Array(out[..<n]), last, saw)
  }

  private func shortcut(_ input: [UInt8], afterSpace: Bool) -> ([UInt8], Bool, Bool)? {
    input.withUnsafeBufferPointer { b in
      guard CollapsedSpace.isCollapsed(b, lastWasSpace: afterSpace) else { return nil }
      var last = afterSpace
      var saw = false
      CollapsedSpace.flags(ofCollapsed: b, lastWasSpace: &last, sawOther: &saw)
      return (input, last, saw)
    }
  }

  @Test func keptTextIsWhatCollapsingGives() {
    let alphabet: [UInt8] = [
      0x20, 0x20, 0x20, 0x09, 0x0A, 0x0D, 0x0C, 0x0B, 0x0E, 0x01, 0x1F, 0x21, 0x41, 0x61,
      0x61, 0x7F, 0x80, 0xA0, 0xC3, 0xE2, 0xFF,
    ]
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    func next() -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int(truncatingIfNeeded: state >> 33)
    }
    var inputs: [[UInt8]] = [
      [], [0x20], Array("  a  b\t\n c ".utf8), Array("“Call me Ishmael.”".utf8),
      Array(String(repeating: "word ", count: 40).utf8),
    ]
    for length in 0..<70 {
      for _ in 0..<40 {
        inputs.append((0..<length).map { _ in alphabet[next() % alphabet.count] })
      }
    }
    var kept = 0
    for input in inputs {
      for afterSpace in [false, true] {
        guard let fast = shortcut(input, afterSpace: afterSpace) else { continue }
        kept += 1
        #expect(fast == collapsed(input, afterSpace: afterSpace), "\(input) \(afterSpace)")
      }
    }
    #expect(kept > 100)
  }

  @Test func shortcutTakesPlainTextOnly() {
    func kept(_ s: String, afterSpace: Bool = false) -> Bool {
      shortcut(Array(s.utf8), afterSpace: afterSpace) != nil
    }
    #expect(kept("As Queequeg’s Ramadan, or Fasting and Humiliation, was to continue all day, "))
    #expect(kept(" leading space after text") && !kept(" leading", afterSpace: true))
    #expect(kept("") && kept("", afterSpace: true) && kept("x", afterSpace: true))
    #expect(kept("0123456 89abcdef 0123456 "))
    for s in [
      "two  spaces", "tab\there", "line\nbreak", "cr\rhere", "ff\u{0C}x", "a very long line.  X",
      "0123456  9abcdef", "0123456\n89abcdef", "abcdefg  ",
    ] {
      #expect(!kept(s), "\(s)")
    }
  }
}
