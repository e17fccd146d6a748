// A CSS tokenizer after CSS Syntax Level 3, written by hand because no installed or
// packaged library fits: Debian 12 offers libcss-parser (CSS1 only, no error recovery) and
// no longer ships libcroco (deprecated upstream); netsurf's libcss and browser engines
// (lexbor, Blink) are not packaged as -dev libraries we may use. Only what the cascade
// needs is kept: no unicode-range tokens; escapes are decoded; every loop advances at least
// one scalar. Bounded: the caller caps the sheet size; the tokenizer caps the token count.

struct CSSToken: Sendable, Hashable {
  enum Kind: Sendable, Hashable {
    case ident, function, atKeyword, hash, string, url, badString, badURL
    case number, percentage, dimension
    case whitespace, delim, colon, semicolon, comma
    case openSquare, closeSquare, openParen, closeParen, openCurly, closeCurly
    case cdo, cdc
  }
  var kind: Kind
  /// Identifier/function name/string contents/url/unit-less representation; the delim character.
  var text: String
  var number: Double = 0
  /// Unit of a dimension, lower-cased.
  var unit: String = ""
  /// A numeric token's source text (sign, digits, exponent, unit as written): what
  /// `unicode-range` is read from (CSS Syntax 3 §7.1), where `U+00E0` is not a number.
  var raw: String = ""

  var isWhitespace: Bool { kind == .whitespace }
}

struct CSSTokenizer {
  static let maxTokens = 2_000_000

  static func tokenize(_ source: String) -> [CSSToken] {
    let s = Array(source.unicodeScalars)
    var i = 0
    var out: [CSSToken] = []
    out.reserveCapacity(s.count / 3)
    let n = s.count

    func peek(_ k: Int) -> Unicode.Scalar? { i + k < n ? s[i + k] : nil }
    func isNameStart(_ c: Unicode.Scalar) -> Bool {
      (c >= "a" && c <= "z") || (c >= "A" && c <= "Z") || c == "_" || c.value >= 0x80
    }
    func isName(_ c: Unicode.Scalar) -> Bool { isNameStart(c) || isDigit(c) || c == "-" }
    func isDigit(_ c: Unicode.Scalar) -> Bool { c >= "0" && c <= "9" }
    func isWS(_ c: Unicode.Scalar) -> Bool {
      c == " " || c == "\t" || c == "\n" || c == "\r" || c == "\u{0C}"
    }
    func validEscape(_ a: Unicode.Scalar?, _ b: Unicode.Scalar?) -> Bool {
      a == "\\" && b != nil && b != "\n"
    }
    func startsIdent(_ a: Unicode.Scalar?, _ b: Unicode.Scalar?, _ c: Unicode.Scalar?) -> Bool {
      guard let a else { return false }
      if a == "-" {
        guard let b else { return false }
        return isNameStart(b) || b == "-" || validEscape(b, c)
      }
      if isNameStart(a) { return true }
      return validEscape(a, b)
    }
    func startsNumber(_ a: Unicode.Scalar?, _ b: Unicode.Scalar?, _ c: Unicode.Scalar?) -> Bool {
      guard let a else { return false }
      if a == "+" || a == "-" {
        guard let b else { return false }
        if isDigit(b) { return true }
        return b == "." && c.map(isDigit) == true
      }
      if a == "." { return b.map(isDigit) == true }
      return isDigit(a)
    }
    // Consumes an escape; `i` is just after the backslash.
    func consumeEscape() -> Unicode.Scalar {
      guard i < n else { return "\u{FFFD}" }
      var hex = 0
      var digits = 0
      while i < n, digits < 6, let v = s[i].isASCII ? Int(String(s[i]), radix: 16) : nil {
        hex = hex * 16 + v
        digits += 1
        i += 1
      }
      if digits > 0 {
        if i < n, isWS(s[i]) { i += 1 }
        if hex == 0 || hex > 0x10FFFF || (hex >= 0xD800 && hex <= 0xDFFF) { return "\u{FFFD}" }
        return Unicode.Scalar(UInt32(hex)) ?? "\u{FFFD}"
      }
      let c = s[i]
      i += 1
      return c
    }
    func consumeName() -> String {
      var r = String.UnicodeScalarView()
      while i < n {
        let c = s[i]
        if isName(c) {
          r.append(c)
          i += 1
        } else if validEscape(c, peek(1)) {
          i += 1
          r.append(consumeEscape())
        } else {
          break
        }
      }
      return String(r)
    }
    func consumeNumber() -> Double {
      let start = i
      if i < n, s[i] == "+" || s[i] == "-" { i += 1 }
      while i < n, isDigit(s[i]) { i += 1 }
      if i + 1 < n, s[i] == ".", isDigit(s[i + 1]) {
        i += 2
        while i < n, isDigit(s[i]) { i += 1 }
      }
      if i + 1 < n, s[i] == "e" || s[i] == "E" {
        if isDigit(s[i + 1]) {
          i += 1
          while i < n, isDigit(s[i]) { i += 1 }
        } else if i + 2 < n, s[i + 1] == "+" || s[i + 1] == "-", isDigit(s[i + 2]) {
          i += 2
          while i < n, isDigit(s[i]) { i += 1 }
        }
      }
      var text = String(String.UnicodeScalarView(s[start..<i]))
      if text.hasPrefix("+") { text.removeFirst() }
      let v = Double(text) ?? 0
      return v.isFinite ? v : 0
    }
    func consumeNumeric() -> CSSToken {
      let start = i
      let v = consumeNumber()
      func raw() -> String { String(String.UnicodeScalarView(s[start..<i])) }
      if startsIdent(peek(0), peek(1), peek(2)) {
        let unit = consumeName().lowercased()
        return CSSToken(kind: .dimension, text: "", number: v, unit: unit, raw: raw())
      }
      if i < n, s[i] == "%" {
        i += 1
        return CSSToken(kind: .percentage, text: "", number: v, raw: raw())
      }
      return CSSToken(kind: .number, text: "", number: v, raw: raw())
    }
    func consumeString(_ quote: Unicode.Scalar) -> CSSToken {
      var r = String.UnicodeScalarView()
      while i < n {
        let c = s[i]
        i += 1
        if c == quote { return CSSToken(kind: .string, text: String(r)) }
        if c == "\n" {
          i -= 1
          return CSSToken(kind: .badString, text: String(r))
        }
        if c == "\\" {
          if i >= n { break }
          if s[i] == "\n" {
            i += 1
            continue
          }
          r.append(consumeEscape())
          continue
        }
        r.append(c)
      }
      return CSSToken(kind: .string, text: String(r))
    }
    func consumeURL() -> CSSToken {
      while i < n, isWS(s[i]) { i += 1 }
      var r = String.UnicodeScalarView()
      while i < n {
        let c = s[i]
        i += 1
        if c == ")" { return CSSToken(kind: .url, text: String(r)) }
        if isWS(c) {
          while i < n, isWS(s[i]) { i += 1 }
          if i < n, s[i] == ")" {
            i += 1
            return CSSToken(kind: .url, text: String(r))
          }
          break
        }
        if c == "\"" || c == "'" || c == "(" { break }
        if c == "\\" {
          if i < n, s[i] != "\n" {
            r.append(consumeEscape())
            continue
          }
          break
        }
        r.append(c)
      }
      // Bad URL: skip to the closing parenthesis.
      while i < n {
        let c = s[i]
        i += 1
        if c == ")" { break }
        if c == "\\", i < n { i += 1 }
      }
      return CSSToken(kind: .badURL, text: "")
    }

    while i < n, out.count < maxTokens {
      let c = s[i]
      if c == "/" && peek(1) == "*" {
        i += 2
        while i < n && !(s[i] == "*" && peek(1) == "/") { i += 1 }
        i = min(n, i + 2)
        continue
      }
      if isWS(c) {
        while i < n, isWS(s[i]) { i += 1 }
        out.append(CSSToken(kind: .whitespace, text: " "))
        continue
      }
      switch c {
      case "\"", "'":
        i += 1
        out.append(consumeString(c))
      case "#":
        if let p = peek(1), isName(p) || validEscape(p, peek(2)) {
          i += 1
          out.append(CSSToken(kind: .hash, text: consumeName()))
        } else {
          i += 1
          out.append(CSSToken(kind: .delim, text: "#"))
        }
      case "(":
        i += 1
        out.append(CSSToken(kind: .openParen, text: "("))
      case ")":
        i += 1
        out.append(CSSToken(kind: .closeParen, text: ")"))
      case "[":
        i += 1
        out.append(CSSToken(kind: .openSquare, text: "["))
      case "]":
        i += 1
        out.append(CSSToken(kind: .closeSquare, text: "]"))
      case "{":
        i += 1
        out.append(CSSToken(kind: .openCurly, text: "{"))
      case "}":
        i += 1
        out.append(CSSToken(kind: .closeCurly, text: "}"))
      case ",":
        i += 1
        out.append(CSSToken(kind: .comma, text: ","))
      case ":":
        i += 1
        out.append(CSSToken(kind: .colon, text: ":"))
      case ";":
        i += 1
        out.append(CSSToken(kind: .semicolon, text: ";"))
      case "<" where peek(1) == "!" && peek(2) == "-" && peek(3) == "-":
        i += 4
        out.append(CSSToken(kind: .cdo, text: "<!--"))
      case "@":
        i += 1
        if startsIdent(peek(0), peek(1), peek(2)) {
          out.append(CSSToken(kind: .atKeyword, text: consumeName().lowercased()))
        } else {
          out.append(CSSToken(kind: .delim, text: "@"))
        }
      default:
        if startsNumber(c, peek(1), peek(2)) {
          out.append(consumeNumeric())
        } else if c == "-" && peek(1) == "-" && peek(2) == ">" {
          i += 3
          out.append(CSSToken(kind: .cdc, text: "-->"))
        } else if startsIdent(c, peek(1), peek(2)) {
          let name = consumeName()
          if i < n, s[i] == "(" {
            i += 1
            if name.lowercased() == "url" {
              var j = i
              while j < n, isWS(s[j]) { j += 1 }
              if j < n, s[j] == "\"" || s[j] == "'" {
                out.append(CSSToken(kind: .function, text: "url"))
              } else {
                out.append(consumeURL())
              }
            } else {
              out.append(CSSToken(kind: .function, text: name.lowercased()))
            }
          } else {
            out.append(CSSToken(kind: .ident, text: name))
          }
        } else {
          i += 1
          out.append(CSSToken(kind: .delim, text: String(c)))
        }
      }
    }
    return out
  }
}
