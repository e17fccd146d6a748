// What the vendored fonts are, for callers that key a layout before laying anything out (the
// persisted layout cache): the files every typesetter loads, in load order.

import Foundation

/// The vendored fonts as files.
package enum VendoredFonts {
  /// The font files every typesetter loads, in load order (the fonts/ folder found as the
  /// typesetter finds it).
  package static func files() throws(FontError) -> [URL] {
    let folder = try FontSet.locateFontsFolder()
    return FontSet.vendored.map { folder.appendingPathComponent($0.file) }
  }
}
