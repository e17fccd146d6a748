// Stage 3 of inline layout, **shape**: itemized text → shaped pieces and the boxes, glue and
// penalties the breaker reads (`BreakItem`), each item with its `ItemSource` (what in the
// text it stands for), so compose can turn a chosen break back into glyphs.
//
// A *piece* is a maximal stretch of non-space text between two break opportunities that
// shares one style, face, script and bidi level; it is shaped as a unit through the worker's
// `Shaper` (word cache, then HarfBuzz), so kerning and ligatures work inside words and Arabic
// joins. Liang hyphenation points split an eligible word into boxes joined by flagged
// penalties; the split, shaped word is cached whole, so a repeated word costs one lookup.
// Spaces become glue (TeX: stretch 1/2, shrink 1/3 of the space), break opportunities
// without a space penalties (or small glue between CJK characters, for inter-character
// justification), soft hyphens flagged penalties, `<br>` and the end the finishing glue
// plus a forced break. CJK spacing comes from `Kinsoku.boundaryItems`.
//
// Letter spacing: each Latin/Cyrillic/Greek word (after the paragraph's first) is preceded
// by a zero-width glue whose stretch is 2 % of the word's width, never a break (it follows
// a glue or a penalty); compose spreads its width between the word's glyphs.

import CHarfBuzz
import CUnibreak
import QuireIngest

struct Piece {
  var start: Int
  var end: Int
  var style: Int
  var face: Int
  var size: Double
  var shaped: ShapedText
  var width: Double
  /// How the piece stands in a vertical line (`.none`: horizontal or sideways).
  var form = VerticalForm.none
  /// An image, formula or inline block, behind one reference: a piece of text (all but a
  /// handful of a book's pieces) then stays 80 bytes with one array to retain, where the
  /// three optionals inline made every piece ~5× larger and every copy of one (appending,
  /// composing) retain five references.
  private var object: PieceObject?
  /// The first piece of a ruby base whose annotation overhangs one side more than the
  /// other (Inline/RubySpacing.swift): how far the annotation moves from centred along the
  /// line, px (positive: towards the line's end).
  var rubyShift: Float = 0

  init(
    start: Int, end: Int, style: Int, face: Int, size: Double, shaped: ShapedText,
    width: Double, image: ImagePlacement? = nil, imageAbove: Double = 0, imageBelow: Double = 0,
    math: LaidOutMath? = nil, inlineBox: LaidOutInlineBox? = nil, form: VerticalForm = .none
  ) {
    self.init(
      text: start, end: end, style: style, face: face, size: size, shaped: shaped, width: width,
      form: form)
    if image != nil || math != nil || inlineBox != nil || imageAbove != 0 || imageBelow != 0 {
      object = PieceObject(
        image: image, imageAbove: imageAbove, imageBelow: imageBelow, math: math,
        inlineBox: inlineBox)
    }
  }

  /// A piece of text: no image, formula or inline block. `flush` makes one per word part;
  /// the general init's optional arguments cost a temporary built and destroyed each, and
  /// the piece a copy into the array (77 M instructions on moby-dick, paginate-cost.md).
  @inline(__always)
  init(
    text start: Int, end: Int, style: Int, face: Int, size: Double, shaped: ShapedText,
    width: Double, form: VerticalForm
  ) {
    self.start = start
    self.end = end
    self.style = style
    self.face = face
    self.size = size
    self.shaped = shaped
    self.width = width
    self.form = form
  }

  /// Text: no image, formula or inline block (read without building those optionals).
  var isText: Bool {
    guard let object else { return true }
    return object.image == nil && object.math == nil && object.inlineBox == nil
  }

  var image: ImagePlacement? {
    get { object?.image }
    set { withObject { $0.image = newValue } }
  }
  /// How far an inline image (formula, inline block) reaches above the baseline.
  var imageAbove: Double {
    get { object?.imageAbove ?? 0 }
    set { withObject { $0.imageAbove = newValue } }
  }
  /// How far an inline image reaches below the baseline (`vertical-align`).
  var imageBelow: Double {
    get { object?.imageBelow ?? 0 }
    set { withObject { $0.imageBelow = newValue } }
  }
  /// An inline formula: one box, its ink painted by compose (Math/MathPlacement.swift).
  var math: LaidOutMath? {
    get { object?.math }
    set { withObject { $0.math = newValue } }
  }
  /// An inline block: one box, its content placed by compose (Inline/InlineBoxLayout.swift).
  var inlineBox: LaidOutInlineBox? {
    get { object?.inlineBox }
    set { withObject { $0.inlineBox = newValue } }
  }

  /// Copy on write: the object is shared between copies of the piece until one changes.
  private mutating func withObject(_ change: (PieceObject) -> Void) {
    if let o = object {
      if !isKnownUniquelyReferenced(&object) { object = o.copy() }
    } else {
      object = PieceObject()
    }
    change(object!)
  }
}

/// What an atomic piece (image, formula, inline block) carries beyond a piece of text.
final class PieceObject {
  var image: ImagePlacement?
  var imageAbove: Double
  var imageBelow: Double
  var math: LaidOutMath?
  var inlineBox: LaidOutInlineBox?

  init(
    image: ImagePlacement? = nil, imageAbove: Double = 0, imageBelow: Double = 0,
    math: LaidOutMath? = nil, inlineBox: LaidOutInlineBox? = nil
  ) {
    self.image = image
    self.imageAbove = imageAbove
    self.imageBelow = imageBelow
    self.math = math
    self.inlineBox = inlineBox
  }

  func copy() -> PieceObject {
    PieceObject(
      image: image, imageAbove: imageAbove, imageBelow: imageBelow, math: math,
      inlineBox: inlineBox)
  }
}

enum ItemSource {
  case piece(Int)
  case space(Int, style: Int)
  case soft(Int, style: Int)
  case plain(Int)
  /// Letter-spacing glue of piece `p` (placed just before its box): its adjusted width is
  /// spread between the piece's glyphs.
  case letter(Int)
  /// A decorated inline box's start or end side (`ShapedParagraph.edges`,
  /// InlineBoxEdges.swift).
  case edge(Int)
  /// The sides of `clone` boxes at a word space inside them, at scalar `i`
  /// (`PieceShaper.cloneBreak`).
  case cloneSide(Int)
  case end
}

/// The shape stage's result: pieces, and the break items with what each stands for.
struct ShapedParagraph {
  var pieces: [Piece] = []
  var items: [BreakItem] = []
  /// `sources[k]` is what `items[k]` stands for.
  var sources: [ItemSource] = []
  /// Words (or runs of pieces) wider than the measure that got emergency break points.
  var emergencyBreaks = 0
  /// The sides of decorated inline boxes (`ItemSource.edge`).
  var edges: [InlineEdge] = []
}

/// Paragraph-wide settings of the shape stage.
struct ShapeSettings: Equatable {
  /// The language tag (hyphenation dictionary) and its HarfBuzz form.
  var language: String
  var shapeLanguage: ShapeLanguage
  /// Hyphenation wanted (option, style, a known language, wrapping text).
  var hyphenate: Bool
  /// Hyphenation wanted but for the language: text in a `lang` span of its own is
  /// hyphenated with that language's patterns when this holds.
  var hyphenateSpans = false
  /// `white-space` keeps spaces (they are boxes, one by one).
  var preserve: Bool
  /// `white-space` forbids wrapping (no stretch, no breaks but forced ones).
  var noWrap: Bool
  /// Fullwidth punctuation may be compressed (not Traditional Chinese).
  var compressPunctuation: Bool
  /// The narrowest line of the paragraph, px: wider material gets emergency breaks.
  var measure: Double = .infinity
  /// The breaker takes flagged penalties (hyphen points, soft hyphens) as breaks; when it
  /// does not (`--hyphenate off`), they cannot save a wide run from emergency breaks.
  var flaggedBreaks = true
  /// The chapter is vertical: pieces split where characters change orientation
  /// (Vertical/VerticalShaping.swift).
  var vertical = false
}

/// Walks itemized text once, shaping pieces and appending break items.
struct PieceShaper {
  let text: [UInt32]
  let sty: [Int]
  let small: [Bool]
  let faces: [Int32]
  let scripts: [hb_script_t]
  let levels: [UInt8]
  let breaks: [CChar]
  let styles: [ResolvedStyle]
  let fonts: FontSet
  let settings: ShapeSettings
  /// Inline images by scalar index, already sized.
  let images: [Int: ImagePlacement]
  /// Inline formulas by scalar index, laid out.
  var maths: [Int: LaidOutMath] = [:]
  /// Inline blocks by scalar index, laid out.
  var inlineBoxes: [Int: LaidOutInlineBox] = [:]
  /// Feature lists of styles the process-wide table had no room for, by style index
  /// (`ChapterFlow.unsharedFeatures`).
  var unsharedFeatures: [Int: [UInt64]] = [:]
  /// The worker's caches, moved in for the stage and taken back after.
  var shaper: Shaper
  var hyphenation: WordHyphenation

  var out = ShapedParagraph()
  /// A walk recorded or resumed (ShapeResume.swift), watched from scalar `watchFrom` on.
  var resume: ShapeResume? = nil
  var watchFrom = Int.max
  private(set) var pieceStart = -1
  private var pieceFace = -1
  private var pieceScript = HB_SCRIPT_COMMON
  private var pieceForm = VerticalForm.none
  private(set) var runScript = HB_SCRIPT_LATIN
  private var hyphenator: Hyphenator? = nil
  private var hyphenatorResolved = false
  private var spaceStyle = -1
  /// The word-space glue of style `spaceStyle`.
  private var spaceGlue = BreakItem.glue(width: 0, stretch: 0, shrink: 0)
  private var wordBreakStyle = -1
  private var wordBreak = WordBreak.normal
  /// `wordBreak` is `.normal`, as a flag: the enum's `==` is not specialized across the module
  /// boundary (a protocol-witness call per character, 22 M instructions on moby-dick).
  private var wordBreakNormal = true
  /// `line-break: strict` of style `strictStyle` (read once per style run).
  private var strictStyle = -1
  private var strict = false
  private var loose = false
  /// Style `strictStyle` is a ruby base: no break between two of its characters (a group
  /// ruby's base is never split across lines; JLREQ §3.3.6, CSS Ruby 1 §3.4).
  private var rubyBase = false
  /// Scalars in URLs, e-mail addresses and paths (never hyphenated).
  private var addresses: AddressSpans
  /// The text's language changes (`CollectedText.languages`) and the first run's language.
  private let languages: [(start: Int, lang: String?)]
  private let firstLanguage: String?
  /// The language change in force at the last piece (pieces come in text order).
  private var languageCursor = -1
  /// The decorated inline boxes open at the pen (InlineBoxEdges.swift).
  var openBoxes = OpenInlineBoxes()
  /// `plainRun` may look for plain characters: nothing preserved, horizontal, and every
  /// per-scalar array as long as the text (its raw reads rely on that).
  private let plainRuns: Bool

  init(
    _ text: CollectedText, _ itemized: ItemizedText, styles: [ResolvedStyle], fonts: FontSet,
    settings: ShapeSettings, images: [Int: ImagePlacement], shaper: Shaper,
    hyphenation: WordHyphenation
  ) {
    self.text = text.scalars
    sty = text.styles
    small = text.smallCaps
    faces = itemized.faces
    scripts = itemized.scripts
    levels = itemized.levels
    breaks = itemized.breaks
    self.styles = styles
    self.fonts = fonts
    self.settings = settings
    self.images = images
    self.shaper = shaper
    self.hyphenation = hyphenation
    addresses = AddressSpans(
      text.scalars, enabled: settings.hyphenate || settings.hyphenateSpans)
    languages = text.languages
    firstLanguage = text.firstLanguage
    let n = text.count
    plainRuns =
      !settings.preserve && !settings.vertical && sty.count == n && small.count == n
      && faces.count == n && scripts.count == n && breaks.count == n
      && (levels.isEmpty || levels.count == n)
    // Prose has about one word in six scalars (its space included) and per word a box, its
    // space's glue, a letter-spacing glue and now and then a hyphen penalty and a second
    // part: ~0.6 items and ~0.2 pieces a scalar. Reserving less grew all three arrays by
    // doubling in most paragraphs (a copy each, ~60 M instructions on moby-dick; session 15).
    out.items.reserveCapacity(text.count * 3 / 4 + 8)
    out.sources.reserveCapacity(text.count * 3 / 4 + 8)
    out.pieces.reserveCapacity(text.count / 4 + 8)
  }

  /// Runs the stage over the whole text.
  mutating func shape() -> ShapedParagraph {
    walk()
    return finish()
  }

  /// The stage's result after `walk`: emergency breaks in runs wider than the measure.
  mutating func finish() -> ShapedParagraph {
    // Text that must not wrap gets no emergency breaks either: compose clips its lines.
    if !settings.noWrap {
      out.emergencyBreaks += EmergencyBreaks.splitWideRuns(
        &out, measure: settings.measure, flaggedBreaks: settings.flaggedBreaks)
    }
    return out
  }

  /// The walk over the text: the stage but for the emergency breaks of wide runs.
  mutating func walk() {
    let n = text.count
    let preserve = settings.preserve
    var i = 0
    while i < n {
      if pieceStart >= 0 {
        i = plainRun(from: i)
      } else if i >= watchFrom, watch(i) {
        return
      }
      let v = text[i]
      // A `<br>` carries no element's style: a box goes on across it.
      if sty[i] != openBoxes.style, v != 0x2028 {
        if !openBoxes.open.isEmpty || !styles[sty[i]].inlineBoxes.isEmpty {
          boxEdges(at: i)
        } else {
          openBoxes.style = sty[i]
        }
      }
      if v == 0x2028 {
        flush(i)
        forcedBreak(i)
      } else if v == 0x20 && !preserve {
        flush(i)
        space(i)
      } else if v == 0xAD {
        flush(i)
        if !settings.noWrap {
          out.items.append(BreakItem.hyphen(width: styles[sty[i]].hyphenWidth))
          out.sources.append(.soft(i, style: sty[i]))
        }
      } else {
        if v == 0xFFFC, let place = images[i] {
          flush(i)
          image(place, at: i)
        } else if v == 0xFFFC, let m = maths[i] {
          flush(i)
          math(m, at: i)
        } else if v == 0xFFFC, let b = inlineBoxes[i] {
          flush(i)
          inlineBox(b, at: i)
        } else {
          extend(i)
        }
        // Before a collapsible space, a soft hyphen or a `<br>`, and at the end, `breakAfter`
        // adds nothing (those come with their own items), nor inside a word of ASCII text:
        // the first and last characters of most words skip the call (~15 M instructions on
        // moby-dick; session 17).
        if preserve
          || (i + 1 < n && !PieceShaper.takesItsOwnBreak(text[i + 1]) && !insideASCIIWord(i))
        {
          breakAfter(i)
        }
      }
      i += 1
    }
    flush(n)
    if !openBoxes.open.isEmpty { boxEdges(at: n) }
    finishing(n)
  }

  /// The first character at or after `i` that is not *plain*: an ASCII letter or sign of
  /// the open piece's style, face, small caps, level and script (or Common/Inherited), with
  /// an ASCII letter or sign after it and no break between them under `word-break: normal`.
  /// For a plain character `extend` adds it to the piece and `breakAfter` returns at its
  /// first test, so `shape` skips both: most characters inside Latin words are plain, and the
  /// two calls cost ~170 instructions a character (Benchmarks/paginate-cost.md, session 15).
  /// Never more than `text.count - 1`.
  @inline(__always) private func plainRun(from i: Int) -> Int {
    let si = sty[pieceStart]
    guard plainRuns, wordBreakNormal, si == wordBreakStyle, si == openBoxes.style else {
      return i
    }
    // The piece's own values (its face came from `faces`, an Int32).
    let key = PlainKey(
      style: si, face: Int32(truncatingIfNeeded: pieceFace), fake: small[pieceStart],
      level: levels.isEmpty ? 0 : levels[pieceStart], script: pieceScript)
    return text.withUnsafeBufferPointer { text in
      breaks.withUnsafeBufferPointer { breaks in
        sty.withUnsafeBufferPointer { sty in
          faces.withUnsafeBufferPointer { faces in
            small.withUnsafeBufferPointer { small in
              scripts.withUnsafeBufferPointer { scripts in
                levels.withUnsafeBufferPointer { levels in
                  PieceShaper.plainEnd(
                    from: i, key,
                    PlainColumns(
                      text: text, breaks: breaks, sty: sty, faces: faces, small: small,
                      scripts: scripts, levels: levels))
                }
              }
            }
          }
        }
      }
    }
  }

  /// What a plain character shares with the open piece.
  struct PlainKey {
    var style: Int
    var face: Int32
    var fake: Bool
    var level: UInt8
    var script: hb_script_t
  }

  /// The per-scalar arrays `plainEnd` reads, as raw buffers.
  struct PlainColumns {
    var text: UnsafeBufferPointer<UInt32>
    var breaks: UnsafeBufferPointer<CChar>
    var sty: UnsafeBufferPointer<Int>
    var faces: UnsafeBufferPointer<Int32>
    var small: UnsafeBufferPointer<Bool>
    var scripts: UnsafeBufferPointer<hb_script_t>
    /// Empty (all level 0) or as long as the text.
    var levels: UnsafeBufferPointer<UInt8>
  }

  /// `plainRun`'s loop: every column has `text.count` entries (`plainRuns` holds only
  /// then) and `j + 1` stays below that, so it reads them unchecked (checked, the reads were
  /// ~14 of its ~32 instructions a character, ~14 M on moby-dick; session 17).
  @inline(__always)
  static func plainEnd(from i: Int, _ key: PlainKey, _ c: PlainColumns) -> Int {
    let n = c.text.count
    let leveled = !c.levels.isEmpty
    var j = i
    while j + 1 < n {
      let v = c.text[j]
      let next = c.text[j + 1]
      guard v > 0x20, v < 0x80, next > 0x20, next < 0x80,
        Int32(c.breaks[j]) != LINEBREAK_ALLOWBREAK, c.sty[j] == key.style,
        c.faces[j] == key.face, c.small[j] == key.fake, !leveled || c.levels[j] == key.level
      else { break }
      let s = c.scripts[j]
      guard s == key.script || s == HB_SCRIPT_COMMON || s == HB_SCRIPT_INHERITED else { break }
      j += 1
    }
    return j
  }

  /// Adds text character `i` to the open piece, first closing the piece when the face,
  /// style, small caps, level or a strong script changes.
  @inline(__always) private mutating func extend(_ i: Int) {
    let script = scripts[i]
    let face = Int(faces[i])
    let realScript =
      script == HB_SCRIPT_COMMON || script == HB_SCRIPT_INHERITED ? pieceScript : script
    let form =
      settings.vertical ? VerticalShaping.form(at: i, text, styles[sty[i]].style) : .none
    if pieceStart >= 0,
      face != pieceFace || form != pieceForm || sty[i] != sty[pieceStart]
        || small[i] != small[pieceStart]
        || (!levels.isEmpty && levels[i] != levels[pieceStart])
        || (realScript != pieceScript && pieceScript != HB_SCRIPT_COMMON
          && realScript != HB_SCRIPT_COMMON)
    {
      flush(i)
    }
    if pieceStart < 0 {
      pieceStart = i
      pieceFace = face
      pieceForm = form
      pieceScript = HB_SCRIPT_COMMON
    }
    if realScript != HB_SCRIPT_COMMON && realScript != HB_SCRIPT_INHERITED {
      pieceScript = realScript
      runScript = realScript
    }
  }

  /// An inline image: one box as wide as the image.
  private mutating func image(_ place: ImagePlacement, at i: Int) {
    let si = sty[i]
    let rs = styles[si]
    let extent = ChapterFlow.imageExtent(
      height: place.rect.height, style: rs, face: fonts.faces[rs.choice.face])
    out.pieces.append(
      Piece(
        start: i, end: i + 1, style: si, face: rs.choice.face, size: rs.size,
        shaped: ShapedText(glyphs: [], advance: 0), width: place.rect.width, image: place,
        imageAbove: extent.0, imageBelow: extent.1))
    out.items.append(.box(width: place.rect.width))
    out.sources.append(.piece(out.pieces.count - 1))
  }

  /// An inline formula: one unbreakable box as wide as its math box, or one per fragment
  /// of a formula broken at its operators, with the fragment's break penalty between them
  /// (none where the text may not wrap).
  private mutating func math(_ m: LaidOutMath, at i: Int) {
    let si = sty[i]
    let rs = styles[si]
    let parts = m.fragments.isEmpty ? [(box: m.box, penalty: 0.0)] : m.fragments
    for (k, part) in parts.enumerated() {
      if k > 0 {
        let cost = settings.noWrap ? -BreakItem.forcedBreak : parts[k - 1].penalty
        out.items.append(.penalty(width: 0, cost: cost, flagged: false))
        out.sources.append(.plain(i))
      }
      var fragment = m
      fragment.box = part.box
      fragment.fragments = []
      out.pieces.append(
        Piece(
          start: i, end: i + 1, style: si, face: rs.choice.face, size: rs.size,
          shaped: ShapedText(glyphs: [], advance: 0), width: part.box.width, image: nil,
          imageAbove: part.box.ascent, imageBelow: part.box.descent, math: fragment))
      out.items.append(.box(width: part.box.width))
      out.sources.append(.piece(out.pieces.count - 1))
    }
  }

  /// An inline block: one unbreakable box as wide as its margin box, on its own baseline
  /// (raised by a `vertical-align` length) or placed by a `vertical-align` keyword as an
  /// image would be.
  private mutating func inlineBox(_ b: LaidOutInlineBox, at i: Int) {
    let si = sty[i]
    let rs = styles[si]
    let height = b.ascent + b.descent
    var extent = (b.ascent + rs.shift, b.descent - rs.shift)
    switch rs.style.text.verticalShift {
    case nil, .length?, .lineHeightPercent?: break
    default:
      extent = ChapterFlow.imageExtent(height: height, style: rs, face: fonts.faces[rs.choice.face])
    }
    out.pieces.append(
      Piece(
        start: i, end: i + 1, style: si, face: rs.choice.face, size: rs.size,
        shaped: ShapedText(glyphs: [], advance: 0), width: b.width, image: nil,
        imageAbove: max(0, extent.0), imageBelow: max(0, extent.1), inlineBox: b))
    out.items.append(.box(width: b.width))
    out.sources.append(.piece(out.pieces.count - 1))
  }

  /// A collapsible space: word-space glue (one for a run of spaces).
  private mutating func space(_ i: Int) {
    let si = sty[i]
    let n = text.count
    let noWrap = settings.noWrap
    if si != spaceStyle {  // styles[si] copies the whole style: once per style run
      spaceStyle = si
      let sw = styles[si].spaceWidth
      let extra = styles[si].wordSpacing + styles[si].letterSpacing
      // The glue is the style's (and the paragraph's `noWrap`): made once per style run, not
      // per space (~15 instructions a space, ~3 M on moby-dick; session 17).
      spaceGlue = BreakItem.glue(
        width: max(0, sw + extra), stretch: noWrap ? 0 : sw / 2, shrink: noWrap ? 0 : sw / 3)
    }
    if case .glue = out.items.last { return }
    // The space after a clone break (`cloneBreak` ends with a forbidding penalty).
    if case .penalty = out.items.last, out.sources.count >= 2,
      case .cloneSide = out.sources[out.sources.count - 2]
    {
      return
    }
    // Kinsoku across a space ("我 ？"): the space may not be a line end either.
    let before = i > 0 ? text[i - 1] : 0x20
    let after = i + 1 < n ? text[i + 1] : 0x20
    if before >= 0x2000 || after >= 0x2000, let x = Unicode.Scalar(before),
      let y = Unicode.Scalar(after), Kinsoku.isCJK(x) || Kinsoku.isCJK(y),
      Kinsoku.forbidBreak(before: x, after: y, strict: styles[si].strictLineBreak)  // rare
    {
      out.items.append(BreakItem.prohibitedBreak)
      out.sources.append(.plain(i))
    }
    if noWrap, out.items.last?.isBox ?? false {
      // A glue after a box is a legal break: a penalty first makes this space none.
      out.items.append(BreakItem.prohibitedBreak)
      out.sources.append(.plain(i))
    }
    let glue = spaceGlue
    if openBoxes.cloneLeft > 0 || openBoxes.cloneRight > 0, cloneBreak(i, glue: glue) { return }
    out.items.append(glue)
    out.sources.append(.space(i, style: si))
  }

  /// A space, soft hyphen or line break: the walk appends its items, and `breakAfter`
  /// appends none before it when spaces collapse (each of its branches excludes these).
  @inline(__always) static func takesItsOwnBreak(_ next: UInt32) -> Bool {
    next == 0x20 || next == 0xAD || next == 0x2028
  }

  /// Inside a word of ASCII text (most characters of a Latin book), between `i` and the
  /// character after it: no UAX #14 opportunity, and none of `breakAfter`'s rules can add one
  /// (CJK rules need scalars ≥ U+2000, word-break is `normal` for this style), so it appends
  /// nothing there when nothing is preserved.
  @inline(__always) private func insideASCIIWord(_ i: Int) -> Bool {
    let v = text[i]
    return Int32(breaks[i]) != LINEBREAK_ALLOWBREAK && v > 0x20 && v < 0x80 && i + 1 < text.count
      && text[i + 1] > 0x20 && text[i + 1] < 0x80 && sty[i] == wordBreakStyle && wordBreakNormal
  }

  /// The break opportunity after text character `i`, if any: CJK spacing items, a
  /// penalty, or inter-character glue.
  mutating func breakAfter(_ i: Int) {
    let n = text.count
    let v = text[i]
    let si = sty[i]
    let noWrap = settings.noWrap
    let preserve = settings.preserve
    let b = Int32(breaks[i])
    if !preserve, insideASCIIWord(i) { return }
    if si != strictStyle {
      strictStyle = si
      strict = styles[si].strictLineBreak
      loose = styles[si].looseLineBreak
      let writing = styles[si].style.text.writing
      rubyBase = writing.rubyText != nil || writing.rubyOtherText != nil
    }
    var allowed =
      i + 1 < n
      && (b == LINEBREAK_ALLOWBREAK
        || (b == LINEBREAK_NOBREAK && !strict && PieceShaper.conditionalBreak(v, text[i + 1]))
        || (b == LINEBREAK_NOBREAK && PieceShaper.wideOpeningBreak(v, text[i + 1])))
      && !PieceShaper.cjkForbids(v, text[i + 1], strict: strict)
    if loose, !allowed, i + 1 < n, Kinsoku.looseAllows(before: v, after: text[i + 1]) {
      allowed = true
    }
    if i + 1 < n, si != wordBreakStyle || !wordBreakNormal {
      if si != wordBreakStyle {  // styles[si] copies the whole style: once per style run
        wordBreakStyle = si
        wordBreak = styles[si].wordBreak
        if case .normal = wordBreak { wordBreakNormal = true } else { wordBreakNormal = false }
      }
      allowed = PieceShaper.wordBreak(wordBreak, v, text[i + 1], allowed: allowed)
    }
    if rubyBase, i + 1 < n, sty[i + 1] == si { allowed = false }
    if i + 1 < n, !noWrap, v != 0x20, v != 0xFFFC, text[i + 1] > 0x20, text[i + 1] != 0xAD,
      text[i + 1] != 0x2028, text[i + 1] != 0xFFFC, v >= 0x2000 || text[i + 1] >= 0x2000,
      let x = Unicode.Scalar(v), let y = Unicode.Scalar(text[i + 1]),
      // Every item `boundaryItems` adds needs a CJK character on one side (its bracket sets
      // and its letters all are): Western text with ’ “ ” — skips its Unicode property
      // lookups (~1.3 K instructions a pair, ~25 M on moby-dick; session 16).
      Kinsoku.isCJK(x) || Kinsoku.isCJK(y),
      let adjust = Kinsoku.boundaryItems(
        x, y, em: styles[si].size, breakAllowed: allowed, compress: settings.compressPunctuation,
        autospace: styles[si].autospace)
    {
      // CJK spacing: punctuation compression and hanging, ¼ em next to Latin (Kinsoku).
      flush(i + 1)
      out.items += adjust
      for _ in adjust { out.sources.append(.plain(i + 1)) }
    } else if allowed, text[i + 1] != 0x20, text[i + 1] != 0xAD, text[i + 1] != 0x2028, v != 0x20 {
      flush(i + 1)
      if noWrap {
        // No wrapping (`pre`, `nowrap`): the piece ends here, but no line may.
      } else if Scripts.isWide(v) || Scripts.isWide(text[i + 1]) {
        out.items.append(.glue(width: 0, stretch: styles[si].size * 0.1, shrink: 0))
        out.sources.append(.plain(i + 1))
      } else {
        out.items.append(.penalty(width: 0, cost: 50, flagged: false))
        out.sources.append(.plain(i + 1))
      }
    } else if preserve && v == 0x20 {
      // Preserved spaces are boxes: flush them one by one so lines can end after them
      // (`pre-wrap`: where UAX #14 allows, after the last space of a run).
      flush(i + 1)
      if allowed && !noWrap {
        out.items.append(.penalty(width: 0, cost: 0, flagged: false))
        out.sources.append(.plain(i + 1))
      }
    }
  }

  /// `word-break` on top of UAX #14: `break-all` allows a break between any two letters or
  /// digits (as between ideographs), `keep-all` forbids one there (also between ideographs:
  /// Korean and CJK text then breaks at spaces and punctuation only).
  static func wordBreak(_ rule: WordBreak, _ a: UInt32, _ b: UInt32, allowed: Bool) -> Bool {
    switch rule {
    case .normal: return allowed
    case .breakAll: return allowed || (isLetter(a) && isLetter(b))
    case .keepAll: return allowed && !(isLetter(a) && isLetter(b))
    }
  }

  /// A letter or a digit (general categories L and N).
  static func isLetter(_ v: UInt32) -> Bool {
    guard let s = Unicode.Scalar(v) else { return false }
    switch s.properties.generalCategory {
    case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
      .decimalNumber, .letterNumber, .otherNumber:
      return true
    default: return false
    }
  }

  /// Kinsoku (JLREQ/clreq) on top of UAX #14, between CJK characters and their punctuation.
  @inline(__always) static func cjkForbids(_ a: UInt32, _ b: UInt32, strict: Bool) -> Bool {
    guard a >= 0x2000 || b >= 0x2000, let x = Unicode.Scalar(a), let y = Unicode.Scalar(b) else {
      return false
    }
    return Kinsoku.forbidBreak(before: x, after: y, strict: strict)
  }

  /// `line-break: normal` before small kana, ー and CJK hyphens, which UAX #14 keeps.
  @inline(__always) static func conditionalBreak(_ a: UInt32, _ b: UInt32) -> Bool {
    guard a >= 0x2000, b >= 0x2000, let x = Unicode.Scalar(a), let y = Unicode.Scalar(b) else {
      return false
    }
    return Kinsoku.mayBreakBeforeConditional(before: x, after: y)
  }

  /// UAX #14 LB30 as Unicode 8 has it: a letter or digit may break before a wide `（`.
  @inline(__always) static func wideOpeningBreak(_ a: UInt32, _ b: UInt32) -> Bool {
    guard b >= 0x3000, let x = Unicode.Scalar(a), let y = Unicode.Scalar(b) else {
      return false
    }
    return Kinsoku.mayBreakBeforeWideOpening(before: x, after: y)
  }

  /// `<br>` or the paragraph's end: fill the line and force a break.
  mutating func finishing(_ at: Int) {
    if settings.noWrap, out.items.last?.isBox ?? false {
      // Only the forced break may end a line that does not wrap, not its fil glue.
      out.items.append(BreakItem.prohibitedBreak)
      out.sources.append(.plain(at))
    }
    out.items.append(.glue(width: 0, stretch: .infinity, shrink: 0))
    out.sources.append(.plain(at))
    out.items.append(BreakItem.forcedLineBreak)
    out.sources.append(.plain(at))
  }

  /// Closes the open piece at `end`: shapes it (hyphenated when eligible) and appends its
  /// boxes, with letter-spacing glue and hyphen penalties between them.
  mutating func flush(_ end: Int) {
    guard pieceStart >= 0, end > pieceStart else {
      pieceStart = -1
      return
    }
    let si = sty[pieceStart]
    let fake = small[pieceStart]
    var size = fake ? styles[si].size * 0.8 : styles[si].size
    let upem = fonts.upem[pieceFace]
    let script =
      pieceScript == HB_SCRIPT_COMMON || pieceScript == HB_SCRIPT_INHERITED
      ? runScript : pieceScript
    // The key's text is not copied out of the paragraph unless the word cache misses.
    let word = text[pieceStart..<end]
    var key = ShapeStyle(
      face: pieceFace,
      smallCaps: styles[si].smallCapsFeature,
      rtl: levels.isEmpty
        ? script != HB_SCRIPT_LATIN
          && hb_script_get_horizontal_direction(script) == HB_DIRECTION_RTL
        : levels[pieceStart] & 1 == 1,
      script: script.rawValue,
      language: settings.shapeLanguage, features: styles[si].features, vertical: pieceForm)
    let alphabetic =
      script == HB_SCRIPT_LATIN || script == HB_SCRIPT_CYRILLIC || script == HB_SCRIPT_GREEK
    let spanLanguage = languages.isEmpty ? nil : language(at: pieceStart)
    if let spanLanguage { key.language = ShapeLanguage(spanLanguage) }
    let eligible =
      (spanLanguage.map { !$0.isEmpty && settings.hyphenateSpans } ?? settings.hyphenate)
      && end - pieceStart >= ChapterFlow.minHyphenatedLength && !fake
      && alphabetic && styles[si].autoHyphens && !addresses.contains(pieceStart)
    if eligible && spanLanguage == nil && !hyphenatorResolved {
      // Looked up at the first word that could use it, not per paragraph: loading one is
      // costly (hyph_de_DE.dic takes seconds) and many spans never need it.
      hyphenator = hyphenation.hyphenator(for: settings.language)
      hyphenatorResolved = true
    }
    let wordHyphenator =
      !eligible ? nil : spanLanguage.map { hyphenation.hyphenator(for: $0) } ?? hyphenator
    var parts =
      key.features == .unshared
      ? unsharedWord(word, key, hyphenate: wordHyphenator, features: unsharedFeatures[si] ?? [])
      : shapeWord(word, key, hyphenate: wordHyphenator, ownLanguage: spanLanguage != nil)
    if pieceForm == .combined { size = VerticalShaping.combinedSize(size, parts, upem: upem) }
    let spacing = styles[si].letterSpacing
    if spacing != 0 && !PieceShaper.isCursive(script) {
      let units = Float(spacing / size * upem)
      parts = parts.map { PieceShaper.letterSpaced($0, by: units) }
    }
    // Whether each part is joined to the one before by an emergency break; empty when none
    // is (an array, not a set: an empty `Set` cost a release call per word, ~5 M instructions
    // on moby-dick; session 17).
    var emergencyJoins: [Bool] = []
    if !settings.noWrap,
      parts.contains(where: { $0.shaped.advance / upem * size > settings.measure })
    {
      parts = emergencyParts(parts, Array(word), scale: size / upem, joins: &emergencyJoins)
    }
    let letterSpacing = !settings.noWrap && !fake && alphabetic && spacing == 0
    for (k, part) in parts.enumerated() {
      if k > 0 && k < emergencyJoins.count && emergencyJoins[k] {
        out.items.append(BreakItem.emergencyPenalty)
        out.sources.append(.plain(pieceStart + part.start))
      } else if k > 0 {
        out.items.append(BreakItem.hyphen(width: styles[si].hyphenWidth))
        out.sources.append(.soft(pieceStart + part.start, style: si))
      }
      let w = part.shaped.advance / upem * size
      if letterSpacing && part.shaped.glyphs.count > 1, let last = out.items.last, !last.isBox {
        // Letter spacing: glue before the box (never a break: it follows a glue or a
        // penalty, not a box), so the box stretches a little with the line's word spaces.
        out.items.append(
          .glue(
            width: 0, stretch: w * ChapterFlow.letterStretch, shrink: w * ChapterFlow.letterShrink))
        out.sources.append(.letter(out.pieces.count))
      }
      out.pieces.append(
        Piece(
          text: pieceStart + part.start, end: pieceStart + part.end, style: si, face: pieceFace,
          size: size, shaped: part.shaped, width: w, form: pieceForm))
      out.items.append(.box(width: w))
      out.sources.append(.piece(out.pieces.count - 1))
    }
    pieceStart = -1
  }

  /// Scripts whose letters join (CSS Text 3 §8.2: no letter spacing inside them).
  static func isCursive(_ script: hb_script_t) -> Bool {
    switch script {
    case HB_SCRIPT_ARABIC, HB_SCRIPT_SYRIAC, HB_SCRIPT_MONGOLIAN, HB_SCRIPT_NKO,
      HB_SCRIPT_PHAGS_PA, HB_SCRIPT_MANDAIC, HB_SCRIPT_ADLAM, HB_SCRIPT_HANIFI_ROHINGYA,
      HB_SCRIPT_SOGDIAN:
      return true
    default: return false
    }
  }

  /// `part` with `units` (font units) added after each of its clusters: CSS letter spacing,
  /// after every typographic character unit, the last included.
  static func letterSpaced(_ part: WordPart, by units: Float) -> WordPart {
    var p = part
    var glyphs = p.shaped.glyphs
    var added = 0.0
    // After the last glyph of each grapheme: before a new cluster that advances (a mark,
    // which HarfBuzz may give a cluster of its own, has no advance and stays on its base).
    for g in glyphs.indices
    where g + 1 == glyphs.count
      || (glyphs[g + 1].cluster != glyphs[g].cluster && glyphs[g + 1].advance != 0)
    {
      glyphs[g].advance += units
      added += Double(units)
    }
    p.shaped = ShapedText(glyphs: glyphs, advance: p.shaped.advance + added)
    return p
  }

  /// Parts wider than the measure cut at grapheme clusters (`EmergencyBreaks`); `joins`
  /// gets, per result part, whether it is a cut part after the first of its part (hyphen
  /// points stay).
  private mutating func emergencyParts(
    _ parts: [WordPart], _ word: [UInt32], scale: Double, joins: inout [Bool]
  ) -> [WordPart] {
    out.emergencyBreaks += 1
    var result: [WordPart] = []
    joins = []
    for part in parts {
      guard part.shaped.advance * scale > settings.measure else {
        result.append(part)
        joins.append(false)
        continue
      }
      let cut = EmergencyBreaks.graphemeParts(
        part, text: word[part.start..<part.end],
        minWidth: settings.measure / Double(InlineCaps.emergencyBreaksPerLine) / scale,
        maxWidth: settings.measure / scale)
      for k in cut.indices { joins.append(k > 0) }
      result += cut
    }
    return result
  }

  /// A word shaped whole, or split at its hyphenation points and each part shaped; cached
  /// in the shaper's word cache either way.
  /// The language of text at `i` when a `lang` span gives it one other than the
  /// paragraph's, else nil. `i` never decreases from one call to the next.
  private mutating func language(at i: Int) -> String? {
    while languageCursor + 1 < languages.count, languages[languageCursor + 1].start <= i {
      languageCursor += 1
    }
    let lang = languageCursor >= 0 ? languages[languageCursor].lang : firstLanguage
    guard let lang, lang != settings.language else { return nil }
    return lang
  }

  /// `key`'s word, shaped whole or in parts at `hyphenator`'s points (`ownLanguage`: the word
  /// is in a span of another language than the paragraph's; its points go through the
  /// shared cache only, as the worker's run memo holds one dictionary's answers and would
  /// be emptied at every switch between the span's language and the paragraph's).
  private mutating func shapeWord(
    _ word: ArraySlice<UInt32>, _ style: ShapeStyle, hyphenate hyphenator: Hyphenator?,
    ownLanguage: Bool = false
  ) -> [WordPart] {
    let hyphenated = hyphenator != nil
    if let hit = shaper.word(
      word, fold: ShapeKey.fold(word), style: style, hyphenated: hyphenated)
    {
      return hit
    }
    let key = ShapeKey(text: Array(word), style: style)
    var parts: [WordPart] = []
    if let hyphenator {
      var from = 0
      let points =
        ownLanguage
        ? hyphenation.sharedPoints(key.text, hyphenator, fold: key.textFold)
        : hyphenation.points(key.text, hyphenator, fold: key.textFold)
      // One allocation for all the parts (appending to an empty array grew it part by part).
      parts.reserveCapacity(points.count + 1)
      for p in points where p > from && p < key.text.count {
        let sub = ShapeKey(text: Array(key.text[from..<p]), style: style)
        parts.append(WordPart(start: from, end: p, shaped: shaper.shape(sub)))
        from = p
      }
      let last = from == 0 ? key : ShapeKey(text: Array(key.text[from...]), style: style)
      parts.append(WordPart(start: from, end: key.text.count, shaped: shaper.shape(last)))
    } else {
      parts = [WordPart(start: 0, end: key.text.count, shaped: shaper.shape(key))]
    }
    shaper.storeWord(key, hyphenated: hyphenated, parts)
    return parts
  }

  /// `shapeWord` for a style whose feature list had no room in the process-wide table
  /// (`FeatureList.unshared`): shaped with `features`, outside the word table and the
  /// shared cache (that number names no one list). Off the hot path: `shapeWord` stays as
  /// it was, one integer comparison in `flush` chooses.
  private mutating func unsharedWord(
    _ word: ArraySlice<UInt32>, _ style: ShapeStyle, hyphenate hyphenator: Hyphenator?,
    features: [UInt64]
  ) -> [WordPart] {
    let key = ShapeKey(text: Array(word), style: style)
    let points = hyphenator.map { hyphenation.sharedPoints(key.text, $0) } ?? []
    var parts: [WordPart] = []
    var from = 0
    for p in points + [key.text.count] where p > from && p <= key.text.count {
      var sub = key
      sub.text = Array(key.text[from..<p])
      parts.append(
        WordPart(start: from, end: p, shaped: shaper.shapeUnshared(sub, features: features)))
      from = p
    }
    return parts
  }
}
