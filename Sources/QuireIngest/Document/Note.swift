// Notes (footnotes, endnotes) as Ingest marks them; the typesetter decides where they go
// (`--footnotes foot|end|inline`, Typeset's Blocks/Footnotes.swift).
//
// A block is a note when its element says so: `epub:type` holding the token `footnote`,
// `endnote`, `rearnote` or `note` (EPUB 3 structural semantics; the containers
// `footnotes`/`endnotes`/`rearnotes` are not notes themselves), or `role="doc-footnote"` /
// `"doc-endnote"` (DPUB-ARIA). An `<aside>` with neither is a note only when a noteref link
// (`epub:type="noteref"`, `role="doc-noteref"`) in the same chapter points at its id: an
// aside is also used for sidebars, which must stay in the text. Project Gutenberg's
// `class="footnote"` pattern is not recognized: classes are the publisher's vocabulary, and
// the same names style inline notes elsewhere.

/// A block that is a note, with the id its references point at.
package struct NoteMark: Sendable, Hashable, Codable {
  package enum Kind: String, Sendable, Hashable, Codable { case footnote, endnote, aside }
  /// The element's id ("" when it has none: such a note cannot be referenced).
  package var id: String
  package var kind: Kind
  package init(id: String, kind: Kind) {
    self.id = id
    self.kind = kind
  }
}
