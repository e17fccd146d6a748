// Element ordinals: where an element stands among the document's elements in preorder (the
// root element is 0, text nodes and the synthetic root are not counted). A browser numbers
// elements the same way (`document.getElementsByTagName("*")`), so an ordinal names one
// element in both engines when both parsed the same XML: it is how a block box in the
// manifest is matched to the element a browser oracle measures (scripts/browser-oracle.py).
//
// Rejected: a path of child indices (as long as the nesting, per block) and the text offset
// (a browser collapses white space its own way, so offsets would have to be recomputed).

extension MarkupTree {
  /// The element ordinal of every node, indexed like `nodes` (−1 for text nodes and the
  /// synthetic root). One explicit-stack preorder walk: linear time, no recursion.
  func elementOrdinals() -> [Int32] {
    var ordinals = [Int32](repeating: -1, count: nodes.count)
    guard !nodes.isEmpty else { return ordinals }
    var next: Int32 = 0
    var stack = nodes[root].children.reversed() as [Int]
    while let n = stack.popLast() {
      guard nodes.indices.contains(n), nodes[n].kind == .element else { continue }
      ordinals[n] = next
      next += 1
      stack.append(contentsOf: nodes[n].children.reversed())
    }
    return ordinals
  }
}
