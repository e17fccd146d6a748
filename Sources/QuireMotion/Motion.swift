import Foundation
// Motion: an offline Core Animation and the page-turn effects built on it.
//
// What it is. A layer tree (`Layer`, `GradientLayer`) with Core Animation's model —
// bounds/position/anchorPoint/transform/sublayerTransform, opacity, contents + gravity,
// corners, borders, shadows — animated by `BasicAnimation`, `KeyframeAnimation`,
// `AnimationGroup` and `Transition` under `MediaTiming` (begin, duration, speed, offset,
// repeats, autoreverse, fill) and cubic-Bézier `TimingFunction`s; a `Scene` that owns a clock
// and a transaction stack (implicit actions: delegate → `actions` → default); and a CPU
// `Compositor` that renders any tree at any time t into a `PixelBuffer`. The effects
// (hard page, slide/fade/push, book open, shelf) are layer trees built per frame.
//
// Units and coordinates. One point is one output pixel. y grows downward and the origin is
// the canvas's top-left corner (UIKit's flipped geometry, which is what the seed code and
// every iOS page-turn sample assume). Angles are radians in the API (degrees only in shelf
// layout files). Time is seconds on the scene's own clock; nothing reads the wall clock.
// Transforms are 4×4 with Core Animation's row-vector convention (p' = p·M, m34 = −1/d).
//
// Offline means explicit time. `Scene.advance(to:)` moves the clock and fires transaction
// completions in end-time order (the clock stands at each end time while its callback runs,
// so the animation a callback starts begins exactly then); `Layer.presentation(at:)` is a
// pure function of the model and the attached animations, so a frame at t can be rendered
// in any order, any number of times, with the same bytes.
//
// The compositor inverse-maps: for each destination pixel inside a projected quad it inverts
// the layer's homography to find the layer-local point, samples bilinearly in premultiplied
// space and blends source-over. Edges get coverage from the pixel centre's distance to the
// projected edges, so an axis-aligned edge on a pixel boundary is hard and an integer
// translation of an unscaled image is copied bit for bit. Painter's order (zPosition, then
// index) replaces a depth buffer.
//
// Alternatives rejected. (1) Forward-mapping triangles with a scanline texture mapper (the
// classic software GL path): needs clipping and subdivision for perspective correctness and
// cracks/overlaps at shared edges; the inverse homography is exact per pixel and simpler.
// (2) A process-wide "current transaction" like CATransaction: offline there is no run loop
// to commit it, and a global would make two scenes, or two concurrent renders, interfere —
// transactions live on the scene. (3) Making layers value types: an animation framework
// whose nodes are shared and mutated in place (a transaction changes the layer a parent
// holds) reads naturally only with reference semantics; instead layers are confined to one
// task and effects build a fresh tree per frame, which keeps every effect `Sendable`.
// (4) Implementing effects as per-pixel formulas only: the curl/leaves/fold effects do that
// (a cylinder is not a quad); rigid effects (hard page, transitions, open, shelf) are
// exactly what a layer compositor draws, and drawing them through it tests it.
//
// What it stands on. Motion needs pixels, not fonts: it depends on QuireCore alone (plus
// libwebp for animated WebP) and re-exports it. Pages arrive as the core's `PixelBuffer`;
// colours are the core's 8-bit `RGBA`, interpolated in premultiplied `Double` and rounded
// once per animated value (gradient tables keep the unrounded in-between values, and effect
// strengths that vary per frame — a shade, a veil — are layer opacities, which are `Double`);
// frame PNGs and APNG chunks come from the core's `PNGEncoder` and `PNGChunkWriter`, and
// every output file is an `AtomicFile`, so a turn's frame and the page it shows encode the
// same way as the raster stage's page PNGs.
//
// Written by hand because no installed library does it: there is no Core Animation (or
// Quartz) on Linux, and the installed C libraries decode/encode images but do not composite
// projective quads.
@_exported import QuireCore
