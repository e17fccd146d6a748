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
        } else if plan.pageX >= 0 && plan.topCoverage >= 1 && plan.backCoverage <= 0
          && plan.topShadow == 0
        {
          plan.kind = .dimFront
        } else if plan.pageX >= 0 && plan.topCoverage <= 0 && plan.backCoverage <= 0
          && plan.beneathShadow == 0
        {
          plan.kind = .copyBeneath
        }
        layerOfColumn[cx] = plan
      }
      let runs = columnRuns(layerOfColumn)
      let dimmed = dimmingTable(dimming)
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
            case .dimFront:
              dimRun(
                out, canvasWidth: canvasWidth, row: y, from: run.start, to: run.end,
                originX: faces.originX, page: front, table: dimmed)
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

/// How a column is drawn in every row: copied from the top page or the page beneath, the top
/// page under the dimming alone (`dimRun`), or the general per-pixel path.
private enum ColumnKind { case copyFront, copyBeneath, dimFront, work }

/// Runs of adjacent columns treated alike (the same for every row).
private func columnRuns(_ plans: [ColumnPlan]) -> [(start: Int, end: Int, kind: ColumnKind)] {
  var runs: [(start: Int, end: Int, kind: ColumnKind)] = []
  for (cx, plan) in plans.enumerated() {
    if let last = runs.last, last.kind == plan.kind, last.end == cx {
      runs[runs.count - 1].end = cx + 1
    } else {
      runs.append((cx, cx + 1, plan.kind))
    }
  }
  return runs
}

/// What the general path stores for a colour byte v of the top page under the dimming and
/// nothing else: v·(1 − dimming) rounded as `store` rounds (`shadowed`, then `store`). The
/// general path blends that over the page beneath at coverage 1 (a + (b − a)·1), which can
/// differ from b in the last bit of the Float: at most one level, on exact halves only.
private func dimmingTable(_ dimming: Float) -> [UInt8] {
  (0..<256).map { v in
    let c = Float(v) * (1 - dimming) + 0.5
    return UInt8(Swift.min(Swift.max(c, 0), 255))
  }
}

/// Canvas columns [a, b) of row y (all on the page: page x = canvas x − originX) from the top
/// page under the dimming: each colour byte through `table` (`dimmingTable`), alpha as it is.
/// About a tenth of the general path's instructions a pixel (no Float texel, no blend).
private func dimRun(
  _ out: UnsafeMutablePointer<UInt8>, canvasWidth: Int, row y: Int, from a: Int, to b: Int,
  originX: Int, page: PageView, table: [UInt8]
) {
  guard a < b else { return }
  let dst = out + (y * canvasWidth + a) * 4
  let src = page.base + (y * page.width + a - originX) * 4
  table.withUnsafeBufferPointer { t in
    for o in stride(from: 0, to: (b - a) * 4, by: 4) {
      dst[o] = t[Int(src[o])]
      dst[o + 1] = t[Int(src[o + 1])]
      dst[o + 2] = t[Int(src[o + 2])]
      dst[o + 3] = src[o + 3]
    }
  }
}

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
