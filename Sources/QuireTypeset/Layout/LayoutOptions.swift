import Foundation
import QuireIngest

/// Everything the reader chooses that changes where lines and pages break. All sizes in px.
public struct LayoutOptions: Sendable, Hashable, Codable {
  public enum Align: String, Sendable, Hashable, Codable { case justify, start }
  public enum LineBreaking: String, Sendable, Hashable, Codable { case optimal, greedy }
  public enum Hyphenation: String, Sendable, Hashable, Codable { case auto, off }

  public struct Margins: Sendable, Hashable, Codable {
    public var top: Double, right: Double, bottom: Double, left: Double
    public init(top: Double, right: Double, bottom: Double, left: Double) {
      self.top = top
      self.right = right
      self.bottom = bottom
      self.left = left
    }
    /// The default: proportional to the page (about 1/12 of the width at the sides).
    public static func proportional(width: Int, height: Int) -> Margins {
      let side = (Double(width) / 12).rounded()
      let vertical = (Double(height) / 16).rounded()
      return Margins(top: vertical, right: side, bottom: vertical, left: side)
    }
  }

  public var width: Int = 600
  public var height: Int = 800
  public var fontSize: Double = 16
  public var margins: Margins = .proportional(width: 600, height: 800)
  /// Multiple of the font size; the CSS `line-height: normal` of body text.
  public var lineHeight: Double = 1.4
  /// Body font: a family name known to the font set, or a path to a font file.
  public var font: String? = nil
  public var align: Align = .justify
  public var hyphenate: Hyphenation = .auto
  public var lineBreaking: LineBreaking = .optimal
  public var publisherStyles: Bool = true
  /// Fallback language for hyphenation when neither the element nor the book names one.
  public var language: String? = nil
  /// A running footer with the page number.
  public var folio: Bool = false

  public init() {}
}
