// Which vendored face draws each script when the style's own face cannot.
//
// Per-script Noto faces (Serif designs where Noto has one, since they are book text; Sans
// for Oriya, which has no Serif in the Debian 12 snapshot) sit in fonts/, Regular and Bold.
// A script maps to a family; CSS weight and style matching inside the family (FontSet.match)
// then picks Bold for bold text. Hangul has its own subset face (the CJK face carries no
// Hangul); Han and Kana keep Noto Serif CJK.
//
// Rejected: one pan-Unicode face (none is OFL, complete and within the 80 MB budget), and
// scanning every face for every missing character (a face per script is found in one lookup;
// the coverage scan is kept only as the tail of the chain).

import CHarfBuzz

enum ScriptFaces {
  /// Vendored per-script families: file stem, family name, scripts it is chosen for.
  static let families: [(stem: String, family: String, scripts: [hb_script_t])] = [
    ("NotoSerifHebrew", "noto serif hebrew", [HB_SCRIPT_HEBREW]),
    ("NotoSerifArmenian", "noto serif armenian", [HB_SCRIPT_ARMENIAN]),
    ("NotoSerifGeorgian", "noto serif georgian", [HB_SCRIPT_GEORGIAN]),
    ("NotoSerifEthiopic", "noto serif ethiopic", [HB_SCRIPT_ETHIOPIC]),
    ("NotoSerifDevanagari", "noto serif devanagari", [HB_SCRIPT_DEVANAGARI]),
    ("NotoSerifBengali", "noto serif bengali", [HB_SCRIPT_BENGALI]),
    ("NotoSerifGurmukhi", "noto serif gurmukhi", [HB_SCRIPT_GURMUKHI]),
    ("NotoSerifGujarati", "noto serif gujarati", [HB_SCRIPT_GUJARATI]),
    ("NotoSansOriya", "noto sans oriya", [HB_SCRIPT_ORIYA]),
    ("NotoSerifTamil", "noto serif tamil", [HB_SCRIPT_TAMIL]),
    ("NotoSerifTelugu", "noto serif telugu", [HB_SCRIPT_TELUGU]),
    ("NotoSerifKannada", "noto serif kannada", [HB_SCRIPT_KANNADA]),
    ("NotoSerifMalayalam", "noto serif malayalam", [HB_SCRIPT_MALAYALAM]),
    ("NotoSerifSinhala", "noto serif sinhala", [HB_SCRIPT_SINHALA]),
    ("NotoSerifThai", "noto serif thai", [HB_SCRIPT_THAI]),
    ("NotoSerifLao", "noto serif lao", [HB_SCRIPT_LAO]),
    ("NotoSerifKhmer", "noto serif khmer", [HB_SCRIPT_KHMER]),
    ("NotoSerifMyanmar", "noto serif myanmar", [HB_SCRIPT_MYANMAR]),
    ("NotoSerifTibetan", "noto serif tibetan", [HB_SCRIPT_TIBETAN]),
  ]

  /// The files `FontSet` loads for the per-script families (Regular and Bold of each, the
  /// Hangul face, the first Noto Sans Symbols).
  static var vendored: [(file: String, family: String, weight: Int, italic: Bool)] {
    var out: [(file: String, family: String, weight: Int, italic: Bool)] = []
    for f in families {
      out.append(("\(f.stem)-Regular.ttf", f.family, 400, false))
      out.append(("\(f.stem)-Bold.ttf", f.family, 700, false))
    }
    out.append(("NotoSerifKR-Hangul-Regular.otf", "noto serif kr", 400, false))
    out.append(("NotoSansSymbols-Regular.ttf", "noto sans symbols", 400, false))
    return out
  }

  /// Script → family name, for `FontSet`'s lookup.
  static let familyOfScript: [UInt32: String] = {
    var map: [UInt32: String] = [:]
    for f in families { for s in f.scripts { map[s.rawValue] = f.family } }
    map[HB_SCRIPT_HANGUL.rawValue] = "noto serif kr"
    return map
  }()

  /// Scalars a face need not have: HarfBuzz hides default ignorables (joiners, variation
  /// selectors, bidi controls), so they never decide which face draws a cluster.
  static func isIgnorable(_ v: UInt32) -> Bool {
    (0x200B...0x200F).contains(v) || (0x202A...0x202E).contains(v)
      || (0x2060...0x206F).contains(v) || (0xFE00...0xFE0F).contains(v) || v == 0xFEFF
      || v == 0x34F || v == 0xAD || (0xE0000...0xE0FFF).contains(v)
  }
}

extension Scripts {
  /// Whether `scalar` is a combining mark (general category Mn, Mc or Me): it belongs to
  /// the cluster of the base before it.
  static func isMark(_ scalar: UInt32) -> Bool {
    switch hb_unicode_general_category(funcs.p, scalar) {
    case HB_UNICODE_GENERAL_CATEGORY_NON_SPACING_MARK, HB_UNICODE_GENERAL_CATEGORY_SPACING_MARK,
      HB_UNICODE_GENERAL_CATEGORY_ENCLOSING_MARK:
      return true
    default: return false
    }
  }
}
