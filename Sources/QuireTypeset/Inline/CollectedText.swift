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
  private var streamSafe = StreamSafe()
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
    var estimate = 0
    for k in inlines.indices {
      if case .text(let r) = inlines[k] { estimate += r.text.utf8.count } else { estimate += 1 }
    }
    scalars.reserveCapacity(estimate)
    sources.reserveCapacity(estimate)
    styles.reserveCapacity(estimate)
    smallCaps.reserveCapacity(estimate)
    // By index, matched in place: `for inline in inlines` copied each inline out of the array
    // (a text run holds its whole computed style: ~1,700 instructions of retains a copy and as
    // many to destroy it, ~9 M on moby-dick; session 17).
    for k in inlines.indices {
      guard scalars.count < InlineCaps.maxCollectedScalars else {
        dropped = true
        break
      }
      switch inlines[k] {
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
      streamSafe.starter()
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
    switch streamSafe.verdict(s) {
    case .drop:
      marksDropped += 1
      return false
    case .keep: return true
    case .afterJoiner:
      scalars.append(0x34F)
      sources.append(o)
      joinersInserted += 1
      return true
    }
  }

  /// What to do with a scalar at or past U+0300.
  private enum MarkVerdict {
    case keep, drop
    /// Keep it, after a CGJ: a starter, invisible; the marks after it start afresh.
    case afterJoiner
  }

  /// The Stream-Safe Text Format's count of the marks and non-starters just pushed.
  private struct StreamSafe {
    var nonStarters = 0
    var clusterMarks = 0

    /// A scalar below U+0300: a starter, never a mark.
    @inline(__always) mutating func starter() {
      clusterMarks = 0
      nonStarters = 0
    }

    /// Counts `s` (at or past U+0300) into the cluster.
    mutating func verdict(_ s: UInt32) -> MarkVerdict {
      let funcs = Scripts.funcs.p
      switch hb_unicode_general_category(funcs, s) {
      case HB_UNICODE_GENERAL_CATEGORY_NON_SPACING_MARK, HB_UNICODE_GENERAL_CATEGORY_SPACING_MARK,
        HB_UNICODE_GENERAL_CATEGORY_ENCLOSING_MARK:
        clusterMarks += 1
        if clusterMarks > InlineCaps.maxClusterMarks { return .drop }
      default:
        starter()
        return .keep
      }
      if hb_unicode_combining_class(funcs, s) == HB_UNICODE_COMBINING_CLASS_NOT_REORDERED {
        nonStarters = 0
        return .keep
      }
      nonStarters += 1
      if nonStarters > InlineCaps.maxNonStarters {
        nonStarters = 1
        return .afterJoiner
      }
      return .keep
    }
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
    if case .none = transform, !fakeSmall, !fullWidth, !preserve,
      let end = run.text.utf8.withContiguousStorageIfAvailable({
        appendPlain($0, offset: offset, step: step, keepNewlines: keepNewlines)
      })
    {
      fillStyles(si)
      return end
    }
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
      if case .none = transform, !fakeSmall, !fullWidth {
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

  /// `appendText` for a run with no transform, small caps or full width in white space
  /// that collapses (nearly every run of a book): the run's UTF-8 is decoded in place and
  /// its scalars and offsets written through raw buffers, not appended one by one (two
  /// uniqueness and capacity checks per character, and `String`'s scalar iterator, were
  /// ~140 instructions a character; Benchmarks/paginate-cost.md, session 15). The same
  /// rules as the general loop: spaces, tabs and newlines collapse, a kept newline is a line
  /// break, marks go through `StreamSafe`.
  private mutating func appendPlain(
    _ bytes: UnsafeBufferPointer<UInt8>, offset start: Int, step: Int, keepNewlines: Bool
  ) -> Int {
    let old = scalars.count
    // A byte gives at most one scalar, and a CGJ comes at most once in `maxNonStarters`;
    // and no scalar is written once the text holds `maxCollectedScalars` (a CGJ and its
    // mark may pass it by one), so a hostile run never reserves more than the cap.
    let room = min(
      bytes.count + bytes.count / InlineCaps.maxNonStarters + 1,
      max(0, InlineCaps.maxCollectedScalars + 1 - old))
    scalars.append(contentsOf: repeatElement(0, count: room))
    sources.append(contentsOf: repeatElement(0, count: room))
    var run = PlainRun(count: old, offset: start, safe: streamSafe)
    scalars.withUnsafeMutableBufferPointer { out in
      sources.withUnsafeMutableBufferPointer { at in
        run.decode(bytes, step: step, keepNewlines: keepNewlines, into: out, at)
      }
    }
    scalars.removeLast(old + room - run.count)
    sources.removeLast(old + room - run.count)
    streamSafe = run.safe
    marksDropped += run.marksDropped
    joinersInserted += run.joiners
    if run.full { dropped = true }
    if let start = run.lineStart { lineStart = start }
    return run.offset
  }

  /// The state of `appendPlain`'s loop.
  private struct PlainRun {
    /// Scalars written so far (the arrays' count once the unused room is cut).
    var count: Int
    var offset: Int
    var safe: StreamSafe
    var marksDropped = 0
    var joiners = 0
    /// `InlineCaps.maxCollectedScalars` reached.
    var full = false
    /// The first scalar after the last kept newline, if the run has one.
    var lineStart: Int? = nil

    @inline(__always)
    mutating func decode(
      _ bytes: UnsafeBufferPointer<UInt8>, step: Int, keepNewlines: Bool,
      into out: UnsafeMutableBufferPointer<UInt32>, _ at: UnsafeMutableBufferPointer<Int>
    ) {
      var j = 0
      while j < bytes.count {
        if count >= InlineCaps.maxCollectedScalars {
          full = true
          return
        }
        var v = UInt32(bytes[j])
        if v &- 0x21 < 0x5F {
          // Printable ASCII but the space (most bytes of a book): a starter, kept as it is.
          // The general tests below, skipped, were ~5 instructions a byte (session 17).
          j += 1
          safe.starter()
          write(v, out, at)
          offset += step
          continue
        }
        if v < 0x80 {
          j += 1
        } else {
          (v, j) = PlainRun.scalar(bytes, j)
        }
        defer { offset += step }
        if v == 0x0A || v == 0x0D || v == 0x09 || v == 0x0C {
          if keepNewlines && v == 0x0A {
            safe.starter()
            write(0x2028, out, at)
            lineStart = count
            continue
          }
          v = 0x20
        }
        if v == 0x20 {
          if count == 0 || out[count - 1] == 0x20 || out[count - 1] == 0x2028 { continue }
          safe.starter()
        } else if v < 0x300 {
          safe.starter()
        } else {
          switch safe.verdict(v) {
          case .keep: break
          case .drop:
            marksDropped += 1
            continue
          case .afterJoiner:
            joiners += 1
            write(0x34F, out, at)
          }
        }
        write(v, out, at)
      }
    }

    @inline(__always)
    mutating func write(
      _ v: UInt32, _ out: UnsafeMutableBufferPointer<UInt32>, _ at: UnsafeMutableBufferPointer<Int>
    ) {
      out[count] = v
      at[count] = offset
      count += 1
    }

    /// The scalar of the multi-byte sequence at `j` of valid UTF-8 (a `String`'s), and the
    /// index after it.
    @inline(__always)
    static func scalar(_ b: UnsafeBufferPointer<UInt8>, _ j: Int) -> (UInt32, Int) {
      let b0 = UInt32(b[j])
      let b1 = UInt32(b[j + 1]) & 0x3F
      if b0 < 0xE0 { return ((b0 & 0x1F) << 6 | b1, j + 2) }
      let b2 = UInt32(b[j + 2]) & 0x3F
      if b0 < 0xF0 { return ((b0 & 0x0F) << 12 | b1 << 6 | b2, j + 3) }
      let b3 = UInt32(b[j + 3]) & 0x3F
      return ((b0 & 0x07) << 18 | b1 << 12 | b2 << 6 | b3, j + 4)
    }
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
