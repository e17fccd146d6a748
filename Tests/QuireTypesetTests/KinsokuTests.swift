import Testing

@testable import QuireTypeset

@Suite struct KinsokuTests {
  @Test func charactersThatMayNotStartALine() {
    for c in "。、，．：；？！」』）〕】〉》〙〗’”ー々ゝゞヽヾぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶ﹔・".unicodeScalars {
      #expect(!Kinsoku.mayStartLine(c), "\(c) must not start a line")
    }
    for c in "あア漢「『（A1한".unicodeScalars {
      #expect(Kinsoku.mayStartLine(c), "\(c) may start a line")
    }
  }

  @Test func charactersThatMayNotEndALine() {
    for c in "「『（〔【〈《〘〖‘“".unicodeScalars {
      #expect(!Kinsoku.mayEndLine(c), "\(c) must not end a line")
    }
    for c in "。」あ漢、）".unicodeScalars {
      #expect(Kinsoku.mayEndLine(c), "\(c) may end a line")
    }
  }

  @Test func forbiddenBreaksBetweenPairs() {
    #expect(Kinsoku.forbidBreak(before: "字", after: "。"))
    #expect(Kinsoku.forbidBreak(before: "「", after: "字"))
    #expect(Kinsoku.forbidBreak(before: "か", after: "っ"))
    #expect(Kinsoku.forbidBreak(before: "—", after: "—"))
    #expect(Kinsoku.forbidBreak(before: "…", after: "…"))
    #expect(!Kinsoku.forbidBreak(before: "字", after: "字"))
    #expect(!Kinsoku.forbidBreak(before: "。", after: "「"))
    #expect(!Kinsoku.forbidBreak(before: "」", after: "漢"))
  }

  @Test func compressionAndHanging() {
    for c in "「」『』（）。、，．・：；【】".unicodeScalars {
      #expect(Kinsoku.isCompressible(c), "\(c)")
    }
    for c in "漢あ？！ー(".unicodeScalars { #expect(!Kinsoku.isCompressible(c), "\(c)") }
    for c in "。、，．".unicodeScalars { #expect(Kinsoku.mayHang(c)) }
    for c in "」？！漢".unicodeScalars { #expect(!Kinsoku.mayHang(c)) }
  }

  @Test func cjkClassification() {
    for c in "漢字かなカナ한글。「ｱ𠀋".unicodeScalars { #expect(Kinsoku.isCJK(c), "\(c)") }
    for c in "Aé1,Ωж ".unicodeScalars { #expect(!Kinsoku.isCJK(c), "\(c)") }
  }

  @Test func quarterEmBetweenCJKAndLatin() {
    #expect(Kinsoku.needsQuarterEm(between: "字", and: "A"))
    #expect(Kinsoku.needsQuarterEm(between: "7", and: "か"))
    #expect(Kinsoku.needsQuarterEm(between: "ア", and: "é"))
    #expect(!Kinsoku.needsQuarterEm(between: "。", and: "A"))
    #expect(!Kinsoku.needsQuarterEm(between: "字", and: "字"))
    #expect(!Kinsoku.needsQuarterEm(between: "A", and: "B"))
    #expect(!Kinsoku.needsQuarterEm(between: "字", and: ","))
    #expect(!Kinsoku.needsQuarterEm(between: "字", and: "Ａ"))  // fullwidth A
    #expect(!Kinsoku.needsQuarterEm(between: "「", and: "A"))
  }
}
