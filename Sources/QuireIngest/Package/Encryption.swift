// META-INF/encryption.xml: which resources are obfuscated fonts (which we undo) and which are
// encrypted by DRM (which we refuse, per resource).
//
// IDPF font obfuscation (http://www.idpf.org/2008/embedding): key = SHA-1 of the package's
// unique identifier with all whitespace removed; XOR the first 1040 bytes with the key
// repeated. Adobe's (http://ns.adobe.com/pdf/enc#RC): key = the 16 bytes of the urn:uuid
// identifier's hex digits; XOR the first 1024 bytes.

import Foundation
import QuireCore

enum FontObfuscation: Sendable, Hashable {
  case idpf
  case adobe
}

struct EncryptionMap: Sendable {
  /// Obfuscated fonts by book path.
  var obfuscated: [String: FontObfuscation] = [:]
  /// Resources encrypted with something we cannot undo (DRM), by book path → algorithm.
  var refused: [String: String] = [:]

  static let idpfAlgorithm = "http://www.idpf.org/2008/embedding"
  static let adobeAlgorithm = "http://ns.adobe.com/pdf/enc#RC"

  init() {}

  init(files: any PackageFiles, limits: IngestLimits, warnings: inout [Diagnostic]) {
    let path = "META-INF/encryption.xml"
    guard files.contains(path) else { return }
    let tree: XMLElement
    do {
      tree = try XMLTree.parse(try files.read(path), file: "\(files.file): \(path)", limits: limits)
    } catch {
      warnings.append(
        Diagnostic(.encryptionFile, file: path, message: "unreadable, ignored: \(error)"))
      return
    }
    for encrypted in tree.descendants(named: "EncryptedData") {
      let algorithm = encrypted.first("EncryptionMethod")?.attribute("Algorithm") ?? ""
      guard let uri = encrypted.first("CipherData")?.first("CipherReference")?.attribute("URI"),
        let target = PackageDocument.resolve(uri, from: "")
      else { continue }
      switch algorithm {
      case Self.idpfAlgorithm: obfuscated[target.path] = .idpf
      case Self.adobeAlgorithm: obfuscated[target.path] = .adobe
      default:
        refused[target.path] = algorithm
        warnings.append(
          Diagnostic(
            .encryptedResource,
            file: target.path,
            message:
              "encrypted (\(algorithm.isEmpty ? "unknown algorithm" : algorithm)); not supported, skipped"
          ))
      }
    }
  }

  /// The key for a method, or nil when the identifier cannot give one.
  static func key(_ method: FontObfuscation, identifier: String?) -> [UInt8]? {
    guard let identifier else { return nil }
    switch method {
    case .idpf:
      let cleaned = identifier.unicodeScalars.filter {
        !($0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r")
      }
      return SHA1.digest(Array(String(String.UnicodeScalarView(cleaned)).utf8))
    case .adobe:
      var s = identifier.lowercased()
      if s.hasPrefix("urn:uuid:") { s.removeFirst(9) }
      let hex = s.filter(\.isHexDigit)
      guard hex.count == 32 else { return nil }
      var out: [UInt8] = []
      var it = hex.makeIterator()
      while let hi = it.next(), let lo = it.next() {
        out.append(UInt8(String([hi, lo]), radix: 16)!)
      }
      return out
    }
  }

  static func deobfuscate(_ data: Data, method: FontObfuscation, key: [UInt8]) -> Data {
    guard !key.isEmpty else { return data }
    var bytes = [UInt8](data)
    let n = min(bytes.count, method == .idpf ? 1040 : 1024)
    for i in 0..<n { bytes[i] ^= key[i % key.count] }
    return Data(bytes)
  }
}
