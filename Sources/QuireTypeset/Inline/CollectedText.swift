// Stage 1 of inline layout, **collect**: a block's inlines flattened into one array of
// Unicode scalar values, each with its source offset (the character offset in the chapter
// that a `Location` names) and its style index (into the chapter's `ResolvedStyle` table).
//
// What happens here and nowhere later: CSS white-space processing (collapsible spaces,
// tabs and newlines; `pre`, `pre-wrap`, `pre-line` keep what they keep), `text-transform`,
// fake small caps (lowercase uppercased and flagged, for a face without `smcp`), `<br>` as
// U+2028, and an inline image, formula or inline block as U+FFFC kept by scalar index. Soft hyphens
// (U+00AD) pass through; the shape stage turns them into flagged penalties.
//
// Long runs of combining marks get a U+034F COMBINING GRAPHEME JOINER after every
// `InlineCaps.maxNonStarters` non-starters (the Stream-Safe Text Format of UAX #15), with
// the offset of the mark after it; marks past `InlineCaps.maxClusterMarks` in a row are
// dropped (HarfBuzz attaches each mark by searching back over the marks before it, so a
// cluster costs time quadratic in its marks, CGJ or not). Kept scalars keep their own
// source offsets, so `Location`s still name the book's text.
//
// Source offsets are per scalar: a transform that makes two scalars of one ("ß" → "SS")
// gives both the same offset, so a line's `start`/`end` still name the book's text. Every
// scalar of a generated run (`TextRun.generated`) has the run's own offset, that of the
// source character after it.

import CHarfBuzz
import QuireIngest

/// The scalars of one block, ready to itemize.
struct CollectedText {
  /// Unicode scalar values (U+2028 for a line break, U+FFFC for an inline image).
  var scalars: [UInt32] = []
  /// Source offset of each scalar.
  var sources: [Int] = []
  /// Style index of each scalar.
  var styles: [Int] = []
  /// Whether each scalar was uppercased for fake small caps (set smaller).
  var smallCaps: [Bool] = []
  /// Inline images by scalar index.
  var images: [Int: InlineImage] = [:]
  /// Inline formulas by scalar index (U+FFFC too).
  var maths: [Int: InlineMath] = [:]
  /// Inline blocks by scalar index (U+FFFC too, at the offset of their first character;
  /// their own text is laid out apart, InlineBoxLayout.swift).
  var inlineBoxes: [Int: InlineBlock] = [:]
  /// The source offset just after the last inline: where a line with no text is.
  var endOffset: Int
  /// Combining grapheme joiners inserted (Stream-Safe Text Format) and scalars dropped past
  /// `InlineCaps.maxParagraphScalars`.
  var joinersInserted = 0
  var dropped = false
  /// Marks dropped past `InlineCaps.maxClusterMarks`.
  var marksDropped = 0
  /// Consecutive non-starters, and consecutive marks, just pushed.
  private var nonStarters = 0
  private var clusterMarks = 0
  /// Index of the first scalar after the last line break (for tab stops).
  private var lineStart = 0

  /// Where the text's language changes (`xml:lang`/`lang` of its runs), after the first
  /// run's (`firstLanguage`): (first scalar, language; nil where none is declared). Empty
  /// for text in one language, the usual case.
  var languages: [(start: Int, lang: String?)] = []
  /// The first text run's language.
  var firstLanguage: String? = nil
  private var sawText = false
  var count: Int { scalars.count }
  var isEmpty: Bool { scalars.isEmpty }

  /// How white space is treated (CSS `white-space`).
  struct WhiteSpaceRule {
    /// Spaces and tabs are kept (`pre`, `pre-wrap`).
    var preserve: Bool
    /// Newlines are kept as line breaks (`pre`, `pre-wrap`, `pre-line`).
    var keepNewlines: Bool

    init(_ ws: WhiteSpace) {
      preserve = ws == .pre || ws == .preWrap
      keepNewlines = preserve || ws == .preLine
    }
  }

  /// What collect needs of a style: its index, whether it fakes small caps, its tab size.
  struct InlineStyle {
    var index: Int
    var fakeSmallCaps: Bool
    /// `tab-size` in spaces: a preserved tab advances to the next multiple of it.
    var tabSize = 8
    /// `all-small-caps` faked: capitals are set small too.
    var allSmallCaps = false
  }

  /// Flattens `inlines`. `inlineStyles[k]` is the resolved style of `inlines[k]` (a line
  /// break uses the block's style, `blockStyle`); `startOffset` is the block's own offset.
  init(
    inlines: [Inline], inlineStyles: [InlineStyle], blockStyle: Int, startOffset: Int,
    whiteSpace: WhiteSpaceRule
  ) {
    endOffset = startOffset
    let estimate = inlines.reduce(0) {
      if case .text(let r) = $1 { return $0 + r.text.utf8.count } else { return $0 + 1 }
    }
    scalars.reserveCapacity(estimate)
    sources.reserveCapacity(estimate)
    styles.reserveCapacity(estimate)
    smallCaps.reserveCapacity(estimate)
    for (k, inline) in inlines.enumerated() {
      guard scalars.count < InlineCaps.maxCollectedScalars else {
        dropped = true
        break
      }
      switch inline {
      case .text(let run):
        noteLanguage(run.lang)
        endOffset = appendText(run, style: inlineStyles[k], whiteSpace: whiteSpace)
      case .lineBreak(let loc):
        push(0x2028, loc.offset, blockStyle)
        lineStart = scalars.count
        endOffset = loc.offset + 1
      case .image(let img):
        images[scalars.count] = img
        push(0xFFFC, img.location.offset, inlineStyles[k].index)
        endOffset = img.location.offset + 1
      case .math(let m):
        maths[scalars.count] = m
        push(0xFFFC, m.location.offset, inlineStyles[k].index)
        endOffset = m.location.offset + 1
      case .inlineBlock(let ib):
        inlineBoxes[scalars.count] = ib
        push(0xFFFC, ib.location.offset, inlineStyles[k].index)
        endOffset = ib.end
      }
    }
    while scalars.last == 0x20, !whiteSpace.preserve {
      scalars.removeLast()
      sources.removeLast()
      styles.removeLast()
      smallCaps.removeLast()
    }
  }

  @inline(__always)
  private mutating func push(_ s: UInt32, _ o: Int, _ si: Int, _ sm: Bool = false) {
    let before = scalars.count
    pushText(s, o)
    fillStyles(si)
    if sm && scalars.count > before { smallCaps[smallCaps.count - 1] = true }
  }

  /// Appends a scalar and its source offset only: a text run's style index and small-caps
  /// flags are filled in bulk after it (`fillStyles`), two appends per scalar fewer.
  @inline(__always)
  private mutating func pushText(_ s: UInt32, _ o: Int) {
    if s < 0x300 {
      clusterMarks = 0
      nonStarters = 0
    } else if !admitMark(s, o) {
      return
    }
    scalars.append(s)
    sources.append(o)
  }

  /// Gives the scalars pushed since the last call style `si` and no small caps.
  @inline(__always)
  private mutating func fillStyles(_ si: Int) {
    let n = scalars.count - styles.count
    if n == 1 {
      styles.append(si)
      smallCaps.append(false)
    } else if n > 1 {
      styles.append(contentsOf: repeatElement(si, count: n))
      smallCaps.append(contentsOf: repeatElement(false, count: n))
    }
  }

  /// Marks (general category M) past `InlineCaps.maxClusterMarks` in a row are dropped
  /// (false); past `InlineCaps.maxNonStarters` non-starters in a row a CGJ goes first.
  @inline(__always)
  private mutating func admitMark(_ s: UInt32, _ o: Int) -> Bool {
    let funcs = Scripts.funcs.p
    switch hb_unicode_general_category(funcs, s) {
    case HB_UNICODE_GENERAL_CATEGORY_NON_SPACING_MARK, HB_UNICODE_GENERAL_CATEGORY_SPACING_MARK,
      HB_UNICODE_GENERAL_CATEGORY_ENCLOSING_MARK:
      clusterMarks += 1
      if clusterMarks > InlineCaps.maxClusterMarks {
        marksDropped += 1
        return false
      }
    default:
      clusterMarks = 0
      nonStarters = 0
      return true
    }
    if hb_unicode_combining_class(funcs, s) == HB_UNICODE_COMBINING_CLASS_NOT_REORDERED {
      nonStarters = 0
      return true
    }
    nonStarters += 1
    if nonStarters > InlineCaps.maxNonStarters {
      // CGJ: a starter, invisible; the marks after it start afresh.
      scalars.append(0x34F)
      sources.append(o)
      joinersInserted += 1
      nonStarters = 1
    }
    return true
  }

  /// Appends one text run; returns the source offset just after it.
  private mutating func appendText(_ run: TextRun, style: InlineStyle, whiteSpace: WhiteSpaceRule)
    -> Int
  {
    let si = style.index
    let fakeSmall = style.fakeSmallCaps
    let transform = run.style.textTransform
    let fullWidth = run.style.textFullWidth
    // A collapsed space of full-width text is the ideographic space (CSS Text 3 §2.1.2).
    let space: UInt32 = fullWidth ? 0x3000 : 0x20
    let preserve = whiteSpace.preserve
    let keepNewlines = whiteSpace.keepNewlines
    var offset = run.location.offset
    // Generated text (::before, quotes, markers) sits at the next source character.
    let step = run.generated ? 0 : 1
    var atWordStart = scalars.last.map { $0 == 0x20 } ?? true
    for sc in run.text.unicodeScalars {
      if scalars.count >= InlineCaps.maxCollectedScalars {
        dropped = true
        break
      }
      defer { offset += step }
      var v = sc.value
      if v == 0x0A || v == 0x0D || v == 0x09 || v == 0x0C {
        if keepNewlines && v == 0x0A {
          pushText(0x2028, offset)
          lineStart = scalars.count
          atWordStart = true
          continue
        }
        if preserve && v == 0x09 {
          // To the next tab stop, counted in characters from the line's start (exact for
          // the monospaced text tabs are preserved in).
          let column = scalars.count - lineStart
          let stop = max(0, style.tabSize)
          for _ in 0..<(stop == 0 ? 0 : stop - column % stop) { pushText(0x20, offset) }
          continue
        }
        v = 0x20
      }
      if v == 0x20 && !preserve {
        if scalars.isEmpty || scalars.last == space || scalars.last == 0x2028 { continue }
        pushText(space, offset)
        atWordStart = true
        continue
      }
      if !fakeSmall && transform == .none && !fullWidth {
        pushText(v, offset)
        continue
      }
      appendTransformed(
        v == sc.value ? sc : " ", transform: transform, fullWidth: fullWidth,
        fakeSmallCaps: fakeSmall,
        allSmall: style.allSmallCaps,
        atWordStart: atWordStart, offset: offset, style: si)
      atWordStart = v == 0x20
    }
    fillStyles(si)
    return offset
  }

  /// Records a change of language at the next scalar.
  private mutating func noteLanguage(_ lang: String?) {
    if !sawText {
      sawText = true
      firstLanguage = lang
    } else if lang != (languages.last?.lang ?? firstLanguage) {
      languages.append((scalars.count, lang))
    }
  }

  /// `text-transform` and fake small caps of one scalar (possibly several out).
  private mutating func appendTransformed(
    _ sc: Unicode.Scalar, transform: TextTransform, fullWidth: Bool, fakeSmallCaps: Bool,
    allSmall: Bool,
    atWordStart: Bool,
    offset: Int, style si: Int
  ) {
    var out = String(sc)
    switch transform {
    case .none: break
    case .uppercase: out = out.uppercased()
    case .lowercase: out = out.lowercased()
    case .capitalize: if atWordStart { out = out.uppercased() }
    }
    if fullWidth { out = String(String.UnicodeScalarView(out.unicodeScalars.map(Self.fullWidth))) }
    for u in out.unicodeScalars {
      if fakeSmallCaps, u.properties.isLowercase || (allSmall && u.properties.isUppercase) {
        for up in String(u).uppercased().unicodeScalars { push(up.value, offset, si, true) }
      } else {
        push(u.value, offset, si)
      }
    }
  }

  /// The fullwidth form of `u` (CSS Text 3 §2.1.2, `full-width`): ASCII and the space to
  /// the Halfwidth and Fullwidth Forms block (U+FF01–FF5E, U+3000), the Latin-1 signs that
  /// have fullwidth forms (¢ £ ¬ ¯ ¦ ¥ ₩, U+FFE0–FFE6), and halfwidth katakana, Hangul and
  /// symbols to their wide characters; anything else unchanged.
  static func fullWidth(_ u: Unicode.Scalar) -> Unicode.Scalar {
    let v = u.value
    let mapped: UInt32? =
      switch v {
      case 0x20: 0x3000
      case 0x21...0x7E: v + 0xFEE0
      case 0xA2: 0xFFE0
      case 0xA3: 0xFFE1
      case 0xAC: 0xFFE2
      case 0xAF: 0xFFE3
      case 0xA6: 0xFFE4
      case 0xA5: 0xFFE5
      case 0x20A9: 0xFFE6
      case 0xFF61...0xFF9F: halfwidthKatakana[Int(v - 0xFF61)]
      default: nil
      }
    return mapped.flatMap(Unicode.Scalar.init) ?? u
  }

  /// U+FF61…U+FF9F (halfwidth CJK punctuation and katakana, ﾞ ﾟ) to their wide forms,
  /// from the Unicode `<narrow>` decompositions.
  static let halfwidthKatakana: [UInt32] = Array(
    "。「」、・ヲァィゥェォャュョッーアイウエオカキクケコサシスセソタチツテトナニヌネノハヒフヘホマミムメモヤユヨラリルレロワン゙゚"
      .unicodeScalars.map(\.value))
}
