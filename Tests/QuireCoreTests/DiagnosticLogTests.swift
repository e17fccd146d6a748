import QuireCore
import Testing

@Suite struct DiagnosticLogTests {
  @Test func repeatedKindInOneFileIsOneEntryWithACount() {
    var log = DiagnosticLog()
    let missing = Diagnostic.Kind("missingGlyph")
    for page in 0..<1000 {
      log.add(
        Diagnostic(
          missing, file: "text/ch1.xhtml", spine: 1, offset: page, message: "no glyph for U+0915"))
    }
    log.add(Diagnostic(missing, file: "text/ch2.xhtml", message: "no glyph for U+0915"))
    log.add(Diagnostic(Diagnostic.Kind("badCSS"), file: "text/ch1.xhtml", message: "rule skipped"))
    #expect(log.entries.count == 3)
    #expect(log.entries[0].count == 1000)
    #expect(log.entries[0].first.offset == 0)
    #expect(
      log.entries.map(\.first.file) == ["text/ch1.xhtml", "text/ch2.xhtml", "text/ch1.xhtml"])
    #expect(log.occurrences == 1002)
    #expect(log.entries[0].description == "text/ch1.xhtml: no glyph for U+0915 (1000 times)")
  }

  @Test func groupedDiagnosticsAreOneEntryAcrossFilesCountingTheirOccurrences() {
    var log = DiagnosticLog()
    let missing = Diagnostic.Kind("missingGlyph")
    func chapter(_ file: String, _ group: String, _ n: Int) -> Diagnostic {
      var d = Diagnostic(missing, file: file, message: "no font has U+0915")
      d.group = group
      d.occurrences = n
      return d
    }
    log.add(contentsOf: [
      chapter("ch1.xhtml", "Deva/Noto Serif", 40), chapter("ch1.xhtml", "Thai/Noto Serif", 2),
      chapter("ch2.xhtml", "Deva/Noto Serif", 60),
    ])
    #expect(log.entries.map(\.count) == [100, 2])
    #expect(log.entries.map(\.first.file) == ["ch1.xhtml", "ch1.xhtml"])
    // Without a group the file still keys the entry.
    log.add(Diagnostic(missing, file: "ch1.xhtml", message: "other"))
    #expect(log.entries.count == 3 && log.occurrences == 103)
  }

  @Test func mergeKeepsCountsAndOrder() {
    let k = Diagnostic.Kind("unreadableChapter")
    var a = DiagnosticLog([Diagnostic(k, file: "a", message: "x")])
    let b = DiagnosticLog([
      Diagnostic(k, file: "b", message: "y"), Diagnostic(k, file: "a", message: "z"),
    ])
    a.merge(b)
    #expect(a.entries.map(\.count) == [2, 1])
    #expect(a.entries.map(\.first.message) == ["x", "y"])
  }

  @Test func colourQuantizesAndClamps() {
    #expect(RGBA(red: 1, green: 0.5, blue: -3, alpha: .nan) == RGBA(r: 255, g: 128, b: 0, a: 0))
    #expect(RGBA.white.red == 1)
  }
}
