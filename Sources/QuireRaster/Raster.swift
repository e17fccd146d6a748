// Raster: display lists → pixels; PNG and JPEG in and out.
//
// Units and coordinates. Everything here is in page pixels, origin top-left, y down, the
// same space the typesetter writes `Page` items in. Glyph pen positions are fractional; the
// rasterizer snaps the baseline to whole pixels (FreeType's light hinting snaps heights to
// the pixel grid, so a fractional baseline would blur every stem again) and quantizes x to
// quarter pixels: four cached bitmaps per glyph, rendered with the outline shifted by
// 0, 16, 32, 48 in 26.6 units, so word spacing from justification is kept to within 1/8 px
// without a bitmap per distinct position.
//
// Hinting. FT_LOAD_TARGET_LIGHT: vertical-only hinting. Stems and x-height land on whole
// pixels (crisp 16 px gray text, which is the e-ink use case), while horizontal metrics are
// left exactly as HarfBuzz measured them from the unhinted outlines, so the typesetter's pen
// positions and the pixels agree. Full (NORMAL) hinting would distort widths and fight the
// sub-pixel x positions; no hinting looks visibly blurry at 16 px on a gray page.
//
// Threads. A `PageRenderer` is called from several threads at once. FreeType wants one
// `FT_Library` per thread, so the renderer keeps a small pool of `GlyphRasterizer`s (each
// its own FT_Library, faces and glyph cache). `render` checks one out for the whole page and
// returns it; with N threads at most N exist. The alternative, a lock-striped shared glyph
// cache over one FT_Library, needs a lock around every glyph lookup (≈2000 per page; the
// uncontended locking alone measured ~0.04 ms/page, 15 % of the whole 0.25 ms render) and
// still serializes the FreeType calls on a miss; the pool takes one lock per page and the
// glyph caches warm up after the first page or two, so the duplicated cache costs a few
// hundred kilobytes, not time. Decoded images are rare and large, so that cache is shared.
//
// Filled paths (`DisplayItem.path`: diagonal strokes and curves of math enclosures) go
// through the same FreeType scan converter as glyphs, with exact-area anti-aliasing
// (PathRasterizer.swift); rectangles keep their own exact-coverage fill.
//
// Images. JPEGs are decoded by TurboJPEG at the smallest DCT scale (1/8…1) that still
// covers the placement, then resampled (area average down, bilinear up) in premultiplied
// alpha from a ring of rows, so a 4000×3000 photo placed at 500 px never exists at full
// size in memory.
// The other formats (GIF, WebP, AVIF, JPEG XL, BMP) have one decoder file each, chosen
// in `ImageDecoder.decode` by the file's signature (`ImageFormat.sniff`); all return
// straight-alpha RGBA8, upright, sRGB assumed (no ICC handling).
//
// Pixels and PNG output live in QuireCore. `PixelBuffer` (the page image this stage returns)
// and `PNGEncoder` are the core's, because Cache and Motion need pixels and PNG bytes but not
// fonts; this stage re-exports the core so `import QuireRaster` still sees them. `PNGCodec`
// here is the encode entry point the façade calls (a thin name over the core encoder) and
// the decoder (libpng's simplified API, which needs no setjmp from Swift). The core's encoder
// writes its own chunks because libpng's simplified writer uses zlib (2–3× slower than
// libdeflate for the same size on text pages; see Benchmarks/png-encoding.md) and cannot
// choose the row filter.
//
// Threads share mutable state only through the core's one lock type, `Mutex`: the pool of
// idle rasterizers and the warnings (PageRenderer), the font bytes (FontStore), the decoded
// images (ImageStore).
//
// Why some things are hand-written: the resampler and the coverage blitter are small loops no
// installed library offers with premultiplied-alpha compositing into our own buffers.

import Foundation
@_exported import QuireCore

/// What went wrong in the raster stage, naming the input and the failing C function.
package enum RasterError: Error, Sendable, Equatable, CustomStringConvertible {
  /// A C library call failed: `function` is its name, `detail` its message.
  case library(function: String, detail: String, source: String)
  /// The data is not a format we decode (TIFF, HEIC, SVG before its renderer…).
  case unsupportedFormat(source: String)
  /// The image header claims dimensions beyond the limits.
  case imageTooLarge(source: String, width: Int, height: Int)
  /// A font in the FontTable could not be opened.
  case font(function: String, code: Int32, source: String)
  /// The shared library that decodes this format (loaded on first use) is not installed or
  /// not the version Quire was built for: `library` names it, `detail` is the loader's word.
  case decoderUnavailable(library: String, detail: String, source: String)

  /// The image or font the error is about.
  package var source: String {
    switch self {
    case .library(_, _, let source), .unsupportedFormat(let source),
      .imageTooLarge(let source, _, _), .font(_, _, let source),
      .decoderUnavailable(_, _, let source):
      return source
    }
  }

  /// What went wrong, without the source.
  package var reason: String {
    switch self {
    case .library(let function, let detail, _): return "\(function) failed: \(detail)"
    case .unsupportedFormat: return "unsupported image format"
    case .imageTooLarge(_, let width, let height):
      return "image \(width)x\(height) exceeds the limits"
    case .font(let function, let code, _): return "\(function) failed with FreeType error \(code)"
    case .decoderUnavailable(let library, let detail, _):
      return "the \(library) decoder is not available: \(detail)"
    }
  }

  /// "source: reason".
  package var description: String { "\(source): \(reason)" }
}

extension Diagnostic.Kind {
  /// A font face FreeType could not open or draw: the text set in it is missing from the
  /// page.
  package static let unrenderableFont = Diagnostic.Kind("unrenderableFont")
  /// An image that could not be decoded or placed: a grey placeholder box stands in for it.
  package static let undrawableImage = Diagnostic.Kind("undrawableImage")
}

/// Limits on decoded images: no side above 16384 px and at most 100 megapixels.
package enum ImageLimits {
  package static let maxSide = 16_384
  package static let maxPixels = 100_000_000
  static func check(width: Int, height: Int, source: String) throws(RasterError) {
    if width <= 0 || height <= 0 || width > maxSide || height > maxSide
      || width * height > maxPixels
    {
      throw .imageTooLarge(source: source, width: width, height: height)
    }
  }
}
