// The caps of inline layout, in one place: what each bounds, its value and why. Inline
// layout must cost time and memory linear in its input (issue #9): every stage is a pass
// or a few over flat arrays, and what could still grow faster than the text — HarfBuzz on
// one enormous cluster, Knuth–Plass's node list, per-break items — is bounded here.
// Content past a cap degrades (text is kept, break points are thinned, marks are split)
// and is reported once per chapter as a diagnostic (`InlineNotes`); nothing here is an error.

/// Bounds on one paragraph's inline layout.
enum InlineCaps {
  /// Scalars of one paragraph laid out at a time: a longer one is laid out in parts of
  /// this many (`ParagraphParts`), so the stages' per-scalar arrays (~400 bytes a word)
  /// stay near 40 MB however long the paragraph. 100 000 scalars is ~50 pages of a single
  /// paragraph; the longest paragraph in the corpus has under 10 000.
  static let maxParagraphScalars = 100_000

  /// Scalars one part may collect at most (text-transform can make three of one: "ﬃ" →
  /// "FFI"); anything past it is dropped with a `paragraphLimit` diagnostic.
  static let maxCollectedScalars = 4 * maxParagraphScalars

  /// The Unicode Stream-Safe Text Format (UAX #15 §13): after this many consecutive
  /// non-starters (canonical combining class ≠ 0) a U+034F COMBINING GRAPHEME JOINER is
  /// inserted, so normalization inside HarfBuzz sorts at most 30 marks at a time. 30 is the
  /// standard's limit, which no real text exceeds (the longest canonical decomposition has
  /// 18 non-starters); CGJ is invisible (default-ignorable) in every font.
  static let maxNonStarters = 30

  /// Marks (general category Mn, Mc, Me) in a row kept on one base; the rest are dropped
  /// with a `longCluster` diagnostic. HarfBuzz positions each mark by searching back over
  /// the marks before it (a CGJ does not stop the search), so one cluster of n marks costs
  /// n² — 20 clusters of 50 000 marks took 149 s. 120 marks (four Stream-Safe segments) is
  /// far past any writing system (Tibetan stacks and Zalgo text use a few dozen) and
  /// bounds a cluster's shaping to ~15 000 steps.
  static let maxClusterMarks = 120
}

extension InlineCaps {
  /// Break items above which a paragraph is broken in windows of this many items
  /// (`InlineBreaking`). 20 000 items is about 5 000 words, some 40 pages of one paragraph;
  /// Knuth–Plass over it takes a few MB and milliseconds. No paragraph of the corpus comes
  /// near it (the longest has under 6 000 items), so real books break exactly as before.
  static let breakWindow = 20_000
  /// Lines at the end of a window that are not kept: the next window breaks them again
  /// with what follows in view. 4 lines is more than total-fit ever revises in practice.
  static let windowOverlap = 4
  /// Knuth–Plass active nodes kept while breaking in windows (1 024 otherwise). Every
  /// legal break is compared with every active node; a storm of break points (1.4 M soft
  /// hyphens, one after each letter) fills the list with ~60 positions × 12 classes per
  /// line, and 1 024 comparisons per break took minutes. 128 holds the candidates of
  /// ordinary text (a dozen positions per line) and makes a break cost a constant.
  static let windowActiveNodes = 128
}

extension InlineCaps {
  /// Emergency break points per line at most (`EmergencyBreaks`): a word wider than the
  /// measure is cut into parts of at least 1/32 of it, so its lines end at most ~3 % short
  /// while Knuth–Plass sees a few dozen break points per line, not one per character.
  static let emergencyBreaksPerLine = 32
}

extension InlineCaps {
  /// A positive text indent takes at most this share of the measure. An indent as wide as
  /// the line (5.5 rem on a 112 px column, found by the fuzzer) left the first line a
  /// 1 px measure, so its first letter started past the right edge; half the line is far
  /// beyond any typographic indent (1–3 em) and always leaves room for text.
  static let maxIndentShare = 0.5
}
