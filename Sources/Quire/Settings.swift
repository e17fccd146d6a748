import Foundation
import QuireIngest
import QuireRaster
import QuireTypeset

/// How a book's content is read before it is laid out. Each of these can move a line or a
/// page break, so each is part of the layout key.
public struct ReadingOptions: Sendable, Hashable {
  /// Apply the book's own style sheets and embedded fonts (off: the built-in style only).
  public var publisherStyles = true
  /// The language (BCP 47 tag) used for hyphenation when the book names none.
  public var language: String? = nil
  /// The encoding of a plain-text book (an IANA name such as "GB18030"); nil detects it.
  public var textEncoding: String? = nil
  /// Whether the package's cover image becomes page 1 when no spine document shows it.
  public var cover = CoverPage.auto

  /// The defaults: publisher styles on, language and encoding from the book.
  public init() {}
}

/// The reader's body font.
public enum FontChoice: Sendable, Hashable {
  /// The default body font (Noto Serif, or the book's when publisher styles are on).
  case standard
  /// A family name: one of the vendored fonts, a generic family (serif, sans-serif…) or a
  /// family the book embeds.
  case family(String)
  /// A font file (.ttf, .otf, .ttc).
  case file(URL)
}

/// How lines of a paragraph share the measure.
public enum TextAlignment: String, Sendable, Hashable, CaseIterable {
  /// Flush on both sides (the last line of a paragraph ragged).
  case justify
  /// Flush at the start edge, ragged at the end.
  case start
}

/// Whether words may break across lines at hyphenation points.
public enum Hyphenation: String, Sendable, Hashable, CaseIterable {
  /// Hyphenate with the patterns of the text's language.
  case auto
  /// Never insert a hyphen.
  case off
}

/// How a paragraph is broken into lines.
public enum LineBreaking: String, Sendable, Hashable, CaseIterable {
  /// Knuth–Plass: the whole paragraph's best breaks.
  case optimal
  /// First fit, line by line.
  case greedy
}

/// Where a book's footnotes and endnotes go.
public enum FootnotePlacement: String, Sendable, Hashable, CaseIterable {
  /// At the foot of the page that refers to them, smaller, below a short rule.
  case foot
  /// Gathered at the end of their chapter.
  case end
  /// Where the book put them, in the running text.
  case inline
}

/// Page margins in pixels.
public struct PageMargins: Sendable, Hashable {
  /// Top margin.
  public var top: Double
  /// Right margin.
  public var right: Double
  /// Bottom margin.
  public var bottom: Double
  /// Left margin.
  public var left: Double

  /// Margins from their four sides.
  public init(top: Double, right: Double, bottom: Double, left: Double) {
    self.top = top
    self.right = right
    self.bottom = bottom
    self.left = left
  }

  /// The same margin on every side.
  public init(all: Double) { self.init(top: all, right: all, bottom: all, left: all) }
}

/// Everything the reader chooses that changes where lines and pages break. Sizes in pixels.
public struct LayoutSettings: Sendable, Hashable {
  /// Page width.
  public var pageWidth = 600
  /// Page height.
  public var pageHeight = 800
  /// Body text size.
  public var fontSize = 16.0
  /// Margins; nil: proportional to the page (about 1/12 of the width at the sides).
  public var margins: PageMargins? = nil
  /// Line height as a multiple of the font size.
  public var lineHeight = 1.4
  /// The body font.
  public var font = FontChoice.standard
  /// Justified or flush-start text.
  public var alignment = TextAlignment.justify
  /// Hyphenation on or off.
  public var hyphenation = Hyphenation.auto
  /// The line breaker.
  public var lineBreaking = LineBreaking.optimal
  /// A running footer with the page number.
  public var folio = false
  /// Where notes go (a note moves only when its chapter refers to it).
  public var footnotes = FootnotePlacement.foot
  /// How the book's content is read.
  public var reading = ReadingOptions()
  /// The system's fonts as the last fallback for characters no vendored or embedded font
  /// has; off (`--no-system-fonts`) for output that does not depend on the machine.
  public var systemFonts = true
  /// How fixed-layout pages fill the output page (Spreads.swift).
  public var fit = FixedLayoutFit.contain
  /// Fixed-layout pages at their own ICB size instead of the page size.
  public var nativeSize = false

  /// The defaults: 600x800 pages, 16 px text, justified and hyphenated.
  public init() {}

  /// A page size with the defaults for the rest.
  public init(pageWidth: Int, pageHeight: Int) {
    self.pageWidth = pageWidth
    self.pageHeight = pageHeight
  }

  /// The margins in effect: the explicit ones or the page's proportional ones.
  public var effectiveMargins: PageMargins {
    if let margins { return margins }
    let m = LayoutOptions.Margins.proportional(width: pageWidth, height: pageHeight)
    return PageMargins(top: m.top, right: m.right, bottom: m.bottom, left: m.left)
  }

  /// The Typeset stage's options.
  var layoutOptions: LayoutOptions {
    var o = LayoutOptions()
    o.width = pageWidth
    o.height = pageHeight
    o.fontSize = fontSize
    let m = effectiveMargins
    o.margins = .init(top: m.top, right: m.right, bottom: m.bottom, left: m.left)
    o.lineHeight = lineHeight
    switch font {
    case .standard: o.font = nil
    case .family(let name): o.font = name
    case .file(let url): o.font = url.path
    }
    o.align = alignment == .justify ? .justify : .start
    o.hyphenate = hyphenation == .auto ? .auto : .off
    o.lineBreaking = lineBreaking == .optimal ? .optimal : .greedy
    o.publisherStyles = reading.publisherStyles
    o.language = reading.language
    o.folio = folio
    o.footnotes = FootnoteMode(rawValue: footnotes.rawValue) ?? .foot
    o.systemFonts = systemFonts
    return o
  }

  /// The Ingest stage's options: CSS media queries see the page being laid out.
  var ingestOptions: IngestOptions { reading.ingestOptions(viewport: (pageWidth, pageHeight)) }
}

extension ReadingOptions {
  /// The Ingest stage's options for a page (or canvas) of `viewport` pixels.
  func ingestOptions(viewport: (width: Int, height: Int)?) -> IngestOptions {
    var o = IngestOptions()
    o.encoding = textEncoding
    o.publisherStyles = publisherStyles
    o.cover = cover.policy
    if let (w, h) = viewport { o.viewport = MediaViewport(width: w, height: h) }
    return o
  }

  /// What the Typeset key does not already hold (the text encoding, the cover page),
  /// appended to it: equal keys mean equal pages. Empty for the defaults, so default keys
  /// stay those of Typeset.
  func refined(_ key: LayoutKey) -> String {
    var parts: [String] = []
    if let encoding = textEncoding { parts.append("encoding=\(encoding)") }
    if cover != .auto { parts.append("cover=\(cover.rawValue)") }
    guard !parts.isEmpty else { return key.description }
    return key.refined(with: parts).description
  }
}

/// Which pages a job works on: ranges of page numbers (from 1), optionally everything from
/// one page on. Pages past the end of the book are ignored.
public struct PageSelection: Sendable, Hashable, CustomStringConvertible {
  /// Closed ranges of page numbers.
  public var ranges: [ClosedRange<Int>]
  /// Every page from this one to the end of the book, when set.
  public var from: Int?

  /// Every page of the book.
  public static let all = PageSelection(ranges: [], from: 1)

  /// Ranges of pages, plus every page from `from` on when it is given.
  public init(ranges: [ClosedRange<Int>], from: Int? = nil) {
    self.ranges = ranges
    self.from = from
  }

  /// Single pages.
  public init(pages: [Int]) { self.init(ranges: pages.map { $0...$0 }) }

  /// Whether page `n` is selected.
  public func contains(_ n: Int) -> Bool {
    if let from, n >= from { return true }
    return ranges.contains { $0.contains(n) }
  }

  /// The last selected page, nil when the selection runs to the end of the book.
  public var last: Int? {
    from == nil ? ranges.map(\.upperBound).max() ?? 0 : nil
  }

  /// The selected pages of a book of `pageCount` pages, ascending.
  public func pages(in pageCount: Int) -> [Int] {
    var set = Set<Int>()
    for r in ranges where r.lowerBound <= pageCount {
      for n in max(1, r.lowerBound)...min(r.upperBound, pageCount) { set.insert(n) }
    }
    if let from, from <= pageCount { for n in max(1, from)...pageCount { set.insert(n) } }
    return set.sorted()
  }

  /// How many pages are selected, when the selection is bounded (capped at 1,000,000).
  var boundedCount: Int? {
    guard let last else { return nil }
    return pages(in: min(last, 1_000_000)).count
  }

  /// The smallest page number named (to check that numbering starts at 1).
  var lowest: Int? { (ranges.map(\.lowerBound) + (from.map { [$0] } ?? [])).min() }

  /// "1-10,15,20-".
  public var description: String {
    var parts = ranges.map {
      $0.count == 1 ? "\($0.lowerBound)" : "\($0.lowerBound)-\($0.upperBound)"
    }
    if let from { parts.append("\(from)-") }
    return parts.joined(separator: ",")
  }
}

/// Gray or colour pages.
public enum PageColor: String, Sendable, Hashable, CaseIterable {
  /// 8-bit gray.
  case gray
  /// 8-bit RGBA.
  case rgb

  var format: PixelBuffer.Format { self == .gray ? .gray8 : .rgba8 }
}
