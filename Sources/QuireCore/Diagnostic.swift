/// Something wrong with the content that was worked around: a chapter left empty, a glyph
/// no font has, a CSS rule skipped. Errors stop a job; diagnostics only describe what the
/// output lacks.
public struct Diagnostic: Sendable, Hashable, Codable, CustomStringConvertible {
  /// What kind of problem this is. Stages declare their kinds as static constants in an
  /// extension (`Diagnostic.Kind.missingGlyph`), so the set is open but every use is typed.
  public struct Kind: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
    /// The kind's stable name, as written in the manifest (lowerCamelCase).
    public let rawValue: String
    /// A kind named `rawValue`.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// A kind named `name`.
    public init(_ name: String) { rawValue = name }
    /// The kind's name.
    public var description: String { rawValue }
  }

  /// The problem's kind.
  public var kind: Kind
  /// The file inside the book (or the book itself) the problem is in.
  public var file: String
  /// The spine index of the content document, when the problem is inside one.
  public var spine: Int?
  /// The character offset in that document, when known.
  public var offset: Int?
  /// A human-readable sentence about this occurrence.
  public var message: String
  /// Diagnostics of one kind with the same group are one log entry whatever their file
  /// (missing glyphs: one entry per script and font for the whole book); nil: by file.
  public var group: String? = nil
  /// How many occurrences this diagnostic stands for (a chapter's tally); nil: one.
  public var occurrences: Int? = nil

  /// A diagnostic of `kind` about `file`. A file name past 200 characters (a `data:` URI)
  /// and a message past 400 are elided (`QuotedInput`): a book cannot make a diagnostic
  /// repeat megabytes of its own input.
  public init(_ kind: Kind, file: String, spine: Int? = nil, offset: Int? = nil, message: String) {
    self.kind = kind
    self.file = QuotedInput.elided(file)
    self.spine = spine
    self.offset = offset
    self.message = QuotedInput.elided(message, limit: 2 * QuotedInput.maxQuotedCharacters)
  }

  /// "file: message".
  public var description: String { "\(file): \(message)" }
}

/// Diagnostics aggregated by kind and file: the first occurrence is kept with a count of all
/// of them, in the order kinds first appeared. A book whose every page lacks one glyph makes
/// one entry with a large count, not one entry per page.
public struct DiagnosticLog: Sendable, Hashable, Codable {
  /// One kind in one file: its first occurrence and how many there were.
  public struct Entry: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The first occurrence.
    public var first: Diagnostic
    /// How many occurrences were reported (≥ 1).
    public var count: Int
    /// "file: message" with " (N times)" when there were more than one.
    public var description: String {
      count > 1 ? "\(first.description) (\(count) times)" : first.description
    }
  }

  private struct Key: Hashable, Codable {
    var kind: Diagnostic.Kind
    var file: String
  }

  /// The entries in first-appearance order.
  public private(set) var entries: [Entry] = []
  private var index: [Key: Int] = [:]

  /// An empty log.
  public init() {}

  /// A log of `diagnostics`, aggregated.
  public init(_ diagnostics: some Sequence<Diagnostic>) {
    add(contentsOf: diagnostics)
  }

  /// Whether nothing was reported.
  public var isEmpty: Bool { entries.isEmpty }

  /// The total number of occurrences.
  public var occurrences: Int { entries.reduce(0) { $0 + $1.count } }

  /// Records `count` occurrences of `diagnostic` (by default the occurrences it stands
  /// for, one unless it says). Entries are keyed by kind and the diagnostic's group, or its
  /// file when it has none.
  public mutating func add(_ diagnostic: Diagnostic, count: Int? = nil) {
    let key = Key(
      kind: diagnostic.kind, file: diagnostic.group.map { "\u{0}" + $0 } ?? diagnostic.file)
    let n = max(1, min(count ?? diagnostic.occurrences ?? 1, Int.max / 4))
    if let i = index[key] {
      entries[i].count = min(entries[i].count + n, Int.max / 2)
    } else {
      index[key] = entries.count
      entries.append(Entry(first: diagnostic, count: n))
    }
  }

  /// Records one occurrence of each diagnostic in `diagnostics`, in order.
  public mutating func add(contentsOf diagnostics: some Sequence<Diagnostic>) {
    for d in diagnostics { add(d) }
  }

  /// Adds every entry of `other`, keeping counts.
  public mutating func merge(_ other: DiagnosticLog) {
    for e in other.entries { add(e.first, count: e.count) }
  }
}
