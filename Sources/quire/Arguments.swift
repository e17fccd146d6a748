// A small argument parser: no swift-argument-parser on this toolchain (no outside packages).
// Options are declared per command; every value is validated here so commands get typed
// values, and every mistake is a one-line usage error (exit 64).

import Foundation

struct UsageError: Error, CustomStringConvertible {
  var description: String
  init(_ message: String) { description = message }
}

/// The parsed words of one command line: positionals in order, options by name.
struct Arguments {
  private(set) var positionals: [String] = []
  private var values: [String: [String]] = [:]
  private var flags: Set<String> = []

  /// `valued` names take a value (`--size 600x800` or `--size=600x800`); `switches` do not.
  init(_ words: [String], valued: Set<String>, switches: Set<String>) throws(UsageError) {
    var i = 0
    var onlyPositionals = false
    while i < words.count {
      let w = words[i]
      i += 1
      if onlyPositionals || !w.hasPrefix("-") || w == "-" {
        positionals.append(w)
        continue
      }
      if w == "--" {
        onlyPositionals = true
        continue
      }
      var name = w
      var inline: String? = nil
      if let eq = w.firstIndex(of: "="), w.hasPrefix("--") {
        name = String(w[..<eq])
        inline = String(w[w.index(after: eq)...])
      }
      if valued.contains(name) {
        if let v = inline {
          values[name, default: []].append(v)
        } else {
          guard i < words.count else { throw UsageError("\(quoted(name)) needs a value") }
          values[name, default: []].append(words[i])
          i += 1
        }
      } else if switches.contains(name), inline == nil {
        flags.insert(name)
      } else {
        throw UsageError("unknown option \(quoted(name))")
      }
    }
  }

  func flag(_ name: String) -> Bool { flags.contains(name) }
  func value(_ name: String) -> String? { values[name]?.last }
  func all(_ name: String) -> [String] { values[name] ?? [] }

  func int(_ name: String, in range: ClosedRange<Int>) throws(UsageError) -> Int? {
    guard let v = value(name) else { return nil }
    guard let n = Int(v), range.contains(n) else {
      throw UsageError(
        "\(name) wants a whole number in \(range.lowerBound)…\(range.upperBound), got '\(quoted(v))'"
      )
    }
    return n
  }

  func double(_ name: String, in range: ClosedRange<Double>) throws(UsageError) -> Double? {
    guard let v = value(name) else { return nil }
    guard let n = Double(v), n.isFinite, range.contains(n) else {
      throw UsageError(
        "\(name) wants a number in \(range.lowerBound)…\(range.upperBound), got '\(quoted(v))'")
    }
    return n
  }

  func choice(_ name: String, _ allowed: [String]) throws(UsageError) -> String? {
    guard let v = value(name) else { return nil }
    guard allowed.contains(v) else {
      throw UsageError(
        "\(name) must be one of \(allowed.joined(separator: "|")), got '\(quoted(v))'")
    }
    return v
  }

  /// A value naming a case of `E` (its raw value).
  func choice<E: RawRepresentable & CaseIterable>(_ name: String, _ type: E.Type)
    throws(UsageError) -> E? where E.RawValue == String
  {
    guard let v = try choice(name, E.allCases.map(\.rawValue)) else { return nil }
    return E(rawValue: v)
  }

  /// `WxH`, each side within `range`.
  func size(_ name: String, in range: ClosedRange<Int> = 16...8192) throws(UsageError) -> (
    Int, Int
  )? {
    guard let v = value(name) else { return nil }
    let parts = v.lowercased().split(separator: "x")
    guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), range.contains(w),
      range.contains(h)
    else {
      throw UsageError(
        "\(name) wants WxH with sides in \(range.lowerBound)…\(range.upperBound), got '\(quoted(v))'"
      )
    }
    return (w, h)
  }

  /// Comma-separated numbers, exactly `count` of them (or 1 repeated when `count` is 4).
  func numbers(_ name: String, count: Int, in range: ClosedRange<Double>) throws(UsageError)
    -> [Double]?
  {
    guard let v = value(name) else { return nil }
    let parts = v.split(separator: ",", omittingEmptySubsequences: false).map {
      Double($0.trimmingCharacters(in: .whitespaces))
    }
    guard parts.allSatisfy({ $0 != nil && $0!.isFinite && range.contains($0!) }) else {
      throw UsageError(
        "\(name): '\(quoted(v))' is not a list of numbers in \(range.lowerBound)…\(range.upperBound)"
      )
    }
    let nums = parts.map { $0! }
    if nums.count == count { return nums }
    if count == 4 && nums.count == 1 { return Array(repeating: nums[0], count: 4) }
    throw UsageError("\(name) wants \(count) comma-separated numbers, got '\(quoted(v))'")
  }
}
