// Computed CSS values after the cascade: what the typesetter reads. Only properties the
// typesetter acts on are here; everything else is dropped by the cascade.

import Foundation
import QuireCore

public enum Length: Sendable, Hashable, Codable {
  /// Root ems: multiply by the reader's font size to get pixels.
  case rem(Double)
  /// Percent of the containing block's width.
  case percent(Double)
  public static let zero = Length.rem(0)
}

public enum TextAlign: String, Sendable, Hashable, Codable {
  case start, end, left, right, center, justify
}
public enum TextTransform: String, Sendable, Hashable, Codable {
  case none, uppercase, lowercase, capitalize
}
public enum WhiteSpace: String, Sendable, Hashable, Codable {
  case normal, pre, preWrap, preLine, nowrap
}
public enum VerticalAlign: String, Sendable, Hashable, Codable { case baseline, sub, `super` }
public enum Hyphens: String, Sendable, Hashable, Codable { case none, manual, auto }
public enum BreakRule: String, Sendable, Hashable, Codable { case auto, avoid, page }
public enum LineHeight: Sendable, Hashable, Codable {
  case normal
  /// A multiple of the element's font size.
  case factor(Double)
  case length(Length)
}

public struct EdgeLengths: Sendable, Hashable, Codable {
  public var top: Length, right: Length, bottom: Length, left: Length
  public init(
    top: Length = .zero, right: Length = .zero, bottom: Length = .zero, left: Length = .zero
  ) {
    self.top = top
    self.right = right
    self.bottom = bottom
    self.left = left
  }
  public static let zero = EdgeLengths()
}

public struct ComputedStyle: Sendable, Hashable, Codable {
  /// Font families in preference order, as written by the publisher ("serif", "monospace"
  /// and the other generic names included).
  public var fontFamilies: [String] = []
  /// Font size in root ems (1 = the reader's font size).
  public var fontSize: Double = 1
  public var italic: Bool = false
  /// 100…900 (400 normal, 700 bold).
  public var fontWeight: Int = 400
  public var smallCaps: Bool = false
  public var textAlign: TextAlign = .start
  public var textIndent: Length = .zero
  public var textTransform: TextTransform = .none
  public var margin: EdgeLengths = .zero
  public var padding: EdgeLengths = .zero
  public var lineHeight: LineHeight = .normal
  public var breakBefore: BreakRule = .auto
  public var breakAfter: BreakRule = .auto
  public var breakInside: BreakRule = .auto
  public var whiteSpace: WhiteSpace = .normal
  public var verticalAlign: VerticalAlign = .baseline
  public var hyphens: Hyphens = .manual
  public var widows: Int = 2
  public var orphans: Int = 2
  public var direction: TextDirection? = nil
  public var color: RGBA = .black
  public var underline: Bool = false
  public var lineThrough: Bool = false

  public init() {}
}
