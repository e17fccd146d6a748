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
// Text. librsvg draws `<text>` with Pango over the system's fontconfig configuration; the
// book's embedded fonts are not registered with it (fontconfig's application font set is
// process-wide, which would make one book's fonts leak into another's pages in a batch), so
// SVG text falls back to the system's fonts for the family it names (DejaVu on Debian).

import CRsvg
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
    resources: ((String) -> Data?)?
  ) throws(RasterError) -> PixelBuffer {
    guard data.count <= maxBytes else {
      throw .library(
        function: "rsvg_handle_new_from_stream_sync", detail: "document over 16 MB", source: href)
    }
    let document = SVGReferences.inlined(data, href: href, resources: resources)
    let handle = try SVGHandle(document, source: href)
    let (w, h) = size ?? handle.intrinsicPixels()
    try ImageLimits.check(width: w, height: h, source: href)
    return try handle.render(width: w, height: h)
  }
}

/// One loaded librsvg document; frees it on deinit.
private final class SVGHandle {
  let handle: UnsafeMutablePointer<RsvgHandle>
  let source: String

  init(_ data: Data, source: String) throws(RasterError) {
    self.source = source
    let bytes = data.withUnsafeBytes { raw in g_bytes_new(raw.baseAddress, gsize(raw.count)) }
    defer { g_bytes_unref(bytes) }
    let stream = g_memory_input_stream_new_from_bytes(bytes)
    defer { g_object_unref(stream) }
    var error: UnsafeMutablePointer<GError>? = nil
    guard
      let h = rsvg_handle_new_from_stream_sync(
        stream, nil, RSVG_HANDLE_FLAGS_NONE, nil, &error)
    else {
      throw .library(
        function: "rsvg_handle_new_from_stream_sync", detail: Self.message(error), source: source)
    }
    handle = h
    rsvg_handle_set_dpi(handle, 96)
  }

  deinit { g_object_unref(handle) }

  static func message(_ error: UnsafeMutablePointer<GError>?) -> String {
    guard let error else { return "unknown error" }
    defer { g_error_free(error) }
    return error.pointee.message.map { String(cString: $0) } ?? "unknown error"
  }

  /// Whole pixels of the intrinsic size: width/height, else the viewBox, else 300×150.
  func intrinsicPixels() -> (width: Int, height: Int) {
    var w = 0.0
    var h = 0.0
    if rsvg_handle_get_intrinsic_size_in_pixels(handle, &w, &h) == 0 || !(w > 0 && h > 0) {
      var hasViewBox: gboolean = 0
      var box = RsvgRectangle()
      rsvg_handle_get_intrinsic_dimensions(handle, nil, nil, nil, nil, &hasViewBox, &box)
      (w, h) = hasViewBox != 0 ? (box.width, box.height) : (300, 150)
    }
    func pixels(_ v: Double) -> Int {
      v.isFinite && v > 0 ? Int(min(v.rounded(.up), Double(ImageLimits.maxSide + 1))) : 0
    }
    return (pixels(w), pixels(h))
  }

  /// The document fitted into a `width`×`height` viewport, straight RGBA8.
  func render(width: Int, height: Int) throws(RasterError) -> PixelBuffer {
    guard let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height))
    else {
      throw .library(function: "cairo_image_surface_create", detail: "no surface", source: source)
    }
    defer { cairo_surface_destroy(surface) }
    guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS, let cr = cairo_create(surface)
    else {
      throw .library(
        function: "cairo_image_surface_create", detail: "out of memory", source: source)
    }
    defer { cairo_destroy(cr) }
    var viewport = RsvgRectangle(x: 0, y: 0, width: Double(width), height: Double(height))
    var error: UnsafeMutablePointer<GError>? = nil
    guard rsvg_handle_render_document(handle, cr, &viewport, &error) != 0 else {
      throw .library(
        function: "rsvg_handle_render_document", detail: Self.message(error), source: source)
    }
    cairo_surface_flush(surface)
    guard let base = cairo_image_surface_get_data(surface) else {
      throw .library(function: "cairo_image_surface_get_data", detail: "no pixels", source: source)
    }
    let stride = Int(cairo_image_surface_get_stride(surface))
    return PixelBuffer(
      width: width, height: height, format: .rgba8,
      pixels: Self.straightRGBA(base, width: width, height: height, stride: stride))
  }

  /// cairo's premultiplied BGRA (little-endian ARGB32) → straight RGBA8.
  static func straightRGBA(
    _ base: UnsafeMutablePointer<UInt8>, width: Int, height: Int, stride: Int
  )
    -> [UInt8]
  {
    var out = [UInt8](repeating: 0, count: width * height * 4)
    out.withUnsafeMutableBufferPointer { o in
      for y in 0..<height {
        let row = base + y * stride
        for x in 0..<width {
          let p = row + 4 * x
          let a = Int(p[3])
          let i = 4 * (y * width + x)
          guard a > 0 else { continue }
          o[i] = UInt8(min(255, (Int(p[2]) * 255 + a / 2) / a))
          o[i + 1] = UInt8(min(255, (Int(p[1]) * 255 + a / 2) / a))
          o[i + 2] = UInt8(min(255, (Int(p[0]) * 255 + a / 2) / a))
          o[i + 3] = UInt8(a)
        }
      }
    }
    return out
  }
}
