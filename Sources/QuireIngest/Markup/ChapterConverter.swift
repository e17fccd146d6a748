// Markup → Document: one spine document becomes one `Chapter` of styled blocks.
//
// Pipeline per chapter: libxml2 parses the bytes (MarkupParser.swift, Ingest's one libxml2
// front end: XML, else forgiving HTML), the C tree is converted once into Swift values
// (MarkupTree.swift) and freed; the style sheets the
// document links are loaded through `loadResource` and cascaded over the user-agent sheet
// (Style/); then one iterative walk (ChapterBuilder.swift) builds blocks, collapses white
// space per CSS, and numbers every character with a Location.
//
// Units and coordinates: lengths in root ems (Document.swift). Offsets count Unicode scalars
// of the text after white-space processing; a `<br>` and an inline image count one each.
//
// Rejected alternative: a DOM kept alive as libxml2 nodes and styled lazily. The C tree is
// not Sendable, would tie chapter lifetime to C memory, and every consumer would need to
// know about entity nodes and namespaces. Converting once costs one extra copy of the text.

import Foundation
import QuireCore

/// One spine document, as read from the archive.
package struct ChapterSource: Sendable {
  package var spineIndex: Int
  /// Resolved path inside the archive (no fragment), e.g. "OPS/chapter_001.xhtml".
  package var href: String
  package var mediaType: String
  package var linear: Bool
  package var data: Data
  /// The spine item's rendition properties (EPUB only).
  package var rendition: Rendition? = nil
  package init(spineIndex: Int, href: String, mediaType: String, linear: Bool, data: Data) {
    self.spineIndex = spineIndex
    self.href = href
    self.mediaType = mediaType
    self.linear = linear
    self.data = data
  }
}

/// An @font-face rule found in a style sheet; `src` is resolved inside the archive.
package struct FontFaceRule: Sendable, Hashable {
  package var family: String
  package var weight: Int
  package var italic: Bool
  /// The first `url()` source's href ("" when the rule names only `local()` faces).
  package var src: String
  /// Every descriptor that matching reads (see FontFaceDescriptors.swift).
  package var descriptors = FontFaceDescriptors()
  /// The `src` list in order, unsupported formats already dropped.
  package var sources: [FontFaceSource] = []
  package init(family: String, weight: Int, italic: Bool, src: String) {
    self.family = family
    self.weight = weight
    self.italic = italic
    self.src = src
    self.descriptors = FontFaceDescriptors(
      weight: Double(weight)...Double(weight), slant: italic ? .italic : .normal)
    self.sources = [.url(href: src, fragment: nil)]
  }
  package init(family: String, descriptors: FontFaceDescriptors, sources: [FontFaceSource]) {
    self.family = family
    self.weight = Int(min(900, max(100, descriptors.weight.lowerBound)))
    if case .normal = descriptors.slant { self.italic = false } else { self.italic = true }
    self.src = ""
    for case .url(let href, _) in sources {
      self.src = href
      break
    }
    self.descriptors = descriptors
    self.sources = sources
  }
}

package struct ConvertedChapter: Sendable {
  package var chapter: Chapter
  package var fontFaces: [FontFaceRule]
  package var warnings: [Diagnostic]
  /// Elements and text bytes of the chapter's (bounded) markup, charged to the book's caps.
  package var elements: Int
  package var textBytes: Int
  package init(
    chapter: Chapter, fontFaces: [FontFaceRule], warnings: [Diagnostic], elements: Int = 0,
    textBytes: Int = 0
  ) {
    self.chapter = chapter
    self.fontFaces = fontFaces
    self.warnings = warnings
    self.elements = elements
    self.textBytes = textBytes
  }
}

/// Turns XHTML/HTML spine documents into styled blocks.
/// `loadResource` reads another file of the book by resolved href (style sheets, @import);
/// it returns nil for anything outside the archive or missing.
package struct ChapterConverter: Sendable {
  package var options: IngestOptions
  package var loadResource: @Sendable (String) -> Data?
  /// The book's language (OPF dc:language). Not the content's: a document that names no
  /// language has none (EPUB 3.3); the typesetter may still use this one where the text's
  /// script fits it (QuireTypeset's ContentLanguage).
  package var bookLanguage: String?
  /// Parsed style sheets shared by the chapters this converter handles.
  let styleCache = StyleCache()
  /// What the chapters converted so far add up to, against the book's caps.
  let budget = BookBudget()
  /// Match every rule against every element, without buckets or the ancestor filter: the
  /// plain matcher the fast one must agree with (tests only).
  var referenceMatching = false
  /// Compute every element's style, sharing none between siblings (tests only).
  var sharesStyles = true

  package init(
    options: IngestOptions, bookLanguage: String?,
    loadResource: @escaping @Sendable (String) -> Data?
  ) {
    self.options = options
    self.bookLanguage = bookLanguage
    self.loadResource = loadResource
  }

  /// Never throws: a broken document degrades (HTML recovery, or an empty chapter) with warnings.
  package func convert(_ source: ChapterSource) -> ConvertedChapter {
    if PackageDocument.isPageImage(source.mediaType) {
      return withRendition(imagePage(source), source)
    }
    let tree = MarkupParser.parse(
      source.data, limits: options.limits, isHTML: source.mediaType.lowercased() == "text/html")
    var warnings = tree.warnings.map {
      Diagnostic(.malformedMarkup, file: source.href, spine: source.spineIndex, message: $0)
    }

    // Style sheets, in document order. Chapters of one book link the same sheets, so the
    // parsed rules are cached per converter, keyed by what the document links, and parsed
    // once even when workers ask for them at the same moment (`StyleCache`).
    var sources: [(href: String?, text: String?)] = []
    if options.publisherStyles {
      var stack = [tree.root]
      var visitedNodes = 0
      while let n = stack.popLast(), visitedNodes < 1_000_000 {
        visitedNodes += 1
        let node = tree.nodes[n]
        guard node.kind == .element else { continue }
        if node.name == "link", let rel = node.attribute("rel")?.lowercased(),
          rel.split(separator: " ").contains("stylesheet"),
          !rel.split(separator: " ").contains("alternate"),
          let href = node.attribute("href"), Self.mediaApplies(node.attribute("media"))
        {
          sources.append((PathResolver.resolve(href, against: source.href), nil))
        } else if node.name == "style", Self.mediaApplies(node.attribute("media")),
          (node.attribute("type") ?? "text/css").lowercased().contains("css")
        {
          sources.append((nil, tree.textContent(of: n)))
        }
        stack.append(contentsOf: node.children.reversed())
      }
    }
    let key = sources.map { s in s.href.map { "L:" + $0 } ?? "S:\(source.href):\(s.text!)" }
      .joined(separator: "\u{0}")
    let styles = styleCache.styles(key) {
      var rules = RuleSet()
      rules.add(UserAgentSheet.sheet, origin: 0)
      var author = StyleSheet()
      var loader = StyleSheetLoader(loadResource: loadResource, viewport: options.viewport)
      for s in sources {
        if let href = s.href {
          loader.load(href: href, depth: 0, into: &author)
        } else if let text = s.text {
          loader.parse(text, baseHref: source.href, into: &author)
        }
      }
      rules.add(author, origin: 1)
      return CachedStyles(
        rules: rules, fontFaces: author.fontFaces, warnings: author.warnings + rules.warnings,
        authored: !author.rules.isEmpty)
    }
    let rules = styles.rules
    let fontFaces = styles.fontFaces
    warnings += styles.warnings.map {
      Diagnostic(.styleSheet, file: source.href, spine: source.spineIndex, message: $0)
    }

    var builder = ChapterBuilder(
      tree: tree, resolver: StyleResolver(tree: tree, rules: rules, reference: referenceMatching),
      spineIndex: source.spineIndex,
      href: source.href, publisherStyles: options.publisherStyles)
    builder.blockifiesPositioned = source.rendition?.isFixed == true
    builder.sharesStyles = sharesStyles
    builder.bookSharing = sharesStyles ? styles.sharing : nil
    builder.build()
    warnings += builder.mathReport.diagnostics(file: source.href, spine: source.spineIndex)
    if builder.resolver.budgetExhausted {
      warnings.append(
        Diagnostic(
          .styleSheet, file: source.href, spine: source.spineIndex,
          message:
            "selector matching stopped after \(MatchLimits.maxSelectorChecksPerChapter) checks; the rest of the chapter has default styles"
        ))
    }
    var chapter = Chapter(
      spineIndex: source.spineIndex, href: source.href, mediaType: source.mediaType,
      linear: source.linear, size: source.data.count,
      language: builder.documentLanguage,
      direction: builder.documentDirection, blocks: builder.blocks, anchors: builder.anchors,
      length: builder.offset)
    chapter.rootBackground = builder.rootBackground
    chapter.writingMode = builder.documentWritingMode
    chapter.inlineImages = builder.inlineImages
    chapter.authorStyles = options.publisherStyles && styles.authored
    chapter.rendition = rendition(of: source, tree: tree, warnings: &warnings)
    return ConvertedChapter(
      chapter: chapter, fontFaces: fontFaces, warnings: warnings, elements: tree.elementCount,
      textBytes: tree.textBytes)
  }

  static func mediaApplies(_ media: String?) -> Bool {
    guard let media, !media.trimmingCharacters(in: .whitespaces).isEmpty else { return true }
    return CSSRuleParser.mediaApplies(CSSTokenizer.tokenize(media))
  }
}

struct CachedStyles: Sendable {
  var rules: RuleSet
  var fontFaces: [FontFaceRule]
  var warnings: [String]
  /// Whether the author sheets hold any rule.
  var authored = false
  /// Computed styles shared by the chapters that use these rules.
  let sharing = BookStyleSharing()
}

/// Parsed style sheets by the list of sheets a document links. Chapters are converted in
/// parallel: the first chapter that needs a list parses it while the others that need the
/// same list wait for its result (one slot, with its own lock, per list), so a book's sheets
/// are parsed once however many workers start at the same moment. Parsing different lists
/// does not serialize.
final class StyleCache: Sendable {
  /// One list's parsed styles, filled by the first chapter that needs them.
  private final class Slot: Sendable {
    let styles = Mutex<CachedStyles?>(nil)
  }
  private let slots = Mutex<[String: Slot]>([:])
  static let maxEntries = 64
  /// Lists parsed so far (tests: each list once).
  private let parses = Mutex(0)

  /// How many times a list was parsed.
  var parseCount: Int { parses.withLock { $0 } }

  /// The styles for `key`: cached, else parsed here by `parse` (other callers with the same
  /// key wait for it).
  func styles(_ key: String, parse: () -> CachedStyles) -> CachedStyles {
    let slot = slots.withLock { slots in
      if let s = slots[key] { return s }
      if slots.count >= Self.maxEntries { slots.removeAll() }
      let s = Slot()
      slots[key] = s
      return s
    }
    return slot.styles.withLock { cached in
      if let cached { return cached }
      let parsed = parse()
      parses.withLock { $0 += 1 }
      cached = parsed
      return parsed
    }
  }
}

/// Elements and text bytes of a book's chapters so far, against `IngestLimits.maxBookElements`
/// and `maxBookTextBytes`. Chapters are converted in parallel, hence the mutex; each chapter
/// counts once however often it is converted.
final class BookBudget: Sendable {
  private let charged = Mutex<(chapters: Set<Int>, elements: Int, textBytes: Int)>(([], 0, 0))

  /// Adds chapter `spine`'s counts; throws once the book is past a cap. The message names
  /// the book, not the chapter that crossed (which depends on scheduling).
  func charge(_ c: ConvertedChapter, spine: Int, book: String, limits: IngestLimits)
    throws(IngestError)
  {
    let (elements, textBytes) = charged.withLock { state in
      if state.chapters.insert(spine).inserted {
        state.elements += c.elements
        state.textBytes += c.textBytes
      }
      return (state.elements, state.textBytes)
    }
    if elements > limits.maxBookElements {
      throw .limitExceeded(
        file: book, limit: .bookElements,
        reason: "the book has more than \(limits.maxBookElements) elements (maxBookElements)")
    }
    if textBytes > limits.maxBookTextBytes {
      throw .limitExceeded(
        file: book, limit: .bookTextBytes,
        reason:
          "the book has more than \(limits.maxBookTextBytes) bytes of text (maxBookTextBytes)")
    }
  }
}
