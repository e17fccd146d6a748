// QuireCore: the small vocabulary every stage shares and no stage owns.
//
// What lives here is what two or more stages would otherwise each write for themselves:
//
// - `RGBA`, the one colour type (8-bit sRGB, straight alpha, `Double` accessors): CSS computes
//   to it, display lists carry it, the rasterizer composites it, Motion animates it.
// - `Diagnostic` and `DiagnosticLog`: typed content problems, aggregated by kind and file.
// - `PixelBuffer`: an owned image (gray8 or RGBA8, rows without padding), and borrowed views
//   of it, `PixelView` (read) and `MutablePixelView` (write-through), for a sub-rectangle or
//   the whole image without copying.
// - `AtomicFile`: every output file goes to a temporary name in its own folder and is renamed
//   into place; a failure (or a writer dropped uncommitted) removes the temporary file. No
//   fsync per file (see the type's comment).
// - `PNGChunkWriter` (length, type, data, CRC-32) and `PNGEncoder` on top of it (row filters,
//   libdeflate compression through a pool of compressors). Raster's page PNGs and Motion's
//   frame PNGs and APNG chunks all go through them, so a page and a frame of it encode to the
//   same bytes.
// - One lock type: `Synchronization.Mutex`, re-exported so every stage uses the same one.
//   A mutex owns the state it guards (`Mutex<State>`), so "guarded by lock" is a type, not a
//   comment. `NSCondition` remains only where a thread must sleep until another signals.
//
// Units: pixels, origin top-left, y down; bytes for sizes. Nothing here knows a page size.
//
// Why views are closure-scoped. A view points into its owner's storage, so it must not
// outlive the borrow. Swift 6.3 can say that in the type system — a `~Escapable` struct
// holding a `Span` — but declaring one's own `~Escapable` type needs `@_lifetime`
// annotations, which are still behind the experimental `Lifetimes` feature. So, like
// `Array.withUnsafeBufferPointer`, `PixelBuffer.withView`/`withMutableView` lend a view for
// the duration of a closure (the buffer's exclusivity is enforced by `mutating` for the
// closure's length); the view is a plain struct over a pointer and the owner's stride, so
// rows are read and written at full speed in the hot loops (PNG filtering, APNG sub-frames).
// Rejected: views holding a copy-on-write reference to the owner's array (every write would
// check uniqueness, and a view could silently detach from its owner), and returning
// `~Escapable` views from properties (experimental syntax in a library other teams build).
//
// The rule: QuireCore knows nothing about books, fonts, layout or animation. A type belongs
// here only when it is needed by stages that must not depend on each other (Motion and Cache
// need pixels but not fonts; Ingest and Typeset need diagnostics but not pixels). Its only C
// dependency is libdeflate (`CDeflate`: deflate and CRC-32 for PNG), small and stage-neutral.
@_exported import Synchronization
