// Inline layout of one block: text runs → scalars → break opportunities (libunibreak) →
// shaped pieces and BreakItems → lines (a ParagraphBreaker) → positioned glyph runs.
//
// A *piece* is a maximal stretch of non-space text between two break opportunities that
// shares one style, face and script; it is shaped as a unit (so kerning and ligatures work
// inside words, and Arabic joins), and becomes one box. Spaces become glue (TeX-like: stretch
// 1/2, shrink 1/3 of the space), allowed breaks without a space become penalties (or small
// glue between CJK characters, for inter-character justification), soft hyphens flagged
// penalties, `<br>` and the paragraph end the finishing glue plus a forced break.
//
// Letter spacing: Noto Serif's space is narrow (0.26 em), so word spaces alone give the
// breaker little stretch and many lines end up loose. Each Latin/Cyrillic/Greek word (after
// the paragraph's first) is preceded by a zero-width glue whose stretch is 2 % of the
// word's width (pdfTeX's font expansion, InDesign's letter spacing): it is never a break
// (it follows a glue or a penalty), and when placing it widens the word by equal gaps
// between its glyphs. Word spaces keep their 1/2, 1/3 proportions, so a line's ratio still
// gives its word-space width exactly. Rejected: scaling glyphs horizontally (the
// rasteriser would need a transform per run) and a box-stretch field in BreakItem (a
// change to a shared enum every breaker switches over).
//
// CJK spacing (JLREQ; the items come from `Kinsoku.boundaryItems`): fullwidth punctuation
// whose em box is half blank is compressed — a fixed −½ em glue between adjacent
// punctuation (」「, 。」), a −½ em penalty width when a line ends after it, ½ em of shrink
// inside a line that must tighten — 。、，． may hang wholly past the measure (a −1 em
// penalty with a cost), and ¼ em glue separates CJK from Latin letters and digits. A space
// next to CJK text follows the kinsoku rules too (no break before "？" in "我 ？」").

import CHarfBuzz
import CUnibreak
import Foundation
import QuireIngest

private let unibreakReady: Bool = {
  init_linebreak()
  return true
}()

/// A glue's width after justification (infinite "fil" glue only fills, never moves text).
@inline(__always) func adjusted(_ w: Double, _ stretch: Double, _ shrink: Double, _ ratio: Double)
  -> Double
{
  if ratio >= 0 { return stretch.isFinite ? w + ratio * stretch : w }
  return shrink.isFinite ? w + ratio * shrink : w
}

struct Piece {
  var start: Int
  var end: Int
  var style: Int
  var face: Int
  var size: Double
  var shaped: ShapedText
  var width: Double
  var image: ImagePlacement?
  var imageAbove: Double = 0
}

enum ItemSource {
  case piece(Int)
  case space(Int, style: Int)
  case soft(Int, style: Int)
  case plain(Int)
  /// Letter-spacing glue of piece `p` (placed just before its box): its adjusted width is
  /// spread between the piece's glyphs.
  case letter(Int)
  case end
}

extension ChapterFlow {
  mutating func paragraph(_ block: Block, left: Double, right: Double) {
    _ = unibreakReady
    let st = block.style
    let width = max(1, right - left)
    let blockStyle = resolve(st)
    let lang = block.lang ?? language ?? options.language ?? ""
    let shapeLanguage = ShapeLanguage(lang)
    // The dictionary is looked up at the first word that could use it, not per paragraph:
    // loading one is costly (hyph_de_DE.dic takes seconds) and many spans never need it.
    let wantsHyphenation =
      options.hyphenate == .auto && st.hyphens != .none && !lang.isEmpty && !noWrapStyle(st)
    var hyphenator: Hyphenator? = nil
    var hyphenatorResolved = false
    let rtl = (block.dir ?? st.direction ?? direction) == .rtl
    // Traditional Chinese centres its punctuation in the em box: nothing to compress.
    let lowerLang = lang.lowercased()
    let compressPunctuation =
      !(lowerLang.hasPrefix("zh-hant") || lowerLang.hasPrefix("zh-tw")
      || lowerLang.hasPrefix("zh-hk") || lowerLang.hasPrefix("zh-mo"))
    let ws = st.whiteSpace
    let preserve = ws == .pre || ws == .preWrap
    let keepNewlines = preserve || ws == .preLine
    let noWrap = ws == .pre || ws == .nowrap
    let blockNumber = nextBlock
    nextBlock += 1

    // 1. Flatten the inlines into scalars with source offsets and styles.
    var text: [UInt32] = []
    var src: [Int] = []
    var sty: [Int] = []
    var small: [Bool] = []
    var inlineImages: [Int: InlineImage] = [:]
    let estimate = block.inlines.reduce(0) {
      if case .text(let r) = $1 { return $0 + r.text.utf8.count } else { return $0 + 1 }
    }
    text.reserveCapacity(estimate)
    src.reserveCapacity(estimate)
    sty.reserveCapacity(estimate)
    small.reserveCapacity(estimate)
    func push(_ s: UInt32, _ o: Int, _ si: Int, _ sm: Bool = false) {
      text.append(s)
      src.append(o)
      sty.append(si)
      small.append(sm)
    }
    var lastLoc = block.location.offset
    for inline in block.inlines {
      guard text.count < 1_000_000 else { break }
      switch inline {
      case .text(let run):
        let si = resolve(run.style)
        let fakeSmall = styles[si].fakeSmallCaps
        let transform = run.style.textTransform
        var offset = run.location.offset
        var atWordStart = text.last.map { $0 == 0x20 } ?? true
        for sc in run.text.unicodeScalars {
          defer { offset += 1 }
          var v = sc.value
          if v == 0x0A || v == 0x0D || v == 0x09 || v == 0x0C {
            if keepNewlines && v == 0x0A {
              push(0x2028, offset, si)
              atWordStart = true
              continue
            }
            if preserve && v == 0x09 {
              for _ in 0..<4 { push(0x20, offset, si) }
              continue
            }
            v = 0x20
          }
          if v == 0x20 && !preserve {
            if text.isEmpty || text.last == 0x20 || text.last == 0x2028 { continue }
            push(0x20, offset, si)
            atWordStart = true
            continue
          }
          if !fakeSmall && transform == .none {
            push(v, offset, si)
            continue
          }
          var out = String(Unicode.Scalar(v)!)
          switch transform {
          case .none: break
          case .uppercase: out = out.uppercased()
          case .lowercase: out = out.lowercased()
          case .capitalize: if atWordStart { out = out.uppercased() }
          }
          atWordStart = v == 0x20
          for u in out.unicodeScalars {
            if fakeSmall, u.properties.isLowercase {
              for up in String(u).uppercased().unicodeScalars { push(up.value, offset, si, true) }
            } else {
              push(u.value, offset, si)
            }
          }
        }
        lastLoc = offset
      case .lineBreak(let loc):
        push(0x2028, loc.offset, blockStyle)
        lastLoc = loc.offset + 1
      case .image(let img):
        inlineImages[text.count] = img
        push(0xFFFC, img.location.offset, resolve(img.style))
        lastLoc = img.location.offset + 1
      }
    }
    while text.last == 0x20, !preserve {
      text.removeLast()
      src.removeLast()
      sty.removeLast()
      small.removeLast()
    }
    if text.isEmpty {
      // An empty paragraph still takes its line (e.g. <p>&nbsp;</p> collapsed), unless it is
      // nothing at all.
      return
    }
    // Every style of the paragraph is resolved by now. A local copy (no element copies:
    // the buffer is shared) lets `styles[si].field` read one field; through `self` each
    // read copied the whole ResolvedStyle behind an exclusivity check, 1.6 M times a book.
    let styles = self.styles
    let n = text.count
    // Bidi levels (empty on the all-LTR fast path): pieces split where the level changes and
    // are shaped in their level's direction; lines are reordered visually below.
    let bidi = BidiParagraph(
      text: text.map { Unicode.Scalar($0) ?? " " }, baseDirection: rtl ? .rtl : .ltr)
    let levels = bidi.levels

    // 2. Break opportunities.
    var brks = [CChar](repeating: 0, count: n)
    text.withUnsafeBufferPointer { t in
      lang.withCString { l in set_linebreaks_utf32(t.baseAddress, n, l, &brks) }
    }

    // 3. Pieces and break items.
    var pieces: [Piece] = []
    var items: [BreakItem] = []
    var sources: [ItemSource] = []
    items.reserveCapacity(n / 3)
    var pieceStart = -1
    var pieceFace = -1
    var pieceScript = HB_SCRIPT_COMMON
    var runScript = HB_SCRIPT_LATIN
    func flush(_ end: Int) {
      guard pieceStart >= 0, end > pieceStart else {
        pieceStart = -1
        return
      }
      let si = sty[pieceStart]
      let fake = small[pieceStart]
      let size = fake ? styles[si].size * 0.8 : styles[si].size
      let upem = fonts.upem[pieceFace]
      let script =
        pieceScript == HB_SCRIPT_COMMON || pieceScript == HB_SCRIPT_INHERITED
        ? runScript : pieceScript
      let key = ShapeKey(
        text: Array(text[pieceStart..<end]), face: pieceFace,
        smallCaps: styles[si].smallCapsFeature,
        rtl: levels.isEmpty
          ? hb_script_get_horizontal_direction(script) == HB_DIRECTION_RTL
          : levels[pieceStart] & 1 == 1,
        script: script.rawValue,
        language: shapeLanguage)
      // Hyphenation points split the word into boxes joined by flagged penalties; the split
      // and shaped word is cached whole, so a repeated word costs one lookup.
      let eligible =
        wantsHyphenation && end - pieceStart >= ChapterFlow.minHyphenatedLength && !fake
        && (script == HB_SCRIPT_LATIN || script == HB_SCRIPT_CYRILLIC || script == HB_SCRIPT_GREEK)
      if eligible && !hyphenatorResolved {
        hyphenator = hyphenatorFor(lang)
        hyphenatorResolved = true
      }
      let hyphenate = eligible && hyphenator != nil
      let letterSpacing =
        !noWrap && !fake
        && (script == HB_SCRIPT_LATIN || script == HB_SCRIPT_CYRILLIC || script == HB_SCRIPT_GREEK)
      let wordKey = WordKey(shape: key, hyphenated: hyphenate)
      var parts: [WordPart]
      if let hit = shaper.word(wordKey) {
        parts = hit
      } else if hyphenate, let hyphenator {
        parts = []
        var from = 0
        for p in hyphenationPoints(key.text, hyphenator) where p > from && p < key.text.count {
          var sub = key
          sub.text = Array(key.text[from..<p])
          parts.append(WordPart(start: from, end: p, shaped: shaper.shape(sub)))
          from = p
        }
        var sub = key
        sub.text = Array(key.text[from...])
        parts.append(
          WordPart(
            start: from, end: key.text.count,
            shaped: from == 0 ? shaper.shape(key) : shaper.shape(sub)))
        shaper.storeWord(wordKey, parts)
      } else {
        parts = [WordPart(start: 0, end: key.text.count, shaped: shaper.shape(key))]
        shaper.storeWord(wordKey, parts)
      }
      for (k, part) in parts.enumerated() {
        if k > 0 {
          items.append(BreakItem.hyphen(width: styles[si].hyphenWidth))
          sources.append(.soft(pieceStart + part.start, style: si))
        }
        let w = part.shaped.advance / upem * size
        if letterSpacing && part.shaped.glyphs.count > 1, let last = items.last, !last.isBox {
          // Letter spacing: glue before the box (never a break: it follows a glue or a
          // penalty, not a box), so the box stretches a little with the line's word spaces.
          items.append(
            .glue(
              width: 0, stretch: w * ChapterFlow.letterStretch,
              shrink: w * ChapterFlow.letterShrink))
          sources.append(.letter(pieces.count))
        }
        pieces.append(
          Piece(
            start: pieceStart + part.start, end: pieceStart + part.end, style: si, face: pieceFace,
            size: size, shaped: part.shaped, width: w))
        items.append(.box(width: w))
        sources.append(.piece(pieces.count - 1))
      }
      pieceStart = -1
    }
    func finishing(_ at: Int) {
      items.append(.glue(width: 0, stretch: .infinity, shrink: 0))
      sources.append(.plain(at))
      items.append(BreakItem.forcedLineBreak)
      sources.append(.plain(at))
    }
    var choiceStyle = -1
    var spaceStyle = -1
    var spaceWidth = 0.0
    var choice: FaceChoice? = nil
    var i = 0
    while i < n {
      let v = text[i]
      let si = sty[i]
      if v == 0x2028 {
        flush(i)
        finishing(i)
        i += 1
        continue
      }
      if v == 0x20 && !preserve {
        flush(i)
        if si != spaceStyle {  // styles[si] copies the whole style: once per style run
          spaceStyle = si
          spaceWidth = styles[si].spaceWidth
        }
        if case .glue = items.last {
        } else {
          // Kinsoku across a space ("我 ？"): the space may not be a line end either.
          let before = i > 0 ? text[i - 1] : 0x20
          let after = i + 1 < n ? text[i + 1] : 0x20
          if before >= 0x2000 || after >= 0x2000, let x = Unicode.Scalar(before),
            let y = Unicode.Scalar(after), Kinsoku.isCJK(x) || Kinsoku.isCJK(y),
            Kinsoku.forbidBreak(before: x, after: y)
          {
            items.append(BreakItem.prohibitedBreak)
            sources.append(.plain(i))
          }
          let sw = spaceWidth
          items.append(.glue(width: sw, stretch: noWrap ? 0 : sw / 2, shrink: noWrap ? 0 : sw / 3))
          sources.append(.space(i, style: si))
        }
        i += 1
        continue
      }
      if v == 0xAD {
        flush(i)
        if !noWrap {
          items.append(BreakItem.hyphen(width: styles[si].hyphenWidth))
          sources.append(.soft(i, style: si))
        }
        i += 1
        continue
      }
      if v == 0xFFFC, let img = inlineImages[i] {
        flush(i)
        let rs = styles[si]
        var size = intrinsicSize(img.image) ?? (rs.size, rs.size)
        let scale = min(1, width / size.width, pageHeight / size.height)
        size = (size.width * scale, size.height * scale)
        let place = ImagePlacement(
          href: img.image.href, rect: Rect(x: 0, y: 0, width: size.width, height: size.height))
        pieces.append(
          Piece(
            start: i, end: i + 1, style: si, face: rs.choice.face, size: rs.size,
            shaped: ShapedText(glyphs: [], advance: 0), width: size.width, image: place,
            imageAbove: size.height))
        items.append(.box(width: size.width))
        sources.append(.piece(pieces.count - 1))
      } else {
        // Choose the face for this character (combining marks stay with their base).
        let script = Scripts.script(v)
        let isMark = script == HB_SCRIPT_INHERITED
        var face = pieceFace
        if !(isMark && pieceStart >= 0) {
          if si != choiceStyle {  // styles[si] copies the whole style: once per style run
            choiceStyle = si
            choice = styles[si].choice
          }
          if let f = fonts.face(for: v, choice: choice!, script: script) {
            face = f
          } else {
            if v >= 0x20, v != 0xFEFF, !(0x200B...0x200F).contains(v) { missing.insert(v) }
            face = choice!.face
          }
        }
        let realScript =
          script == HB_SCRIPT_COMMON || script == HB_SCRIPT_INHERITED ? pieceScript : script
        if pieceStart >= 0,
          face != pieceFace || si != sty[pieceStart] || small[i] != small[pieceStart]
            || (!levels.isEmpty && levels[i] != levels[pieceStart])
            || (realScript != pieceScript && pieceScript != HB_SCRIPT_COMMON
              && realScript != HB_SCRIPT_COMMON)
        {
          flush(i)
        }
        if pieceStart < 0 {
          pieceStart = i
          pieceFace = face
          pieceScript = HB_SCRIPT_COMMON
        }
        if realScript != HB_SCRIPT_COMMON && realScript != HB_SCRIPT_INHERITED {
          pieceScript = realScript
          runScript = realScript
        }
      }
      // A break opportunity after this character.
      let b = Int32(brks[i])
      if i + 1 < n, !noWrap, v != 0x20, v != 0xFFFC, text[i + 1] > 0x20, text[i + 1] != 0xAD,
        text[i + 1] != 0x2028, text[i + 1] != 0xFFFC, v >= 0x2000 || text[i + 1] >= 0x2000,
        let x = Unicode.Scalar(v), let y = Unicode.Scalar(text[i + 1]),
        let adjust = Kinsoku.boundaryItems(
          x, y, em: styles[si].size,
          breakAllowed: b == LINEBREAK_ALLOWBREAK && !cjkForbids(v, text[i + 1]),
          compress: compressPunctuation)
      {
        // CJK spacing: punctuation compression and hanging, ¼ em next to Latin (Kinsoku).
        flush(i + 1)
        items += adjust
        for _ in adjust { sources.append(.plain(i + 1)) }
      } else if i + 1 < n,
        b == LINEBREAK_ALLOWBREAK && !cjkForbids(v, text[i + 1]) || (noWrap && preserve),
        text[i + 1] != 0x20,
        text[i + 1] != 0xAD,
        text[i + 1] != 0x2028, v != 0x20
      {
        flush(i + 1)
        if noWrap {
          if preserve {
            items.append(.penalty(width: 0, cost: 0, flagged: false))
            sources.append(.plain(i + 1))
          }
        } else if Scripts.isWide(v) || Scripts.isWide(text[i + 1]) {
          items.append(.glue(width: 0, stretch: styles[si].size * 0.1, shrink: 0))
          sources.append(.plain(i + 1))
        } else {
          items.append(.penalty(width: 0, cost: 50, flagged: false))
          sources.append(.plain(i + 1))
        }
      } else if preserve && v == 0x20 {
        // Preserved spaces are boxes: flush them one by one so lines can end after them.
        flush(i + 1)
      }
      i += 1
    }
    flush(n)
    finishing(n)

    // 4. Lines.
    let indent = px(st.textIndent, of: width)
    let firstWidth = max(1, width - max(0, indent))
    let chosen: any ParagraphBreaker = noWrap ? GreedyBreaker(hyphenate: false) : breaker
    let breaks = chosen.breakLines(items) { k in k == 0 ? firstWidth : width }

    // 5. Place.
    var align = st.textAlign
    if align == .justify && options.align == .start { align = .start }
    if align == .start && options.align == .justify && !noWrap, case .paragraph = block.kind {
      align = .justify
    }
    var start = 0
    var lineIndex = 0
    let lineCount = breaks.count
    // Placing reads these only. The building closure above captured them, which boxes them:
    // plain `let` copies (one retain each) let the optimiser read elements in place instead
    // of through exclusivity-checked box accesses and whole-element getter copies.
    let linePieces = pieces
    let lineItems = items
    let lineSources = sources
    // A piece's trivially copyable fields, read many times per line: an element of `pieces`
    // is copied whole (with retains) by each subscript read.
    let pieceSpans = pieces.map {
      (start: $0.start, end: $0.end, style: $0.style, imageAbove: $0.imageAbove)
    }
    var metricStyle = -1
    var metricAbove = 0.0
    var metricBelow = 0.0
    for lb in breaks {
      defer {
        start = lb.index + 1
        lineIndex += 1
      }
      var s = start
      while s <= lb.index {
        if case .box = lineItems[s] { break }
        s += 1
      }
      if s > lb.index { continue }  // a line of nothing (e.g. two <br>)… keep no box
      let lineWidth = lineIndex == 0 ? firstWidth : width
      let lineLeft = left + (lineIndex == 0 ? max(0, indent) : 0)
      let justify = align == .justify && lineIndex < lineCount - 1
      let ratio = justify ? min(max(lb.ratio, -1), 4) : 0
      var natural = 0.0
      var order: [Int] = []
      // The breaker measures the first line from item 0; later lines from their first box.
      for k in (lineIndex == 0 ? start : s)...lb.index {
        if k < s, case .penalty = lineItems[k] { continue }
        switch lineItems[k] {
        case .box(let w):
          natural += w
          order.append(k)
        case .glue(let w, let st, let sh):
          if k < lb.index {
            natural += adjusted(w, st, sh, ratio)
            order.append(k)
          }
        case .penalty(let w, _, let flagged):
          if k == lb.index && (flagged || w != 0) {
            natural += w
            order.append(k)
          }
        }
      }
      var shown = LineText(capacity: 4 * (lb.index - s + 1))
      var spaceFactor: Double? = nil
      for k in order {
        if spaceFactor == nil, case .space = lineSources[k],
          case .glue(let w, let st, let sh) = lineItems[k],
          w > 0
        {
          spaceFactor = adjusted(w, st, sh, ratio) / w
        }
        switch lineSources[k] {
        case .piece(let p): shown.append(text, pieceSpans[p].start..<pieceSpans[p].end)
        case .space: if case .glue = lineItems[k] { shown.appendSpace() }
        default: break
        }
      }
      if !levels.isEmpty {
        // Visual order: the bidi runs of the line, items inside a run in its direction.
        func position(_ k: Int) -> Int {
          switch lineSources[k] {
          case .piece(let p): return pieceSpans[p].start
          case .space(let t, _), .soft(let t, _), .plain(let t): return t
          case .letter(let p): return pieceSpans[p].start
          case .end: return n
          }
        }
        let positions = order.map(position)
        let lo = positions.min() ?? 0
        let hi = min(n, (positions.max() ?? 0) + 1)
        let runs = bidi.visualRuns(lineRange: lo..<max(lo, hi))
        var keyed: [(run: Int, key: Int, item: Int)] = []
        keyed.reserveCapacity(order.count)
        for (k, pos) in zip(order, positions) {
          let r = runs.firstIndex { $0.range.contains(pos) } ?? runs.count
          let rtlRun = r < runs.count && runs[r].rtl
          keyed.append((r, rtlRun ? -pos : pos, k))
        }
        keyed.sort { ($0.run, $0.key) < ($1.run, $1.key) }
        order = keyed.map(\.item)
      } else if rtl {
        order.reverse()
      }
      let free = lineWidth - natural
      var x: Double
      switch align {
      case .start, .justify: x = rtl ? lineLeft + free : lineLeft
      case .left: x = lineLeft
      case .end: x = rtl ? lineLeft : lineLeft + free
      case .right: x = lineLeft + free
      case .center: x = lineLeft + free / 2
      }
      if free < 0 && !rtl { x = lineLeft }
      // Vertical metrics: the block's strut plus every piece's style.
      var above = styles[blockStyle].above
      var below = styles[blockStyle].below
      for k in order {
        if case .piece(let p) = lineSources[k] {
          let ps = pieceSpans[p].style
          if ps != metricStyle {  // styles[i] copies the whole style: once per style run
            metricStyle = ps
            metricAbove = styles[ps].above
            metricBelow = styles[ps].below
          }
          above = max(above, metricAbove, pieceSpans[p].imageAbove)
          below = max(below, metricBelow)
        }
      }
      // A line never exceeds the page (an image is already scaled to fit; a huge strut is cut).
      if above + below > pageHeight { below = max(0, pageHeight - above) }
      if above > pageHeight { above = pageHeight }
      let height = above + below
      let baseline = above
      var runs: [GlyphRun] = []
      var fills: [DisplayItem] = []
      var images: [ImagePlacement] = []
      var firstSrc = Int.max
      var lastSrc = -1
      let startX = x
      var rsIndex = blockStyle
      var rs = styles[blockStyle]
      // Letter-spacing glue's width, by piece, spread over that piece's glyphs below.
      // A line's pieces are a contiguous run of piece indices, so a flat array over that
      // span replaces a per-line dictionary (its hashing and growth were a few % of layout).
      var letterLow = Int.max
      var letterHigh = Int.min
      for k in order {
        if case .letter(let p) = lineSources[k] {
          letterLow = min(letterLow, p)
          letterHigh = max(letterHigh, p)
        }
      }
      var letterExtras: [Double] =
        letterLow <= letterHigh ? Array(repeating: 0, count: letterHigh - letterLow + 1) : []
      for k in order {
        if case .letter(let p) = lineSources[k], case .glue(let w, let st, let sh) = lineItems[k] {
          letterExtras[p - letterLow] = adjusted(w, st, sh, ratio)
        }
      }
      for k in order {
        switch (lineItems[k], lineSources[k]) {
        case (.box, .piece(let p)):
          let piece = linePieces[p]
          // `styles[i]` copies (and retains) the whole computed style: once per style run.
          if piece.style != rsIndex {
            rsIndex = piece.style
            rs = styles[piece.style]
          }
          let extra = p >= letterLow && p <= letterHigh ? letterExtras[p - letterLow] : 0
          if var img = piece.image {
            img.rect.x = x
            img.rect.y = baseline - img.rect.height
            images.append(img)
          } else {
            let face = fonts.faces[piece.face]
            let scale = piece.size / face.upem
            let choice =
              piece.face == rs.choice.face
              ? rs.choice
              : FaceChoice(
                face: piece.face, syntheticBold: rs.style.fontWeight >= 600 && face.weight < 600,
                syntheticItalic: rs.style.italic && !face.italic)
            let joins =
              runs.last.map {
                $0.font == piece.face && $0.size == piece.size && $0.color == rs.style.color
                  && $0.syntheticBold == choice.syntheticBold
                  && $0.syntheticItalic == choice.syntheticItalic
              } ?? false
            if !joins {
              runs.append(
                GlyphRun(
                  font: piece.face, size: piece.size, color: rs.style.color, glyphs: [], x: [],
                  y: [],
                  syntheticBold: choice.syntheticBold, syntheticItalic: choice.syntheticItalic))
            }
            // The run is moved out while its glyphs are appended (and back after), so each
            // append touches one uniquely held array instead of going through `runs[r]`.
            var run = runs.removeLast()
            var pen = x
            let gy = Float(baseline - rs.shift)
            // Letter spacing: equal gaps before each advancing glyph (marks stay on their
            // base), half a gap at either end.
            var gap = 0.0
            if extra != 0 {
              let advancing = piece.shaped.glyphs.reduce(0) { $0 + ($1.advance != 0 ? 1 : 0) }
              gap = extra / Double(max(1, advancing))
              pen += gap / 2
            }
            var firstAdvancing = true
            for g in piece.shaped.glyphs {
              if g.advance != 0 {
                if !firstAdvancing { pen += gap }
                firstAdvancing = false
              }
              run.glyphs.append(g.glyph)
              run.x.append(Float(pen + Double(g.dx) * scale))
              run.y.append(g.dy == 0 ? gy : Float(baseline - rs.shift - Double(g.dy) * scale))
              pen += Double(g.advance) * scale
            }
            runs.append(run)
            let thick = max(1, piece.size / 16)
            if rs.style.underline {
              fills.append(
                .fill(
                  Rect(
                    x: x, y: baseline - rs.shift + piece.size * 0.12, width: piece.width + extra,
                    height: thick), rs.style.color))
            }
            if rs.style.lineThrough {
              fills.append(
                .fill(
                  Rect(
                    x: x, y: baseline - rs.shift - piece.size * 0.3, width: piece.width + extra,
                    height: thick), rs.style.color))
            }
          }
          firstSrc = min(firstSrc, src[piece.start])
          lastSrc = max(lastSrc, src[piece.end - 1])
          x += piece.width + extra
        case (.glue, .letter): break  // spread over its piece's glyphs
        case (.glue(let w, let st, let sh), let source):
          x += adjusted(w, st, sh, ratio)
          _ = source
        case (.penalty(let w, _, _), .soft(_, let si)):
          // The inserted hyphen: drawn, not part of the line's text.
          let rs = styles[si]
          let face = fonts.faces[rs.choice.face]
          let hy = shaper.shape(
            ShapeKey(
              text: [0x2D], face: rs.choice.face, smallCaps: false, rtl: false,
              script: HB_SCRIPT_LATIN.rawValue, language: ""))
          if let g = hy.glyphs.first {
            runs.append(
              GlyphRun(
                font: rs.choice.face, size: rs.size, color: rs.style.color, glyphs: [g.glyph],
                x: [Float(x)],
                y: [Float(baseline - rs.shift)], syntheticBold: rs.choice.syntheticBold,
                syntheticItalic: rs.choice.syntheticItalic))
          }
          _ = face
          x += w
        default: break
        }
      }
      var entry = FlowEntry(
        spaceBefore: 0, height: height,
        start: Location(spine: spine, offset: firstSrc == Int.max ? lastLoc : firstSrc),
        end: Location(spine: spine, offset: lastSrc + 1))
      if lineIndex == 0, let marker = pendingMarker {
        pendingMarker = nil
        entry.items += markerItems(
          marker, style: blockStyle, right: left - styles[blockStyle].size * 0.4, baseline: baseline
        )
      }
      entry.items += runs.map { .glyphs($0) } + fills + images.map { .image($0) }
      entry.images = images
      let lineText = shown.string
      entry.lines = [
        LineBox(
          text: lineText,
          rect: Rect(x: min(startX, x), y: 0, width: abs(x - startX), height: height),
          block: blockNumber,
          hyphenated: lb.hyphenated, ratio: ratio, start: entry.start, end: entry.end)
      ]
      entry.lines[0].spaceFactor = spaceFactor
      // Orphans and widows: the first orphans−1 and last widows−1 gaps avoid a break.
      entry.block = blockNumber
      entry.avoidBreakBefore =
        lineIndex > 0 && (lineIndex < st.orphans || lineCount - lineIndex < st.widows)
      append(entry)
    }
  }

  func noWrapStyle(_ st: ComputedStyle) -> Bool {
    st.whiteSpace == .pre || st.whiteSpace == .nowrap
  }

  /// Kinsoku (JLREQ/clreq) on top of UAX #14, between CJK characters and their punctuation.
  @inline(__always) func cjkForbids(_ a: UInt32, _ b: UInt32) -> Bool {
    guard a >= 0x2000 || b >= 0x2000, let x = Unicode.Scalar(a), let y = Unicode.Scalar(b) else {
      return false
    }
    return Kinsoku.forbidBreak(before: x, after: y)
  }

  mutating func hyphenatorFor(_ lang: String) -> Hyphenator? {
    if let h = hyphenators[lang] { return h }
    let h = Hyphenator.forLanguage(lang)
    hyphenators[lang] = .some(h)
    return h
  }

  /// Hyphenation points of a word (scalar indices), cached for the chapter.
  /// Shorter pieces (words with their punctuation) are not worth a dictionary lookup: they
  /// rarely help a line, and lookups are a third of layout time when done for every word.
  static let minHyphenatedLength = 7

  /// Letter spacing as a share of a word's width, per unit of the line's adjustment ratio
  /// (InDesign's letter spacing / pdfTeX's font expansion, ±1–2 %): words stretch a little
  /// with their line so word spaces stretch less.
  static let letterStretch = 0.02
  static let letterShrink = 0.0

  mutating func hyphenationPoints(_ word: [UInt32], _ h: Hyphenator) -> [Int] {
    if let hit = hyphenPoints[word] { return hit }
    let key = HyphenKey(word: word, dictionary: ObjectIdentifier(h))
    if let hit = sharedHyphens.get(key) {
      hyphenPoints[word] = hit
      return hit
    }
    let points = h.hyphenationPoints(scalarValues: word)
    hyphenPoints[word] = points
    sharedHyphens.put(key, points)
    return points
  }

  /// A list marker hanging in the margin, its right edge at `right`.
  mutating func markerItems(_ marker: String, style si: Int, right: Double, baseline: Double)
    -> [DisplayItem]
  {
    let rs = styles[si]
    let scalars = marker.unicodeScalars.prefix(64).map(\.value)
    guard let first = scalars.first else { return [] }
    let fi =
      fonts.face(for: first, choice: rs.choice, script: Scripts.script(first)) ?? rs.choice.face
    let face = fonts.faces[fi]
    let shaped = shaper.shape(
      ShapeKey(
        text: scalars, face: fi, smallCaps: false, rtl: false,
        script: Scripts.script(first).rawValue, language: ""))
    let scale = rs.size / face.upem
    var pen = right - shaped.advance * scale
    var xs: [Float] = []
    var ys: [Float] = []
    for g in shaped.glyphs {
      xs.append(Float(pen + Double(g.dx) * scale))
      ys.append(Float(baseline - Double(g.dy) * scale))
      pen += Double(g.advance) * scale
    }
    return [
      .glyphs(
        GlyphRun(
          font: fi, size: rs.size, color: rs.style.color, glyphs: shaped.glyphs.map(\.glyph), x: xs,
          y: ys, syntheticBold: rs.choice.syntheticBold, syntheticItalic: rs.choice.syntheticItalic)
      )
    ]
  }
}
