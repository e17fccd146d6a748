// Session 16's shortcuts of chapter conversion (issue #16) against the plain computations
// they replace: href resolution on ASCII bytes against the grapheme path, and the eight-
// bytes-a-step search for `<` of the markup bounds scan against a byte-by-byte one.

import Foundation
import Testing

@testable import QuireIngest

@Suite struct ConversionShortcutTests {
  @Test func asciiHrefsResolveLikeGraphemes() {
    let hrefs = [
      "", " ", "a.css", "css/a.css", "./a.css", "../a.css", "../../x/../a.css", "/root.css",
      "//double", "a//b", "#frag", "a.xhtml#f", "a.xhtml#f#g", "a.xhtml?q=1#f", "?q", "#",
      "http://x.org/a", "mailto:a@b", "data:text/css,a", "c:/x", "a:b", "1:x", "+.-:x",
      "x y.css", "  padded.css\t", "\r\na.css\r\n", "a\r\nb/c", ".", "..", "a/.", "a/..",
      "a/./b/../c", "ab:", ":x", "a#b:c", "q?#x", "dir/", "a b:c",
    ]
    let bases = [
      "", "a.xhtml", "OPS/chapter_001.xhtml", "OPS/text/ch.xhtml", "/abs/c.xhtml",
      "OPS//c.xhtml", "dir/",
    ]
    for h in hrefs {
      for b in bases {
        #expect(
          PathResolver.resolve(h, against: b) == PathResolver.resolveGraphemes(h, against: b),
          "\(h) against \(b)")
      }
    }
    // Outside the fast path (non-ASCII, percent escapes) the grapheme path answers.
    #expect(PathResolver.resolve("caf%C3%A9.css", against: "OPS/a.xhtml") == "OPS/café.css")
    #expect(PathResolver.resolve("é/../b.css", against: "OPS/a.xhtml") == "OPS/b.css")
  }

  @Test func nextOpenBracketFindsEveryBracket() {
    var bytes: [UInt8] = []
    for i in 0..<300 {
      bytes.append(
        i % 23 == 0 || i % 37 == 5 ? UInt8(ascii: "<") : UInt8(truncatingIfNeeded: i &* 7 | 1))
    }
    bytes.withUnsafeBufferPointer { b in
      for start in 0..<b.count {
        for end in [b.count, max(start, b.count - 3)] {
          let scanner = ByteScanner(b: UnsafeBufferPointer(rebasing: b[0..<end]))
          var expected = start
          while expected < end, b[expected] != UInt8(ascii: "<") { expected += 1 }
          #expect(scanner.nextOpenBracket(from: start) == expected, "\(start) \(end)")
        }
      }
      let empty = ByteScanner(b: UnsafeBufferPointer(rebasing: b[0..<0]))
      #expect(empty.nextOpenBracket(from: 0) == 0)
    }
  }
}
