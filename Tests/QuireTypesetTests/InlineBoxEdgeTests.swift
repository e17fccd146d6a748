import Foundation
import QuireIngest
import Testing

@testable import QuireTypeset

/// The shape stage's side items for decorated inline boxes (Inline/InlineBoxEdges.swift),
/// as a text dump: a start side before the box's first word, an end side after its last
/// and before the space that follows, nested boxes outer first; a `clone` box's spaces
/// carry the break construction.
@Suite struct InlineBoxEdgeTests {
  static func boxed(id: Int, padding: Double, clone: Bool = false) -> InlineBoxDecoration {
    var b = InlineBoxDecoration(id: id)
    b.padding = EdgeLengths(top: .zero, right: .rem(padding), bottom: .zero, left: .rem(padding))
    b.border.left = BorderSide(width: .rem(0.125), style: .solid)
    b.border.right = BorderSide(width: .rem(0.125), style: .solid)
    b.clone = clone
    return b
  }

  static func style(_ chain: [InlineBoxDecoration]) -> ComputedStyle {
    InlineRig.style { $0.text.inlineBoxes = chain }
  }

  @Test func sidesAroundTheBoxWords() throws {
    var rig = try InlineRig()
    let outer = Self.boxed(id: 1, padding: 0.5)
    let inner = Self.boxed(id: 2, padding: 0.25)
    let b = InlineRig.block([
      ("a ", InlineRig.style()), ("b ", Self.style([outer])), ("c", Self.style([outer, inner])),
      (" d", InlineRig.style()),
    ])
    let (text, _, shaped) = rig.shape(b, width: 300)
    let dump = dumpItems(text, shaped)
    // 16 px text: outer sides 2 + 8 = 10 px, inner 2 + 4 = 6 px.
    // The space after "b" is the outer box's: the inner box starts after it.
    let expected = [
      "box start", "|b|", "space", "box start", "|c|", "box end", "box end", "space", "|d|",
    ]
    let kinds = dump.split(separator: "\n").compactMap { line -> String? in
      if line.hasSuffix("box start") || line.hasSuffix("box end") {
        return line.hasSuffix("start") ? "box start" : "box end"
      }
      if let k = line.firstIndex(of: "|") { return String(line[k...]) }
      return line.hasSuffix("space") ? "space" : nil
    }
    #expect(Array(kinds.drop { $0 != "box start" }.prefix(expected.count)) == expected)
    #expect(dump.contains("box 10.00 box start"))
    #expect(dump.contains("box 6.00 box end"))
    #expect(shaped.edges.count == 4)
  }

  @Test func cloneSpacesReserveBothSides() throws {
    var rig = try InlineRig()
    let box = Self.boxed(id: 1, padding: 0.5, clone: true)
    let b = InlineRig.block([("x ", InlineRig.style()), ("y z", Self.style([box]))])
    let (text, _, shaped) = rig.shape(b, width: 300)
    let dump = dumpItems(text, shaped)
    // The space between y and z: a 10-px end penalty, the space less 10 px, a 10-px box.
    #expect(dump.contains("penalty 10.00 cost 0 clone sides"))
    #expect(dump.contains("box 10.00 clone sides"))
  }
}
