// Typeset: Document → pages of positioned glyph runs (no pixels).
// (Design essay to be written by the Typeset owner.)
import Foundation
import QuireIngest
import CFreeType
import CHarfBuzz
import CUnibreak
import CFriBidi
import CHyphen
