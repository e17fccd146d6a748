import CHyphen
import Foundation
import Testing

@testable import QuireTypeset

/// The hand-built dictionary must be libhyphen's own, state for state: same numbering,
/// transitions in the same order, same matches, replacements, fallbacks and second level.
@Suite struct PatternLoaderTests {
  static var dictionaries: [String] {
    let dir = "/usr/share/hyphen"
    let names = (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []
    // Symlinks name the same files; compare each file once.
    var seen: Set<String> = []
    var out: [String] = []
    for n in names.sorted() where n.hasSuffix(".dic") {
      let real = URL(fileURLWithPath: "\(dir)/\(n)").resolvingSymlinksInPath().path
      if seen.insert(real).inserted { out.append(real) }
    }
    return out
  }

  static func string(_ p: UnsafeMutablePointer<CChar>?) -> [UInt8]? {
    guard let p else { return nil }
    return Array(UnsafeRawBufferPointer(start: p, count: strlen(p)))
  }

  /// A description of the first difference, or nil when equal.
  static func difference(
    _ a: UnsafeMutablePointer<HyphenDict>?, _ b: UnsafeMutablePointer<HyphenDict>?, depth: Int = 0
  ) -> String? {
    guard let a, let b else { return a == nil && b == nil ? nil : "level \(depth): nil vs non-nil" }
    let x = a.pointee
    let y = b.pointee
    if x.lhmin != y.lhmin || x.rhmin != y.rhmin || x.clhmin != y.clhmin || x.crhmin != y.crhmin {
      return "level \(depth): hyphen minimums differ"
    }
    if x.nohyphenl != y.nohyphenl || x.utf8 != y.utf8 { return "level \(depth): header differs" }
    if (x.nohyphen == nil) != (y.nohyphen == nil) { return "level \(depth): nohyphen" }
    if let p = x.nohyphen, let q = y.nohyphen {
      // The list is NUL-separated: compare all its bytes (strlen of the original + 1).
      var k = 0
      var zeros = 0
      while zeros <= Int(x.nohyphenl) {
        if p[k] != q[k] { return "level \(depth): nohyphen byte \(k)" }
        if p[k] == 0 { zeros += 1 }
        k += 1
      }
    }
    let csetA = withUnsafeBytes(of: x.cset) { Array($0) }
    let csetB = withUnsafeBytes(of: y.cset) { Array($0) }
    if csetA != csetB { return "level \(depth): cset" }
    if x.num_states != y.num_states {
      return "level \(depth): \(x.num_states) vs \(y.num_states) states"
    }
    for s in 0..<Int(x.num_states) {
      let u = x.states[s]
      let v = y.states[s]
      if string(u.match) != string(v.match) { return "level \(depth) state \(s): match" }
      if string(u.repl) != string(v.repl) { return "level \(depth) state \(s): repl" }
      if u.repl != nil && (u.replindex != v.replindex || u.replcut != v.replcut) {
        return "level \(depth) state \(s): replindex/replcut"
      }
      if u.fallback_state != v.fallback_state { return "level \(depth) state \(s): fallback" }
      if u.num_trans != v.num_trans { return "level \(depth) state \(s): transition count" }
      for t in 0..<Int(u.num_trans)
      where u.trans[t].ch != v.trans[t].ch || u.trans[t].new_state != v.trans[t].new_state {
        return "level \(depth) state \(s): transition \(t)"
      }
    }
    return difference(x.nextlevel, y.nextlevel, depth: depth + 1)
  }

  @Test func sameStructureAsLibhyphen() throws {
    let paths = PatternLoaderTests.dictionaries
    guard !paths.isEmpty else {
      print("skip: no /usr/share/hyphen dictionaries")
      return
    }
    for path in paths {
      let mine = PatternLoader.load(path: path)
      #expect(mine != nil, "\(path): fell back to libhyphen")
      let theirs = hnj_hyphen_load(path)
      #expect(PatternLoaderTests.difference(mine, theirs) == nil, "\(path)")
      if let mine { hnj_hyphen_free(mine) }
      if let theirs { hnj_hyphen_free(theirs) }
    }
  }
}
