// SVG images: librsvg draws the document into a cairo image surface at the size it is
// placed at, so an SVG is sharp at any page size (never a bitmap scaled up).
//
// Units. An SVG's intrinsic size is librsvg's `rsvg_handle_get_intrinsic_size_in_pixels` at
// 96 dpi (one CSS px per image px, like the raster formats); a document that gives no
// absolute width/height falls back to its viewBox, then to CSS's 300×150 for replaced
// elements. `render_document` fits the document into the requested viewport keeping its
// own aspect (its `preserveAspectRatio`), centred.
//
// Pixels. cairo's ARGB32 is premultiplied, native-endian (B, G, R, A in memory on this
// little-endian target); it is converted to the straight RGBA8 every other decoder returns,
// so the resampler and compositor see one format.
//
// Hostile documents. The bytes are capped (`maxBytes`); the surface obeys `ImageLimits`
// before it is allocated. librsvg never touches the network, expands no external entities
// and caps element counts and nesting itself (its "limits" module); the document is loaded
// from memory with *no base file*, so librsvg cannot resolve any relative or `file:` URL.
// References to images inside the book (`<image href="pic.png">`) are resolved here instead,
// through the book's resource lookup, and inlined as `data:` URLs (at most `maxEmbedded`
// of them, `maxEmbeddedBytes` in all); every other non-fragment reference is rewritten to
// an empty fragment, so nothing outside the book is ever read.
//
// Text. librsvg draws `<text>` with Pango over fontconfig. With the book's `SVGFonts`
// (SVGFonts.swift), its embedded fonts are found too, by their own family names and by
// their @font-face names, through a private configuration made for that book; without, SVG
// text falls back to the system's fonts for the family it names (DejaVu on Debian).
//
// Loading. librsvg (with cairo, pango and glib) is opened with dlopen the first time an
// SVG is drawn (Sources/CDecoders): processes that meet no SVG never load it, and without
// it an SVG is a `decoderUnavailable` warning and a placeholder, not a crash.

import CDecoders
import Foundation
import QuireIngest

/// Rasterizes SVG documents through librsvg + cairo into straight-alpha RGBA8.
enum SVGRasterizer {
  /// Largest SVG document drawn (bytes, after inlining nothing).
  static let maxBytes = 16 << 20
  /// Image references inlined per document.
  static let maxEmbedded = 64
  /// Bytes of images inlined per document.
  static let maxEmbeddedBytes = 32 << 20

  /// Whether `data` looks like an SVG document: its first markup (after a BOM, an XML
  /// declaration, comments or a DOCTYPE) is an `svg` element, found in the first 4 KB.
  static func isSVG(_ data: Data) -> Bool {
    let head = String(decoding: data.prefix(4096), as: UTF8.self)
    guard let first = head.first(where: { !$0.isWhitespace && $0 != "\u{FEFF}" }), first == "<"
    else { return false }
    return head.range(of: "<svg") != nil || head.range(of: ":svg") != nil
  }

  /// Draws `data` at `size` (its intrinsic size when nil). `resources` gives the bytes of
  /// other files of the book by resolved href, for the images the document references.
  static func rasterize(
    _ data: Data, href: String, size: (width: Int, height: Int)?,
    resources: ((String) -> Data?)?, fonts: SVGFonts? = nil
  ) throws(RasterError) -> PixelBuffer {
    guard data.count <= maxBytes else {
      throw .library(
        function: "rsvg_handle_new_from_stream_sync", detail: "document over 16 MB", source: href)
    }
    let document = SVGReferences.inlined(data, href: href, resources: resources)
    let handle = try SVGHandle(document, source: href)
    let (w, h) = size ?? handle.intrinsicPixels()
    try ImageLimits.check(width: w, height: h, source: href)
    return try handle.render(width: w, height: h, fonts: fonts)
  }
}

/// One loaded librsvg document; frees it on deinit.
private final class SVGHandle {
  let svg: OpaquePointer
  let source: String

  init(_ data: Data, source: String) throws(RasterError) {
    self.source = source
    if let why = quire_svg_unavailable() {
      throw .decoderUnavailable(library: "SVG", detail: String(cString: why), source: source)
    }
    var message = [CChar](repeating: 0, count: 512)
    let loaded = data.withUnsafeBytes { raw in
      quire_svg_load(
        raw.bindMemory(to: UInt8.self).baseAddress, raw.count, &message, message.count)
    }
    guard let loaded else {
      throw .library(
        function: "rsvg_handle_new_from_stream_sync", detail: Self.text(message), source: source)
    }
    svg = loaded
  }

  deinit { quire_svg_free(svg) }

  static func text(_ message: [CChar]) -> String {
    let bytes = message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
    return bytes.isEmpty ? "unknown error" : String(decoding: bytes, as: UTF8.self)
  }

  /// Whole pixels of the intrinsic size: width/height, else the viewBox, else 300×150.
  func intrinsicPixels() -> (width: Int, height: Int) {
    var w = 0.0
    var h = 0.0
    if quire_svg_intrinsic_pixels(svg, &w, &h) == 0 || !(w > 0 && h > 0) {
      if quire_svg_viewbox(svg, &w, &h) == 0 { (w, h) = (300, 150) }
    }
    func pixels(_ v: Double) -> Int {
      v.isFinite && v > 0 ? Int(min(v.rounded(.up), Double(ImageLimits.maxSide + 1))) : 0
    }
    return (pixels(w), pixels(h))
  }

  /// The document fitted into a `width`×`height` viewport, straight RGBA8; `<text>` set with
  /// `fonts` when given.
  func render(width: Int, height: Int, fonts: SVGFonts?) throws(RasterError) -> PixelBuffer {
    var argb = [UInt8](repeating: 0, count: width * height * 4)
    var message = [CChar](repeating: 0, count: 512)
    let drawn = argb.withUnsafeMutableBufferPointer { px in
      quire_svg_render(
        svg, px.baseAddress, Int32(width), Int32(height), fonts?.handle, &message, message.count)
    }
    guard drawn != 0 else {
      throw .library(
        function: "rsvg_handle_render_document", detail: Self.text(message), source: source)
    }
    return PixelBuffer(
      width: width, height: height, format: .rgba8,
      pixels: Self.straightRGBA(argb, width: width, height: height))
  }

  /// cairo's premultiplied BGRA (little-endian ARGB32, rows of 4×width bytes) → straight
  /// RGBA8, in place.
  static func straightRGBA(_ pixels: [UInt8], width: Int, height: Int) -> [UInt8] {
    var out = pixels
    out.withUnsafeMutableBufferPointer { o in
      for i in stride(from: 0, to: width * height * 4, by: 4) {
        let a = Int(o[i + 3])
        guard a > 0 else { continue }
        let (b, g, r) = (Int(o[i]), Int(o[i + 1]), Int(o[i + 2]))
        o[i] = UInt8(min(255, (r * 255 + a / 2) / a))
        o[i + 1] = UInt8(min(255, (g * 255 + a / 2) / a))
        o[i + 2] = UInt8(min(255, (b * 255 + a / 2) / a))
      }
    }
    return out
  }
}
