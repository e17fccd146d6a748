// QuireCore: the small vocabulary every stage shares and no stage owns.
//
// What lives here is what two or more stages would otherwise each write for themselves:
// the colour type (`RGBA`), typed diagnostics and their aggregation (`Diagnostic`,
// `DiagnosticLog`), and — as the stages move onto it — pixel buffers with owned storage and
// borrowed views, one atomic file writer, one PNG chunk writer, and one lock type
// (`Synchronization.Mutex`, re-exported so every stage uses the same one).
//
// The rule: QuireCore knows nothing about books, fonts, layout or animation. A type belongs
// here only when it is needed by stages that must not depend on each other (Motion and Cache
// need pixels but not fonts; Ingest and Typeset need diagnostics but not pixels). Anything
// with a C dependency beyond the tiny, stage-neutral ones stays out.
@_exported import Synchronization
