extension LayoutKey {
  /// This key with more settings folded in, for callers that know of inputs the typesetter
  /// does not see (how the book's text was decoded): equal refinements of equal keys are equal.
  package func refined(with parts: [String]) -> LayoutKey {
    LayoutKey.digest(of: [digest] + parts)
  }
}
