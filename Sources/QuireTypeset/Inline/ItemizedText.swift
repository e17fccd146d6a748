// Stage 2 of inline layout, **itemize**: what each scalar of a `CollectedText` is, before
// anything is shaped — its bidi embedding level (FriBidi, UAX #9), its line-break class
// result (libunibreak, UAX #14, or its Latin fast path in LineBreakOpportunities.swift; ICU's dictionaries inside Thai, Lao, Khmer and Myanmar
// words, DictionaryBreaks.swift), its script (HarfBuzz's Unicode functions) and the face that
// will draw it (the style's face, else the per-character fallback of `FontSet`).
//
// Combining marks (script Inherited) stay on their base's face, so a base and its accents
// are shaped together; a mark after a space, a line break or an image chooses its own.
// Characters no face has keep the style's face (they draw as .notdef) and are listed in
// `missing` for the chapter's diagnostics.
//
// Stored per scalar (flat arrays, not runs): the shape stage reads them once each in one
// pass, and a run list would need a search per scalar. `runs()` gives the run view (style,
// face, script, level) for tests and for stages that want runs.

import CHarfBuzz
import CUnibreak
import QuireIngest

/// Per-scalar analysis of one block's text.
struct ItemizedText {
  /// Bidi resolution of the paragraph (its `levels` are empty on the all-LTR fast path).
  var bidi: BidiParagraph
  /// libunibreak's result after each scalar (`LINEBREAK_ALLOWBREAK`, …).
  var breaks: [CChar]
  /// The face of each scalar; −1 for one that is not drawn from a font (a collapsible
  /// space, a line break, a soft hyphen, an inline image).
  var faces: [Int32]
  /// The script of each scalar (`HB_SCRIPT_COMMON` where `faces` is −1).
  var scripts: [hb_script_t]
  /// Scalars no face has, with the face used instead and their script.
  var missing: [MissingGlyph] = []
  /// Whether the text has a script whose words only a dictionary finds (DictionaryBreaks).
  private var needsDictionary = false

  var levels: [UInt8] { bidi.levels }

  /// A character that no font could draw.
  struct MissingGlyph: Hashable {
    /// Its index in the text.
    var index: Int
    var scalar: UInt32
    var face: Int
    var script: hb_script_t
  }

  /// Itemizes `text`: bidi levels against the paragraph's base direction, break
  /// opportunities for `language`, and a face per character chosen from each style's
  /// `choice` (`styles` is the chapter's table; the text's style indices point into it).
  init(
    _ text: CollectedText, styles: [ResolvedStyle], fonts: FontSet, rtl: Bool, language: String,
    preserveSpaces: Bool
  ) {
    let scalars = text.scalars
    bidi = BidiParagraph(
      text: ItemizedText.unicodeScalars(scalars), baseDirection: rtl ? .rtl : .ltr)
    breaks = LineBreakOpportunities.find(scalars, language: language)
    faces = []
    scripts = []
    assignFaces(
      text, styles: styles, fonts: fonts, preserveSpaces: preserveSpaces,
      cjkContent: ContentLanguage.isCJK(language))
    if needsDictionary { DictionaryBreaks.apply(scalars, scripts: scripts, breaks: &breaks) }
  }

  /// `scalars` as `Unicode.Scalar`s for FriBidi's input, written through a raw buffer of
  /// exactly `scalars.count` elements (`map` appended one by one, with a capacity check and
  /// a count store per scalar: ~20 instructions a character, ~18 M on moby-dick; session 17).
  /// A value that is no scalar (never, the text comes from `String`s) becomes a space.
  static func unicodeScalars(_ scalars: [UInt32]) -> [Unicode.Scalar] {
    scalars.withUnsafeBufferPointer { s in
      [Unicode.Scalar](unsafeUninitializedCapacity: s.count) { out, initialized in
        for k in 0..<s.count { out.initializeElement(at: k, to: Unicode.Scalar(s[k]) ?? " ") }
        initialized = s.count
      }
    }
  }

  /// Chooses each character's face: the style's if it has the glyph, else a fallback.
  /// The per-scalar results are written through raw buffers (one uniqueness and bounds check
  /// per paragraph instead of three per character: this loop sees every character of a book):
  /// the arrays' own storage, filled in place (a buffer copied into them at the end cost a
  /// copy of both, ~4 M instructions on moby-dick; session 17).
  private mutating func assignFaces(
    _ text: CollectedText, styles: [ResolvedStyle], fonts: FontSet, preserveSpaces: Bool,
    cjkContent: Bool
  ) {
    let n = text.scalars.count
    var scripts: [hb_script_t] = []
    // The closures' buffers hold the arrays' whole capacity: only their first `n` are used.
    let faces = [Int32](unsafeUninitializedCapacity: n) { facesBuffer, facesCount in
      let faces = UnsafeMutableBufferPointer(rebasing: facesBuffer[0..<n])
      faces.initialize(repeating: -1)
      facesCount = n
      scripts = [hb_script_t](unsafeUninitializedCapacity: n) { scriptsBuffer, scriptsCount in
        let scripts = UnsafeMutableBufferPointer(rebasing: scriptsBuffer[0..<n])
        scripts.initialize(repeating: HB_SCRIPT_COMMON)
        scriptsCount = n
        text.scalars.withUnsafeBufferPointer { scalars in
          text.styles.withUnsafeBufferPointer { sty in
            assignFaces(
              text, scalars, sty, faces, scripts, styles: styles, fonts: fonts,
              preserveSpaces: preserveSpaces, cjkContent: cjkContent)
          }
        }
      }
    }
    self.faces = faces
    self.scripts = scripts
  }

  private mutating func assignFaces(
    _ text: CollectedText, _ scalars: UnsafeBufferPointer<UInt32>, _ sty: UnsafeBufferPointer<Int>,
    _ faces: UnsafeMutableBufferPointer<Int32>, _ scripts: UnsafeMutableBufferPointer<hb_script_t>,
    styles: [ResolvedStyle], fonts: FontSet, preserveSpaces: Bool, cjkContent: Bool
  ) {
    var choiceStyle = -1
    var choice = FaceChoice(face: 0, syntheticBold: false, syntheticItalic: false)
    var previous: Int32 = -1  // the face of the character before, −1 after a boundary
    var cluster = 0  // where the current cluster (a base and its marks) starts
    var strong = HB_SCRIPT_COMMON  // the last strong script: Common characters follow it
    var ascii = [Int32](repeating: -2, count: 128)  // −2 not asked yet, −1 no face has it
    var asciiFace = -1
    var asciiScript = HB_SCRIPT_INVALID
    // Whether the table answers for an ASCII letter, and for another ASCII character, of
    // style `choiceStyle`: its face is the style's, and its script is Latin where the text's
    // is (letters) or is the text's (signs, which follow the strong script). Set where their
    // inputs change (on the general path), not tested per character (session 17).
    var asciiLetters = false
    var asciiSigns = false
    func asciiTableAnswers() {
      asciiLetters =
        asciiFace == choice.face && strong == HB_SCRIPT_LATIN && asciiScript == HB_SCRIPT_LATIN
      asciiSigns = asciiFace == choice.face && asciiScript == strong
    }
    for i in 0..<scalars.count {
      let v = scalars[i]
      if v == 0x20 && !preserveSpaces {  // a collapsible space: no face, a boundary
        previous = -1
        continue
      }
      // ASCII in the style and script the table holds and with its face known (most
      // characters of a Latin book): the same answer as the general path below, without its
      // tests for breaks, marks and script changes.
      if v < 0x80, sty[i] == choiceStyle {
        let letter = (v | 0x20) &- 0x61 < 26
        if letter ? asciiLetters : asciiSigns {
          let known = ascii[Int(v)]
          if known >= 0 {
            scripts[i] = letter ? HB_SCRIPT_LATIN : HB_SCRIPT_COMMON
            faces[i] = known
            cluster = i
            previous = v == 0x20 ? -1 : known
            continue
          }
        }
      }
      if v == 0x2028 || v == 0xAD
        || (v == 0xFFFC
          && (text.images[i] != nil || text.maths[i] != nil || text.inlineBoxes[i] != nil))
      {
        previous = -1
        continue
      }
      let script = Scripts.script(v)
      scripts[i] = script
      let si = sty[i]
      if si != choiceStyle {  // styles[si] copies the whole style: once per style run
        choiceStyle = si
        choice = styles[si].choice
        asciiTableAnswers()
      }
      if previous >= 0, v >= 0x300, script == HB_SCRIPT_INHERITED || Scripts.isMark(v) {
        // A mark stays on its base: the cluster moves to a face that has all of it.
        faces[i] = previous
        if !ScriptFaces.isIgnorable(v), !fonts.faces[Int(previous)].hasGlyph(v) {
          refit(
            text.scalars, cluster..<(i + 1), faces, fonts: fonts, choice: choice, script: strong,
            cjkContent: cjkContent)
          previous = faces[i]
        }
        continue
      }
      if script != HB_SCRIPT_COMMON && script != HB_SCRIPT_INHERITED && script != strong {
        strong = script
        if DictionaryBreaks.needsDictionary(script) { needsDictionary = true }
        asciiTableAnswers()
      }
      let resolved = script == HB_SCRIPT_COMMON ? strong : script
      var face = choice.face
      if v < 0x80 {
        // ASCII (most of a Latin book): the fallback walk's answer depends only on the
        // scalar, the style's face and the script, so it is asked once per scalar per run.
        if asciiFace != choice.face || asciiScript != resolved {
          asciiFace = choice.face
          asciiScript = resolved
          for k in ascii.indices { ascii[k] = -2 }
          asciiTableAnswers()
        }
        if ascii[Int(v)] == -2 {
          ascii[Int(v)] =
            fonts.face(for: v, choice: choice, script: resolved, cjkContent: cjkContent).map(
              Int32.init) ?? -1
        }
        if ascii[Int(v)] >= 0 {
          faces[i] = ascii[Int(v)]
          cluster = i
          previous = v == 0x20 ? -1 : ascii[Int(v)]
          continue
        }
      }
      if let f = fonts.face(for: v, choice: choice, script: resolved, cjkContent: cjkContent) {
        face = f
      } else if v >= 0x20, !ScriptFaces.isIgnorable(v) {
        missing.append(MissingGlyph(index: i, scalar: v, face: choice.face, script: resolved))
      }
      faces[i] = Int32(face)
      cluster = i
      previous = v == 0x20 ? -1 : Int32(face)
    }
  }

  /// Moves the cluster `range` to the first face that has all of it; a character no face
  /// has is listed in `missing` (the cluster keeps its face).
  private mutating func refit(
    _ scalars: [UInt32], _ range: Range<Int>,
    _ faces: UnsafeMutableBufferPointer<Int32>, fonts: FontSet, choice: FaceChoice,
    script: hb_script_t, cjkContent: Bool
  ) {
    let chars = scalars[range]
    if let f = fonts.face(covering: chars, choice: choice, script: script, cjkContent: cjkContent) {
      for k in range { faces[k] = Int32(f) }
      return
    }
    let last = range.upperBound - 1
    if fonts.face(for: chars.last!, choice: choice, script: script, cjkContent: cjkContent) == nil {
      missing.append(
        MissingGlyph(index: last, scalar: chars.last!, face: Int(faces[last]), script: script))
    }
  }

  /// A maximal stretch of characters with one style, face, script and bidi level.
  struct Run: Equatable, CustomStringConvertible {
    var range: Range<Int>
    var style: Int
    var face: Int
    var script: hb_script_t
    var level: UInt8

    var description: String {
      let tag = Scripts.tag(script)
      return
        "\(range.lowerBound)..<\(range.upperBound) style \(style) face \(face) \(tag) level \(level)"
    }
  }

  /// The run view: characters without a face (spaces, breaks) end a run and belong to none;
  /// Common and Inherited characters join the run around them.
  func runs(_ text: CollectedText) -> [Run] {
    var runs: [Run] = []
    for i in faces.indices where faces[i] >= 0 {
      let level = bidi.level(at: i)
      let script = scripts[i]
      let weak = script == HB_SCRIPT_COMMON || script == HB_SCRIPT_INHERITED
      if var last = runs.last, last.range.upperBound == i, last.style == text.styles[i],
        last.face == Int(faces[i]), last.level == level,
        weak || last.script == script || last.script == HB_SCRIPT_COMMON
      {
        last.range = last.range.lowerBound..<(i + 1)
        if !weak { last.script = script }
        runs[runs.count - 1] = last
      } else {
        runs.append(
          Run(
            range: i..<(i + 1), style: text.styles[i], face: Int(faces[i]),
            script: weak ? HB_SCRIPT_COMMON : script, level: level))
      }
    }
    return runs
  }
}
