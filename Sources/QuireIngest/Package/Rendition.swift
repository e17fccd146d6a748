// Rendition properties (EPUB 3.3 §8.2 "Fixed layouts"): how a spine item is presented.
//
// The package sets defaults with `<meta property="rendition:layout|orientation|spread">`;
// each spine `itemref` may override them with its `properties` (`rendition:layout-*`,
// `rendition:orientation-*`, `rendition:spread-*`) and place itself in a spread
// (`page-spread-left|right`, `rendition:page-spread-left|right|center`). Overrides go both
// ways: a reflowable item in a pre-paginated book, a pre-paginated item in a reflowable one.
//
// Values outside the vocabulary are warned about and ignored (the default then applies), as
// reading systems must. Deprecated values are mapped: `rendition:spread portrait` reads as
// `both` (EPUB 3.2 deprecated it; it meant "spreads in every orientation").
//
// The initial containing block (ICB) of a pre-paginated XHTML item comes from its viewport
// `<meta>` (Viewport.swift); image and SVG items take their intrinsic size in Typeset, which
// knows image headers. Ingest only records what the package says.

import QuireCore

/// `rendition:layout`: whether an item reflows or is a page as drawn.
package enum RenditionLayout: String, Sendable, Hashable, Codable, CaseIterable {
  /// Laid out by the reader into its own pages.
  case reflowable
  /// One page per item, at the item's viewport.
  case prePaginated = "pre-paginated"
}

/// `rendition:orientation`: the device orientation the item wants.
package enum RenditionOrientation: String, Sendable, Hashable, Codable, CaseIterable {
  /// Either.
  case auto
  /// Wider than tall.
  case landscape
  /// Taller than wide.
  case portrait
}

/// `rendition:spread`: when two items are shown side by side.
package enum RenditionSpread: String, Sendable, Hashable, Codable, CaseIterable {
  /// The reader decides (Quire pairs when asked for spreads).
  case auto
  /// Never in a spread.
  case none
  /// In landscape only.
  case landscape
  /// Always.
  case both
}

/// `page-spread-*`: the side of a spread an item goes on.
package enum PageSpread: String, Sendable, Hashable, Codable, CaseIterable {
  /// The left page.
  case left
  /// The right page.
  case right
  /// Alone, centred across the spread.
  case center
}

/// The rendition properties of one spine item: the package's, with the item's overrides.
package struct Rendition: Sendable, Hashable, Codable {
  /// Reflowable or pre-paginated.
  package var layout: RenditionLayout = .reflowable
  /// The orientation the item wants.
  package var orientation: RenditionOrientation = .auto
  /// When the item is shown in a spread.
  package var spread: RenditionSpread = .auto
  /// The spread side the item asks for, nil when it names none.
  package var pageSpread: PageSpread? = nil
  /// The item's own `rendition:*` / `page-spread-*` properties that were applied, as written.
  package var overrides: [String] = []
  /// The initial containing block from the item's viewport `<meta>`, CSS px (XHTML only;
  /// nil for image items and when the meta is missing or unusable).
  package var viewport: ViewportSize? = nil

  package init() {}

  /// True for a pre-paginated item.
  package var isFixed: Bool { layout == .prePaginated }
}

/// A viewport size in CSS px.
package struct ViewportSize: Sendable, Hashable, Codable {
  /// Width, px.
  package var width: Double
  /// Height, px.
  package var height: Double
  package init(width: Double, height: Double) {
    self.width = width
    self.height = height
  }
}

extension Rendition {
  /// The package-wide defaults from the OPF `<metadata>`'s `rendition:*` meta elements.
  static func package(_ metadata: XMLElement, file: String, warnings: inout [Diagnostic])
    -> Rendition
  {
    var r = Rendition()
    for meta in metadata.elements(named: "meta") {
      guard meta.attribute("refines") == nil, let property = meta.attribute("property") else {
        continue
      }
      let value = meta.text.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
      var known = true
      switch property {
      case "rendition:layout":
        if let v = RenditionLayout(rawValue: value) { r.layout = v } else { known = false }
      case "rendition:orientation":
        if let v = RenditionOrientation(rawValue: value) {
          r.orientation = v
        } else {
          known = false
        }
      case "rendition:spread":
        if let v = spread(value) { r.spread = v } else { known = false }
      default: continue
      }
      if !known {
        warnings.append(
          Diagnostic(
            .rendition, file: file,
            message:
              "\(property) '\(QuotedInput.elided(value))' is not a known value; the default is used"
          ))
      }
    }
    return r
  }

  /// `rendition:spread` values, the deprecated `portrait` read as `both`.
  static func spread(_ value: String) -> RenditionSpread? {
    value == "portrait" ? .both : RenditionSpread(rawValue: value)
  }

  /// This item's rendition: the package defaults with the itemref's `properties` applied.
  func applying(_ properties: [String], file: String, warnings: inout [Diagnostic]) -> Rendition {
    var r = self
    for raw in properties.prefix(64) {
      let p = raw.lowercased()
      guard apply(p, to: &r) else {
        if p.hasPrefix("rendition:") || p.hasPrefix("page-spread-") {
          warnings.append(
            Diagnostic(
              .rendition, file: file,
              message: "spine property '\(QuotedInput.elided(raw))' is not known; ignored"))
        }
        continue
      }
      r.overrides.append(raw)
    }
    return r
  }

  /// Applies one spine property; false when it is not a rendition property Quire knows.
  private func apply(_ p: String, to r: inout Rendition) -> Bool {
    func suffix(_ prefix: String) -> String? {
      p.hasPrefix(prefix) ? String(p.dropFirst(prefix.count)) : nil
    }
    if let v = suffix("rendition:layout-").flatMap(RenditionLayout.init(rawValue:)) {
      r.layout = v
    } else if let v = suffix("rendition:orientation-").flatMap(RenditionOrientation.init) {
      r.orientation = v
    } else if let v = suffix("rendition:spread-").flatMap(Self.spread) {
      r.spread = v
    } else if let v = (suffix("rendition:page-spread-") ?? suffix("page-spread-")).flatMap(
      PageSpread.init(rawValue:))
    {
      r.pageSpread = v
    } else {
      return false
    }
    return true
  }
}

extension Diagnostic.Kind {
  /// A rendition property (EPUB fixed layout) or a fixed-layout item's viewport could not be
  /// used; the default applies.
  package static let rendition = Diagnostic.Kind("rendition")
}

extension SpineItem {
  /// An `itemref`: its idref, `linear` and `properties` (at most 64); nil without an idref.
  init?(_ ref: XMLElement) {
    guard let idref = ref.attribute("idref") else { return nil }
    self.init(
      idref: idref, linear: ref.attribute("linear")?.lowercased() != "no",
      properties: (ref.attribute("properties") ?? "").split(whereSeparator: \.isWhitespace)
        .prefix(64).map(String.init))
  }
}
