import Foundation
import QuireIngest

/// Everything the reader chooses that changes where lines and pages break. All sizes in px.
package struct LayoutOptions: Sendable, Hashable, Codable {
  package enum Align: String, Sendable, Hashable, Codable { case justify, start }
  package enum LineBreaking: String, Sendable, Hashable, Codable { case optimal, greedy }
  package enum Hyphenation: String, Sendable, Hashable, Codable { case auto, off }

  package struct Margins: Sendable, Hashable, Codable {
    package var top: Double, right: Double, bottom: Double, left: Double
    package init(top: Double, right: Double, bottom: Double, left: Double) {
      self.top = top
      self.right = right
      self.bottom = bottom
      self.left = left
    }
    /// The default: proportional to the page (about 1/12 of the width at the sides).
    package static func proportional(width: Int, height: Int) -> Margins {
      let side = (Double(width) / 12).rounded()
      let vertical = (Double(height) / 16).rounded()
      return Margins(top: vertical, right: side, bottom: vertical, left: side)
    }
  }

  package var width: Int = 600
  package var height: Int = 800
  package var fontSize: Double = 16
  package var margins: Margins = .proportional(width: 600, height: 800)
  /// Multiple of the font size; the CSS `line-height: normal` of body text.
  package var lineHeight: Double = 1.4
  /// Body font: a family name known to the font set, or a path to a font file.
  package var font: String? = nil
  package var align: Align = .justify
  package var hyphenate: Hyphenation = .auto
  package var lineBreaking: LineBreaking = .optimal
  package var publisherStyles: Bool = true
  /// Fallback language for hyphenation when neither the element nor the book names one.
  package var language: String? = nil
  /// A running footer with the page number.
  package var folio: Bool = false
  /// Where notes go (Blocks/Footnotes.swift).
  package var footnotes: FootnoteMode = .foot
  /// The system's fonts (fontconfig) as the last fallback for characters no vendored or
  /// embedded font has (Fonts/SystemFonts.swift); off for fully reproducible output.
  package var systemFonts = true

  package init() {}
}
