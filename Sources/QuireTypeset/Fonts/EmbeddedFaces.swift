// EmbeddedFaces: opens the faces of a book's @font-face rules, one `src` entry after another.
//
// Each rule's sources are tried in `src` order until one opens: a file from the book is
// unwrapped (`FontContainer`: WOFF/WOFF2 to sfnt, a collection's face picked) and handed to
// `Face`; a `local("Name")` looks among the faces already loaded — the vendored fonts and the
// reader's `--font` — by PostScript name, full name or family (Quire vendors its fonts and
// never reads the system's for `local()`, so output does not depend on the machine). A source
// that fails is a warning naming it and the reason; the rule is dropped only when all fail.
//
// A collection's face: `url(x.ttc#2)` takes face 2, `url(x.ttc#Name)` the face whose
// PostScript, full or family name is Name, and a bare `url(x.ttc)` the face whose family
// matches the rule's `font-family` (else face 0). Names are read from at most
// `FontContainer.maxCollectionFaces` faces.

import CHarfBuzz
import Foundation
import QuireCore
import QuireIngest

/// One @font-face rule's face, opened.
struct EmbeddedFace {
  var face: Face
  var family: String
}

enum EmbeddedFaces {
  /// The faces of `fonts` (at most `limit` rules), with a warning per source that failed.
  static func open(
    _ fonts: [EmbeddedFont], installed: [Face], limit: Int = 256, warnings: inout [Diagnostic]
  ) -> [EmbeddedFace] {
    var out: [EmbeddedFace] = []
    for e in fonts.prefix(limit) {
      if let face = open(e, installed: installed, warnings: &warnings) {
        out.append(EmbeddedFace(face: face, family: e.family.lowercased()))
      }
    }
    return out
  }

  /// The first source of `e` that opens, or nil.
  static func open(_ e: EmbeddedFont, installed: [Face], warnings: inout [Diagnostic]) -> Face? {
    let family = e.family.lowercased()
    for source in e.sources {
      switch source {
      case .local(let name):
        if let found = installed.first(where: { FaceNames.of($0).matches(name) }) {
          let r = found.record
          if let face = try? Face(
            data: r.data, origin: r.origin, family: family, weight: found.weight,
            italic: found.italic, faceIndex: r.faceIndex, descriptors: e.descriptors)
          {
            return face
          }
        }
      case .file(let href, let fragment, let data):
        do {
          return try openFile(
            data, href: href, fragment: fragment, family: e.family, descriptors: e.descriptors)
        } catch {
          warnings.append(
            Diagnostic(.fontUnavailable, file: href, message: "embedded font skipped: \(error)"))
        }
      }
    }
    return nil
  }

  static func openFile(
    _ data: Data, href: String, fragment: String?, family: String,
    descriptors: FontFaceDescriptors
  ) throws(FontError) -> Face {
    let origin = "book:\(href)"
    let index = try faceIndex(data, fragment: fragment, family: family, origin: origin)
    let sfnt = try FontContainer.unwrap(data, faceIndex: index, origin: origin)
    return try Face(
      data: sfnt.data, origin: origin, family: family.lowercased(),
      weight: Int(descriptors.weight.lowerBound),
      italic: descriptors.slant != .normal, faceIndex: sfnt.faceIndex, descriptors: descriptors)
  }

  /// The face of a collection that `fragment` (an index or a name) or the family picks.
  static func faceIndex(_ data: Data, fragment: String?, family: String, origin: String)
    throws(FontError) -> Int
  {
    let container = FontContainer(data)
    guard container == .collection || container == .woff2 else { return 0 }
    let count = try FontContainer.faceCount(data, origin: origin)
    if let fragment, let n = Int(fragment) {
      guard n >= 0, n < count else {
        throw .damaged(path: origin, reason: "face #\(n) of a collection of \(count)")
      }
      return n
    }
    guard count > 1, container == .collection else { return 0 }
    let wanted = fragment ?? family
    let blob = data.withUnsafeBytes { raw in
      hb_blob_create(
        raw.bindMemory(to: CChar.self).baseAddress, UInt32(raw.count),
        HB_MEMORY_MODE_DUPLICATE, nil, nil)
    }
    defer { hb_blob_destroy(blob) }
    for i in 0..<min(count, FontContainer.maxCollectionFaces) {
      let face = hb_face_create(blob, UInt32(i))
      defer { hb_face_destroy(face) }
      if FaceNames(face).matches(wanted) { return i }
    }
    if fragment != nil {
      throw .damaged(path: origin, reason: "no face named '\(wanted)' in the collection")
    }
    return 0
  }
}

/// The names a face goes by (name table IDs 1, 4, 6, 16), compared case-insensitively.
struct FaceNames {
  var names: [String]

  init(_ face: OpaquePointer?) {
    let ids: [UInt32] = [1, 4, 6, 16]
    names = ids.compactMap { id in
      var len: UInt32 = 256
      var buf = [CChar](repeating: 0, count: 257)
      let got = hb_ot_name_get_utf8(
        face, hb_ot_name_id_t(id), hb_language_from_string("en", -1), &len, &buf)
      guard got > 0 else { return nil }
      return String(decoding: buf.prefix(Int(len)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        .lowercased()
    }
  }

  static func of(_ face: Face) -> FaceNames { FaceNames(face.hbFace) }

  func matches(_ name: String) -> Bool {
    let n = name.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "\"' "))
    return !n.isEmpty && names.contains(n)
  }
}
