import QuireIngest

/// Whether the package's cover image becomes a page of its own (EPUB 3
/// `properties="cover-image"`, EPUB 2 `<meta name="cover">`).
public enum CoverPage: String, Sendable, Hashable, CaseIterable {
  /// Page 1 when no spine document shows the cover image (centred, scaled to fit).
  case auto
  /// Never added.
  case off

  var policy: CoverPolicy { self == .auto ? .auto : .off }
}
