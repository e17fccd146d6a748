// The faces a book may use, and the rules that pick one for a style and a character.
//
// Sources, in order of preference for a family name: the book's embedded faces (only with
// publisher styles on), the reader's `--font`, the vendored fonts in fonts/. Generic families
// map to vendored faces (serif → Noto Serif, sans-serif → DejaVu Sans, monospace → Noto Sans
// Mono). Within a family the face is chosen by CSS font matching (style first, then the
// nearest weight); a missing bold or italic face is synthesized by the rasterizer.
// Per character, fallback goes: the chosen face, in text whose language is Chinese, Japanese
// or Korean the CJK face, the body face, the script's vendored face
// (CJK → Noto Serif CJK, Arabic → Noto Naskh Arabic, the others in `ScriptFaces`), Noto Sans
// Symbols 2, Noto Sans Symbols, Noto Sans Math, DejaVu Sans, then the system's fonts found
// for the book's uncovered characters (SystemFonts.swift); clusters are kept whole by
// `FontSet+Fallback.swift`.

import CHarfBuzz
import Foundation
import QuireCore
import QuireIngest

/// A face chosen for a style, with the synthesis the rasterizer must apply.
struct FaceChoice: Hashable, Sendable {
  var face: Int
  var syntheticBold: Bool
  var syntheticItalic: Bool
}

final class FontSet: Sendable {
  let faces: [Face]
  /// Units per em of each face (read without touching the class instances).
  let upem: [Double]
  /// Lower-cased family name → indices into `faces`.
  let families: [String: [Int]]
  /// The family used for default and generic serif text.
  let bodyFamily: String
  let warnings: [Diagnostic]
  private let cjk: Int?
  private let arabic: Int?
  private let tail: [Int]
  /// Script (`hb_script_t` raw value) → the vendored faces of its family (`ScriptFaces`).
  let scriptFaces: [UInt32: [Int]]
  /// Per face, the faces of its family with the same descriptors but for `unicode-range`,
  /// the last defined first (see FaceMatching.swift).
  let composites: [[Int]]
  /// Per face: no `unicode-range` and alone in its composite, so `composite(for:_:)` is
  /// the face's own glyph test (every vendored face, most embedded ones; it runs per
  /// character).
  let plainFaces: [Bool]
  /// What the set was made from, to make it again with system faces (SystemFonts.swift).
  let embeddedSource: [EmbeddedFont]
  let userFont: String?

  static let vendored: [(file: String, family: String, weight: Int, italic: Bool)] =
    baseFaces + ScriptFaces.vendored + [("STIXTwoMath-Regular.ttf", "stix two math", 400, false)]
  private static let baseFaces: [(file: String, family: String, weight: Int, italic: Bool)] = [
    ("NotoSerif-Regular.ttf", "noto serif", 400, false),
    ("NotoSerif-Italic.ttf", "noto serif", 400, true),
    ("NotoSerif-Bold.ttf", "noto serif", 700, false),
    ("NotoSerif-BoldItalic.ttf", "noto serif", 700, true),
    ("NotoSansMono-Regular.ttf", "noto sans mono", 400, false),
    ("NotoSansMono-Bold.ttf", "noto sans mono", 700, false),
    ("NotoSerifCJK-Regular.otf", "noto serif cjk", 400, false),
    ("NotoNaskhArabic-Regular.ttf", "noto naskh arabic", 400, false),
    ("NotoNaskhArabic-Bold.ttf", "noto naskh arabic", 700, false),
    ("NotoSansSymbols2-Regular.ttf", "noto sans symbols 2", 400, false),
    ("NotoSansMath-Regular.ttf", "noto sans math", 400, false),
    ("DejaVuSans.ttf", "dejavu sans", 400, false),
  ]

  /// Finds fonts/: `QUIRE_FONTS`, else walking up from the executable, else the source tree.
  static func locateFontsFolder() throws(FontError) -> URL {
    let fm = FileManager.default
    var searched: [String] = []
    func holdsFonts(_ dir: URL) -> Bool {
      fm.fileExists(atPath: dir.appendingPathComponent("NotoSerif-Regular.ttf").path)
    }
    if let env = ProcessInfo.processInfo.environment["QUIRE_FONTS"], !env.isEmpty {
      let u = URL(fileURLWithPath: env)
      if holdsFonts(u) { return u }
      searched.append(env)
    }
    var dir = URL(fileURLWithPath: CommandLine.arguments.first ?? "/").resolvingSymlinksInPath()
      .deletingLastPathComponent()
    if let exe = try? fm.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
      dir = URL(fileURLWithPath: exe).deletingLastPathComponent()
    }
    for _ in 0..<8 {
      let candidate = dir.appendingPathComponent("fonts")
      if holdsFonts(candidate) { return candidate }
      searched.append(candidate.path)
      if dir.path == "/" { break }
      dir = dir.deletingLastPathComponent()
    }
    // Sources/QuireTypeset/Fonts/FontSet.swift → the package root.
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    let candidate = root.appendingPathComponent("fonts")
    if holdsFonts(candidate) { return candidate }
    searched.append(candidate.path)
    throw .fontsFolderMissing(searched: searched)
  }

  init(embedded: [EmbeddedFont], userFont: String?, system: [SystemFonts.FontFile] = [])
    throws(FontError)
  {
    let folder = try FontSet.locateFontsFolder()
    var faces: [Face] = []
    var families: [String: [Int]] = [:]
    var warnings: [Diagnostic] = []
    func add(_ face: Face, _ family: String) {
      families[family, default: []].append(faces.count)
      faces.append(face)
    }
    for (v, face) in zip(FontSet.vendored, try VendoredFaces.faces(in: folder)) {
      add(face, v.family)
    }
    for alias in [
      "noto serif cjk jp", "noto serif cjk sc", "noto serif cjk tc", "noto serif jp",
      "noto serif sc",
    ] {
      families[alias] = families["noto serif cjk"]
    }
    var body = "noto serif"
    if let user = userFont, !user.isEmpty {
      let looksLikePath =
        user.contains("/")
        || [".ttf", ".otf", ".ttc", ".woff", ".woff2"].contains { user.lowercased().hasSuffix($0) }
      if looksLikePath {
        let url = URL(fileURLWithPath: user)
        let data: Data
        do { data = try Data(contentsOf: url, options: .alwaysMapped) } catch {
          throw .unreadable(path: user, reason: "\(error.localizedDescription)")
        }
        let sfnt = try FontContainer.unwrap(data, faceIndex: 0, origin: url.path)
        let wrapped = [.woff, .woff2].contains(FontContainer(data))
        let face = try Face(
          data: sfnt.data, origin: url.path, family: "user", weight: 400, italic: false,
          file: wrapped ? nil : url.path)
        let name = (face.declaredFamily ?? url.deletingPathExtension().lastPathComponent)
          .lowercased()
        add(face, name)
        body = name
      } else if families[user.lowercased()] != nil {
        body = user.lowercased()
      } else if let generic = FontSet.generic(user.lowercased()) {
        body = generic
      } else if !embedded.contains(where: { $0.family.lowercased() == user.lowercased() }) {
        warnings.append(
          Diagnostic(
            .fontUnavailable, file: user, message: "font family not found; using Noto Serif"))
      } else {
        body = user.lowercased()
      }
    }
    for e in EmbeddedFaces.open(embedded, installed: faces, warnings: &warnings) {
      add(e.face, e.family)
    }
    var systemFaces: [Int] = []
    for (k, file) in system.enumerated() {
      guard let face = FontSet.systemFace(file, warnings: &warnings) else { continue }
      systemFaces.append(faces.count)
      add(face, "system fallback \(k)")
    }
    self.embeddedSource = embedded
    self.userFont = userFont
    self.faces = faces
    self.upem = faces.map(\.upem)
    self.families = families
    self.bodyFamily = body
    self.warnings = warnings
    let composites = FaceMatching.composites(faces, families: families)
    self.composites = composites
    plainFaces = faces.indices.map {
      composites[$0].count == 1 && faces[$0].descriptors.unicodeRange.isEmpty
    }
    cjk = families["noto serif cjk"]?.first
    arabic = families["noto naskh arabic"]?.first
    tail =
      [
        families["noto sans symbols 2"]!.first!, families["noto sans symbols"]!.first!,
        families["noto sans math"]!.first!, families["dejavu sans"]!.first!,
      ] + systemFaces
    scriptFaces = ScriptFaces.familyOfScript.compactMapValues { families[$0] }
  }

  static func generic(_ name: String) -> String? {
    switch name {
    case "serif", "ui-serif", "fantasy", "cursive": return "noto serif"
    case "sans-serif", "ui-sans-serif", "system-ui": return "dejavu sans"
    case "monospace", "ui-monospace": return "noto sans mono"
    default: return nil
    }
  }

  /// The face for a style: first family in the list that resolves, CSS matching within it.
  func choose(_ style: ComputedStyle, publisherFonts: Bool) -> FaceChoice {
    var family = bodyFamily
    for raw in style.fontFamilies.prefix(16) {
      let name = raw.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "\"' "))
      if let g = FontSet.generic(name) {
        family =
          (g == "noto serif" || g == "dejavu sans") && bodyFamily != "noto serif" ? bodyFamily : g
        break
      }
      if let members = families[name],
        publisherFonts || members.allSatisfy({ !faces[$0].record.origin.hasPrefix("book:") })
      {
        family = name
        break
      }
    }
    return match(family: family, weight: style.fontWeight, italic: style.italic)
  }

  func match(family: String, weight: Int, italic: Bool) -> FaceChoice {
    let members = families[family] ?? families["noto serif"]!
    let request = FontRequest(weight: Double(weight), slant: italic ? .italic : .normal)
    return FaceMatching.choice(members, faces: faces, composites: composites, request: request)
  }

  /// The face that draws `scalar`, starting from `choice`; nil when no face has it.
  /// `cjkContent`: the text's language is written in Han, kana or Hangul (`ContentLanguage
  /// .isCJK`); a character the chosen face lacks then goes to the CJK face first, when it has
  /// it (CSS Fonts 4 §5.4: system fallback may take the content language into account, as
  /// browsers do: Ⅷ, ①, → in Japanese text drawn by the Japanese font, not a Latin one).
  func face(for scalar: UInt32, choice: FaceChoice, script: hb_script_t, cjkContent: Bool = false)
    -> Int?
  {
    if let own = composite(for: scalar, choice.face) { return own }
    if cjkContent, let c = cjk, faces[c].hasGlyph(scalar) { return c }
    let body = match(
      family: bodyFamily, weight: faces[choice.face].weight, italic: faces[choice.face].italic
    ).face
    if body != choice.face, let own = composite(for: scalar, body) { return own }
    var scriptFace: Int?
    switch script {
    case HB_SCRIPT_HAN, HB_SCRIPT_HIRAGANA, HB_SCRIPT_KATAKANA, HB_SCRIPT_HANGUL,
      HB_SCRIPT_BOPOMOFO:
      scriptFace = cjk
    case HB_SCRIPT_ARABIC, HB_SCRIPT_SYRIAC: scriptFace = arabic
    default:
      scriptFace =
        (0x3000...0x303F).contains(scalar) || (0xFF00...0xFFEF).contains(scalar) ? cjk : nil
    }
    if let s = scriptFace, faces[s].hasGlyph(scalar) { return s }
    if let s = self.scriptFace(script, weight: faces[choice.face].weight),
      faces[s].hasGlyph(scalar)
    {
      return s
    }
    if let c = cjk, scriptFace == nil, faces[c].hasGlyph(scalar), (0x2E80...0xFFFF).contains(scalar)
    {
      return c
    }
    for t in tail where faces[t].hasGlyph(scalar) { return t }
    if let a = arabic, faces[a].hasGlyph(scalar) { return a }
    if let c = cjk, faces[c].hasGlyph(scalar) { return c }
    return nil
  }

  /// A system font file as a face, or a warning when it cannot be used.
  static func systemFace(_ file: SystemFonts.FontFile, warnings: inout [Diagnostic]) -> Face? {
    do {
      let data = try Data(contentsOf: URL(fileURLWithPath: file.path), options: .alwaysMapped)
      return try Face(
        data: data, origin: file.path, family: file.family.lowercased(), weight: 400,
        italic: false, faceIndex: file.index, file: file.path)
    } catch {
      warnings.append(
        Diagnostic(.fontUnavailable, file: file.path, message: "system font not usable: \(error)"))
      return nil
    }
  }
}
