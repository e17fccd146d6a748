import CDecoders
import Foundation

/// The fonts SVG `<text>` is set with for one book: the system's fonts plus the book's
/// embedded fonts (de-obfuscated bytes, never written to disk), each also reachable by its
/// `@font-face` family name. A private fontconfig configuration and Pango font map (see
/// Sources/CDecoders/QuireSVG.c): nothing process-wide changes, so books never see each
/// other's fonts. Safe to share between threads (the C side serializes its renders).
package final class SVGFonts: @unchecked Sendable {
  /// Fonts given to fontconfig per book, at most.
  static let maxFonts = 64
  /// Bytes of fonts given per book, at most.
  static let maxBytes = 64 << 20

  let handle: OpaquePointer
  /// Fonts fontconfig accepted.
  package let count: Int

  /// nil when librsvg is unavailable, fontconfig fails, or no font is usable.
  package init?(fonts: [(family: String, data: Data)]) {
    guard !fonts.isEmpty, quire_svg_unavailable() == nil,
      let handle = quire_svg_fonts_create()
    else { return nil }
    var accepted = 0
    var bytes = 0
    for font in fonts.prefix(Self.maxFonts) where bytes + font.data.count <= Self.maxBytes {
      bytes += font.data.count
      let added = font.data.withUnsafeBytes { raw in
        quire_svg_fonts_add(
          handle, raw.bindMemory(to: UInt8.self).baseAddress, raw.count, font.family)
      }
      accepted += Int(added)
    }
    guard accepted > 0 else {
      quire_svg_fonts_free(handle)
      return nil
    }
    self.handle = handle
    self.count = accepted
  }

  deinit { quire_svg_fonts_free(handle) }
}
