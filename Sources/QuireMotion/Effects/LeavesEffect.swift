/// The Leaves flip (Tom Brow's Leaves for iOS): the page folds along a vertical line that
/// travels from the right edge to the left; the folded-over part shows its back.
///
/// One parameter, leafEdge e = 1 − t ∈ [1, 0], in page coordinates (see TurnCanvas.swift):
/// - the top page (current) is clipped to x < e·W;
/// - the back of the leaf covers [(2e − 1)·W, e·W) (width (1 − e)·W): page point x lands at
///   2eW − x; it shows the back (by default the current page mirrored under white α 0.8) with a
///   gradient black α 0.6 → 0 over the 50 px next to the fold;
/// - on the page beneath, black α 0.6 → 0 over the 40 px right of the fold; on the top page a
///   40 px shadow left of the back's free edge;
/// - the uncovered part of the top page, which the leaf passes over, is dimmed under black
///   α 0.2 (Leaves' `topPageOverlay`);
/// - the three shadows' and the dimming's opacity is min(1, 4(1 − e)) as in Leaves, and also
///   ≤ 4e here so that they are gone when the leaf lies down (the contract: frame(1) == next
///   exactly).
/// The pixel constants are Leaves' for a 768-px iPad page; they scale with W/768.
package struct LeavesEffect: PageTurnEffect, LeafEffect {
  package var name: String { "leaves" }
  package init() {}

  package func frame(at t: Double, pages: TurnPages, options: TurnOptions) -> PixelBuffer {
    leafFrame(at: t, pages: pages, options: options)
  }

  func render(progress: Double, faces: LeafFaces, corner: TurnCorner) -> PixelBuffer {
    if progress <= 0 || faces.width == 0 || faces.height == 0 { return faces.startImage }
    if progress >= 1 { return faces.endImage }
    let w = faces.width
    let h = faces.height
    let fw = Float(w)
    let scale = fw / 768
    let e = Float(1 - progress)
    let fold = e * fw  // the top page's right edge and the fold line
    let backLeft = (2 * e - 1) * fw  // the back's free edge
    let opacity = Swift.min(1, 4 * (1 - e), 4 * e)
    let shadowWidth = 40 * scale
    let shadingWidth = 50 * scale
    let veil = faces.backVeil
    let dimming = 0.2 * opacity
    let canvasWidth = faces.canvasWidth
    let originX = Float(faces.originX)

    return withLeafCanvas(faces) { out, front, back, beneath, left in
      // Per-column work does not depend on the row: compute it once.
      var layerOfColumn = [ColumnPlan](repeating: ColumnPlan(), count: canvasWidth)
      for cx in 0..<canvasWidth {
        let x0 = Float(cx) - originX  // pixel's left edge in page coordinates
        let xc = x0 + 0.5
        var plan = ColumnPlan()
        plan.pageX = Int(x0.rounded(.down))
        plan.topCoverage = x0 < 0 ? 1 : clamp01(fold - x0)
        plan.backCoverage = clamp01(Swift.min(x0 + 1, fold) - Swift.max(x0, backLeft))
        plan.backX = 2 * fold - xc
        if xc >= fold {
          let s = clamp01(1 - (xc - fold) / shadowWidth)
          plan.beneathShadow = 0.6 * s * opacity
        }
        if xc < backLeft {
          let s = clamp01(1 - (backLeft - xc) / shadowWidth)
          plan.topShadow = 0.6 * s * opacity
        }
        if xc < fold {
          plan.backShading = 0.6 * clamp01(1 - (fold - xc) / shadingWidth) * opacity
        }
        if plan.pageX >= 0 && plan.topCoverage > 0 { plan.topDimming = dimming }
        if plan.backCoverage <= 0 && plan.topShadow == 0 && plan.topDimming == 0
          && (plan.pageX < 0 || plan.topCoverage >= 1)
        {
          plan.kind = .copyFront
        } else if plan.pageX >= 0 && plan.topCoverage <= 0 && plan.backCoverage <= 0
          && plan.beneathShadow == 0
        {
          plan.kind = .copyBeneath
        }
        layerOfColumn[cx] = plan
      }
      // Runs of columns treated alike (the same for every row).
      var runs: [(start: Int, end: Int, kind: ColumnKind)] = []
      for cx in 0..<canvasWidth {
        let kind = layerOfColumn[cx].kind
        if let last = runs.last, last.kind == kind, last.end == cx {
          runs[runs.count - 1].end = cx + 1
        } else {
          runs.append((cx, cx + 1, kind))
        }
      }
      layerOfColumn.withUnsafeBufferPointer { plans in
        for y in 0..<h {
          let py = Float(y) + 0.5
          let rowOut = y * canvasWidth * 4
          for run in runs {
            switch run.kind {
            case .copyFront:
              copyRun(
                out, canvasWidth: canvasWidth, row: y, from: run.start, to: run.end,
                originX: faces.originX, page: front, left: left)
              continue
            case .copyBeneath:
              copyRun(
                out, canvasWidth: canvasWidth, row: y, from: run.start, to: run.end,
                originX: faces.originX, page: beneath, left: left)
              continue
            case .work: break
            }
            for cx in run.start..<run.end {
              let plan = plans[cx]
              let o = rowOut + cx * 4
              let px = plan.pageX
              // Bottom layer: the page beneath (or the spread's left page left of the spine).
              var color: Texel
              if px < 0 {
                color = left!.pixel(px + w, y)
              } else if plan.topCoverage >= 1 && plan.backCoverage <= 0 && plan.topShadow == 0
                && plan.topDimming == 0
              {
                copyPixel(front.base, (y * w + px) * 4, out, o)
                continue
              } else if plan.topCoverage <= 0 && plan.backCoverage <= 0 && plan.beneathShadow == 0 {
                copyPixel(beneath.base, (y * w + px) * 4, out, o)
                continue
              } else {
                color = shadowed(beneath.pixel(px, y), plan.beneathShadow)
                if plan.topCoverage > 0 {
                  color = mix(
                    color, shadowed(front.pixel(px, y), plan.topDimming), plan.topCoverage)
                }
              }
              if plan.topShadow > 0 { color = shadowed(color, plan.topShadow) }
              if plan.backCoverage > 0 {
                var b = back?.sample(plan.backX, py) ?? paperWhite
                if veil > 0 { b = mix(b, paperWhite, veil) }
                b = shadowed(b, plan.backShading)
                color = mix(color, b, plan.backCoverage)
              }
              store(color, out, o)
            }
          }
        }
      }
    }
  }
}

private enum ColumnKind { case copyFront, copyBeneath, work }

private struct ColumnPlan {
  var kind = ColumnKind.work
  var pageX = 0
  var topCoverage: Float = 0
  var backCoverage: Float = 0
  var backX: Float = 0
  var beneathShadow: Float = 0
  var topShadow: Float = 0
  /// Leaves' overlay on the uncovered part of the top page.
  var topDimming: Float = 0
  var backShading: Float = 0
}
