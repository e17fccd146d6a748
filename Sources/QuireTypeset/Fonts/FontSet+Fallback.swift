// Per-cluster fallback: a cluster (a base and the marks and joiners that follow it) is drawn
// by the first face in the fallback chain that has every one of its characters, so a mark
// is never shaped apart from its base and a conjunct never straddles two fonts.
//
// The per-character chain (`FontSet.face(for:choice:script:)`) decides the common case in
// one coverage lookup; this file is only consulted when a cluster's later character is
// missing from the face its base chose, which on Latin books never happens.

import CHarfBuzz

extension FontSet {
  /// The vendored face of `script`'s family nearest to `weight` (Bold from 600 up).
  func scriptFace(_ script: hb_script_t, weight: Int) -> Int? {
    guard let members = scriptFaces[script.rawValue], let first = members.first else {
      return nil
    }
    if weight >= 600, let bold = members.first(where: { faces[$0].weight >= 600 }) {
      return bold
    }
    return first
  }

  /// Whether face `f` has every character of `cluster` a font must draw.
  func covers(_ f: Int, _ cluster: ArraySlice<UInt32>) -> Bool {
    cluster.allSatisfy { ScriptFaces.isIgnorable($0) || faces[f].hasGlyph($0) }
  }

  /// The first face in the chain for `choice` and `script` that has all of `cluster`
  /// (at most 32 characters are considered; a longer cluster is judged by its start).
  func face(
    covering cluster: ArraySlice<UInt32>, choice: FaceChoice, script: hb_script_t,
    cjkContent: Bool = false
  ) -> Int? {
    let part = cluster.prefix(32)
    guard let base = part.first else { return nil }
    var chain: [Int] = [choice.face]
    if let f = face(for: base, choice: choice, script: script, cjkContent: cjkContent) {
      chain.append(f)
    }
    if let s = scriptFace(script, weight: faces[choice.face].weight) { chain.append(s) }
    chain += faces.indices
    return chain.first { covers($0, part) }
  }
}
