// ArchivedFontStore: embedded font files read through a keeper of their usable bytes.
//
// A page drawn from the persisted layout cache converts one chapter, and loading the fonts
// its @font-face rules name was the dearest part of that conversion: moby-dick's four OTF
// files (~980 KB) inflated from the ZIP on every run (~13 M instructions). The keeper
// (`FontFileArchive`, the layout cache's font files in Quire) holds a font's bytes as a
// reader uses them — inflated, and de-obfuscated when the package obfuscates the font — by
// package path; this store asks it first and hands it what it had to read. The keeper is
// bound to one book's bytes by its owner (the cache keys it by the book's content hash),
// so a path names the same font in every run.

import Foundation

/// Keeps a book's embedded font files' usable bytes (inflated, de-obfuscated) between runs,
/// by path in the package. A keeper answers for one book's bytes only.
package protocol FontFileArchive: Sendable {
  /// The bytes kept for `path`, nil when none are (or they do not check out).
  func bytes(path: String) -> Data?
  /// Keeps `bytes` as the usable bytes of `path` (a failure only makes the next run slower).
  func keep(_ bytes: Data, path: String)
}

/// A package's resources whose plain font files are read through a `FontFileArchive`.
struct ArchivedFontStore: ResourceStore {
  let base: PackageResourceStore
  let archive: any FontFileArchive

  func data(forHref href: String) -> Data? {
    if DataURL.isDataURL(href) { return base.data(forHref: href) }
    let path = href.split(separator: "#", maxSplits: 1).first.map(String.init) ?? href
    // Refused files stay refused; obfuscated ones were decoded (through the archive) already.
    if base.refused.contains(path) || base.decoded[path] != nil || path.isEmpty {
      return base.data(forHref: href)
    }
    if let kept = archive.bytes(path: path) { return kept }
    guard let read = base.data(forHref: href) else { return nil }
    archive.keep(read, path: path)
    return read
  }
}
