// The walk from styled markup to blocks: an explicit stack of enter/exit events (no
// recursion), a stack of open block frames, and per-block inline content that is
// white-space processed and numbered when the block (or an anonymous paragraph) closes.
// Inside an inline block no frame opens: its start and end, and those of block-level
// elements inside it, are marks in that inline content, so all its text is numbered in
// order with the paragraph around it; the marks are turned into the inline block's blocks
// then (`BoxLevel`).

import Foundation

/// Inline content waiting for its block to close, before white-space processing.
private enum PendingInline {
  case text(String, RunStyle, link: String?, lang: String?, generated: Bool = false)
  case lineBreak(ComputedStyle)
  case image(ImageRef, ComputedStyle)
  case anchor(String)
  case math(MathFormula, ComputedStyle)
  /// The start and end of an inline-block's content (`InlineBlock`). (Boxed payloads here
  /// and below: the rare cases must not make every piece of text larger.)
  indirect case boxStart(InlineBoxOpening)
  case boxEnd
  /// The start and end of a block-level element inside an inline block (its content keeps
  /// its block structure, CSS 2.1 §9.2.4).
  indirect case blockStart(BoxBlockOpening)
  case blockEnd
  /// A block without text inside an inline block (a rule, a block image).
  indirect case blockLeaf(Block)
}

/// The `::first-letter` style a block hands to its first text: its inline style and box (a
/// floated first letter becomes a floating inline block).
private struct FirstLetterStyle {
  var style: ComputedStyle
  var box: BoxStyle
}

/// What an inline-block element contributes when its content closes into an `InlineBlock`.
private struct InlineBoxOpening {
  var style: ComputedStyle
  var box: BoxStyle
  var element: String
  var source: Int
  var lang: String?
  /// `display: inline-table` on an element whose content holds table parts: the box is
  /// a table (CSS 2.1 §17.2).
  var isTable = false
  var table = TablePart()
}

/// A block-level element inside an inline block: what its block is made of when it closes.
private struct BoxBlockOpening {
  var kind: BlockKind
  var style: ComputedStyle
  var box: BoxStyle
  var element: String
  var source: Int
  var lang: String?
  var table: TablePart
}

private struct Frame {
  var kind: BlockKind
  var element: String
  var style: ComputedStyle
  var lang: String?
  var location: Location
  var box = BoxStyle()
  var table = TablePart()
  var children: [Block] = []
  var pending: [PendingInline] = []
  /// The `::first-letter` style waiting for the frame's first text.
  var firstLetter: FirstLetterStyle? = nil
  /// Set when the element is a note (or an aside that may be one).
  var note: NoteMark? = nil
  /// The element's ordinal (`MarkupTree.elementOrdinals`), for `Block.source`.
  var source = -1
}

/// An open element's styles and what it opened, one per element on the walk's stack. A
/// class: every element reads its parent's context, and a copy of this struct (its styles
/// hold ~1 KB and a few dozen references) cost ~1 K instructions, several times an element.
private final class StyleContext {
  let style: ElementStyle
  /// This context's number, naming `style` as a parent for `StyleSharing`.
  let shareID: Int
  let lang: String?
  let link: String?
  /// Whether the element opened a frame (popped on exit).
  let openedFrame: Bool
  /// The element's `::after` style, when it has content.
  var after: ElementStyle? = nil
  /// Counter names the element's children instantiated (GeneratedText.swift).
  var siblingScope: Set<String> = []
  /// Whether the element opened an inline block (its end is pending on exit).
  var openedInlineBox = false
  /// Whether the element opened a block inside an inline block (its end is pending on exit).
  var openedBoxBlock = false
  /// The element's style inside its block's `::first-line` box, while its text may be on
  /// that line (FirstLineCascade.swift); nil almost always.
  var firstLine: ElementStyle? = nil
  /// Its `::after`'s style there.
  var afterFirstLine: ElementStyle? = nil
  /// The inline style of the element's text (`ChapterBuilder.inlineStyle`), made for its
  /// first text and shared by the rest.
  private var textStyle: RunStyle? = nil

  init(style: ElementStyle, shareID: Int, lang: String?, link: String?, openedFrame: Bool) {
    self.style = style
    self.shareID = shareID
    self.lang = lang
    self.link = link
    self.openedFrame = openedFrame
  }

  /// The inline style of the element's own text (without a first-line style).
  var inlineTextStyle: RunStyle {
    if let textStyle { return textStyle }
    let made = RunStyle(ChapterBuilder.inlineStyle(style.computed))
    textStyle = made
    return made
  }
}

/// A text run's style while a block's inline content is collected and white-space
/// processed: shared, so the pending items and pieces that carry it copy a reference, not a
/// style. Two runs' styles are equal when they are one object or their values are equal.
private final class RunStyle {
  let style: ComputedStyle

  init(_ style: ComputedStyle) { self.style = style }

  func sameStyle(as other: RunStyle) -> Bool {
    self === other || style == other.style
  }
}

struct ChapterBuilder {
  let tree: MarkupTree
  private(set) var resolver: StyleResolver
  let spineIndex: Int
  let href: String
  let publisherStyles: Bool
  /// Absolutely positioned inline elements become blocks (fixed-layout chapters only).
  var blockifiesPositioned = false
  /// Whether elements share computed styles (`StyleSharing`); off, every element computes
  /// its own (tests compare the two).
  var sharesStyles = true

  private(set) var blocks: [Block] = []
  private(set) var anchors: [String: Int] = [:]
  private(set) var offset = 0
  private(set) var documentLanguage: String?
  private(set) var documentDirection: TextDirection?
  /// `writing-mode` of `body` (else `html`): the chapter's (Style/WritingModeProperties.swift).
  private(set) var documentWritingMode = WritingMode.horizontalTB
  /// The `html` element's background (it opens no block; the page paints it).
  private(set) var rootBackground: BoxBackground?
  /// Inline `<svg>` documents by their resource href (InlineSVG.swift).
  private(set) var inlineImages: [String: Data] = [:]
  /// MathML read so far: unknown element names, truncated formulas (MathMarkup.swift).
  private(set) var mathReport = MathMarkup.Report()

  private var frames: [Frame] = []
  private var generated = GeneratedText()
  /// The marker of the list item whose frame opens next.
  private var nextMarker = ""
  /// Inline blocks open around the current element (their content is set inline).
  private var inlineBoxDepth = 0
  /// Inline blocks nest at most this deep (each level is a layout of its own); deeper ones
  /// stay plain inline content.
  static let maxInlineBoxDepth = 8
  /// Block-level elements open inside inline blocks (all levels together).
  private var boxBlockDepth = 0
  /// Block-level elements inside inline blocks keep their structure at most this deep
  /// (counted over all the inline blocks around them); deeper ones are set inline.
  static let maxBoxBlockDepth = 32
  /// Ids that noteref links in this chapter point at (NoteDetection).
  private var noteRefs: Set<String> = []
  /// Each node's element ordinal, for `Block.source`.
  private let ordinals: [Int32]
  /// Computed styles by parent, `dir` and matched rules (Style/Cascade.swift).
  private(set) var sharing = StyleSharing()
  /// Computed styles shared with the book's other chapters (`BookStyleSharing`), behind
  /// `sharing`; nil: this chapter's only.
  var bookSharing: BookStyleSharing? = nil
  /// The last `StyleContext.shareID` given out (the document's context is 0).
  private var lastShareID = 0

  init(
    tree: MarkupTree, resolver: StyleResolver, spineIndex: Int, href: String, publisherStyles: Bool
  ) {
    self.tree = tree
    self.resolver = resolver
    self.spineIndex = spineIndex
    self.href = href
    self.publisherStyles = publisherStyles
    self.ordinals = tree.elementOrdinals()
  }

  private var location: Location { Location(spine: spineIndex, offset: offset) }

  mutating func build() {
    var rootStyle = ElementStyle()
    rootStyle.display = .block
    frames = [
      Frame(
        kind: .container, element: "#document", style: rootStyle.computed, lang: nil,
        location: location)
    ]
    var contexts = [
      StyleContext(style: rootStyle, shareID: 0, lang: nil, link: nil, openedFrame: false)
    ]

    enum Event {
      case enter(Int)
      case exit(Int)
    }
    var events: [Event] = tree.nodes[tree.root].children.reversed().map { .enter($0) }
    while let event = events.popLast() {
      switch event {
      case .exit(let n):
        exitElement(n, contexts.removeLast())
      case .enter(let n):
        // Text (most nodes) reads the node in place: binding it copies every field.
        if tree.nodes[n].kind == .text {
          appendText(tree.nodes[n].text, contexts[contexts.count - 1])
          continue
        }
        let node = tree.nodes[n]
        let parent = contexts[contexts.count - 1]
        if ["head", "script", "style", "title", "template"].contains(node.name) { continue }
        let (matched, computed) = elementStyle(n, node, parent: parent)
        var style = computed
        // Ids of hidden elements still resolve (a TOC may point at one), to where they are.
        if let id = node.attribute("id"), !id.isEmpty, anchors[id] == nil {
          frames[frames.count - 1].pending.append(.anchor(id))
        }
        if style.display == .none { continue }
        // Read once: each read of the context's style passed as an argument copies it.
        let parentStyle = parent.style
        let rubyParent = parentStyle.computed.text.writing.ruby
        if RubyMarkup.hides(node.name, inherited: rubyParent) { continue }
        if let part = RubyMarkup.part(node.name, node: n, inherited: rubyParent) {
          style.computed.text.writing.ruby = part
        }
        contextualDisplay(&style, parent: parentStyle)
        style.resolveInlineBox(id: Int(ordinals[n]))
        let lang = node.attribute("xml:lang") ?? node.attribute("lang") ?? parent.lang
        var link = parent.link
        if node.name == "a", let h = node.attribute("href") ?? node.attribute("xlink:href") {
          link = h.hasPrefix("#") ? href + h : PathResolver.resolve(h, against: href)
          if let id = NoteDetection.referencedID(node, link: link, chapterHref: href),
            noteRefs.count < 100_000
          {
            noteRefs.insert(id)
          }
        }
        if node.name == "html" || node.name == "body" {
          if let l = node.attribute("xml:lang") ?? node.attribute("lang"), !l.isEmpty {
            documentLanguage = l
          }
          if let d = style.computed.direction { documentDirection = d }
          documentWritingMode = style.computed.text.writing.mode
          if node.name == "html", !style.box.background.isEmpty {
            rootBackground = style.box.background
          }
        }

        applyCounters(n, &style, scope: &parent.siblingScope)
        if appendReplaced(node, n, style: style, lang: lang) { continue }
        let inside = prepareMarker(n, style, matched, lang: lang)
        let openedBoxBlock = openBoxBlock(n, &style, parent: parentStyle, lang: lang)
        let opened = openFrame(n, style: style, lang: lang)
        let openedBox = openInlineBox(n, style: style, parent: parentStyle, lang: lang)
        if opened {
          frames[frames.count - 1].source = Int(ordinals[n])
          frames[frames.count - 1].table = TableMarkup.part(
            n, in: tree, style: style, parent: parentStyle)
        }
        lastShareID += 1
        let ctx = StyleContext(
          style: style, shareID: lastShareID, lang: lang, link: link, openedFrame: opened)
        ctx.openedInlineBox = openedBox
        ctx.openedBoxBlock = openedBoxBlock
        ctx.after = pseudoStyle(.after, matched, style)
        if parent.firstLine != nil || matched.pseudo[.firstLine] != nil {
          setFirstLine(ctx, style, matched, opened, openedBox, parent)
        }
        contexts.append(ctx)
        startGenerated(n, style, matched, insideMarker: inside, opened: opened, ctx)
        events.append(.exit(n))
        for c in node.children.reversed() { events.append(.enter(c)) }
      }
    }
    // Close the document frame.
    let root = finish(frames.removeLast())
    blocks = root.children
    NoteDetection.confirm(&blocks, referenced: noteRefs)
  }

  /// The element's matched declarations and its computed style (before the fixes that
  /// depend on where it is), shared with earlier elements that matched the same rules under
  /// the same parent when neither has a style attribute or presentational hints.
  private mutating func elementStyle(_ n: Int, _ node: MarkupNode, parent: StyleContext) -> (
    MatchedDeclarations, ElementStyle
  ) {
    var inline: [CSSDeclaration] = []
    if publisherStyles, let s = node.attribute("style") {
      inline = CSSRuleParser.styleAttribute(s, baseHref: href)
    }
    let hints =
      publisherStyles
      ? TableMarkup.hints(n, in: tree) + (MathMarkup.isMath(node) ? MathMarkup.hints(node) : [])
      : []
    let matched = resolver.match(n, inlineStyle: inline, hints: hints)
    var dir: UInt8 = 0
    if let d = node.attribute("dir")?.lowercased() { dir = d == "rtl" ? 1 : d == "ltr" ? 2 : 0 }
    let compute = {
      var base = ElementStyle.inheriting(from: parent.style)
      if dir == 1 { base.computed.direction = .rtl }
      if dir == 2 { base.computed.direction = .ltr }
      return StyleComputer.compute(matched.element, parent: parent.style, base: base)
    }
    guard sharesStyles, inline.isEmpty && hints.isEmpty else { return (matched, compute()) }
    let key = StyleSharing.Key(parent: parent.shareID, dir: dir, rules: matched.rules)
    let book = bookSharing
    return (
      matched,
      sharing.style(key) {
        guard let book else { return compute() }
        let key = BookStyleSharing.Key(parent: parent.style, dir: dir, rules: matched.rules)
        return book.style(key, compute: compute)
      }
    )
  }

  /// After an element's content: its `::after`, then the end of what it opened.
  private mutating func exitElement(_ n: Int, _ ctx: StyleContext) {
    if let after = ctx.after {
      appendGenerated(after, n, ctx, firstLine: ctx.afterFirstLine, after: true)
    }
    generated.counters.end(ctx.siblingScope)
    if ctx.openedFrame { closeFrame() }
    if ctx.openedInlineBox {
      frames[frames.count - 1].pending.append(.boxEnd)
      inlineBoxDepth -= 1
    }
    if ctx.openedBoxBlock {
      frames[frames.count - 1].pending.append(.blockEnd)
      boxBlockDepth -= 1
    }
  }

  /// Display fixes that depend on where the element is.
  private func contextualDisplay(_ style: inout ElementStyle, parent: ElementStyle) {
    // Absolute and fixed boxes are blocks (CSS 2.1 §9.7), on fixed-layout pages.
    if blockifiesPositioned, style.box.position.isOutOfFlow, style.display == .inline {
      style.display = .block
    }
    // vertical-align reaches the text of inline descendants (their runs are raised too), not
    // through an inline block (which is aligned as one box).
    if style.display == .inline, style.computed.verticalAlign == .baseline,
      parent.display == .inline, !parent.box.isInlineBlock
    {
      style.computed.verticalAlign = parent.computed.verticalAlign
    }
  }

  /// Replaced and empty elements (br, img, svg cover images, hr): appended whole; true when
  /// `node` was one of them.
  private mutating func appendReplaced(
    _ node: MarkupNode, _ n: Int, style: ElementStyle, lang: String?
  )
    -> Bool
  {
    switch node.name {
    case "br":
      frames[frames.count - 1].pending.append(.lineBreak(Self.inlineStyle(style.computed)))
    case "img", "image":
      guard var ref = imageRef(node) else { return true }
      ref.box = style.box
      if style.display == .inline {
        frames[frames.count - 1].pending.append(.image(ref, style.computed))
      } else {
        appendBlockLevel(
          Block(
            kind: .image(ref), style: style.computed, location: location, element: node.name,
            lang: lang, dir: style.computed.direction, box: style.box))
      }
    case "math" where MathMarkup.isMath(node):
      appendMath(n, style: style, lang: lang)
    case "svg" where node.markup != nil && !wrapsOneImage(n):
      appendInlineSVG(node, style: style, lang: lang)
    case "svg":
      // Cover pages wrap one raster image in SVG; other SVG content is not flowed text.
      if let img = firstDescendant(of: n, named: "image"), var ref = imageRef(tree.nodes[img]) {
        ref.box = style.box
        // SVG's default preserveAspectRatio ("xMidYMid meet") is object-fit: contain.
        if ref.box.objectFit == .fill, node.attribute("preserveAspectRatio") != "none" {
          ref.box.objectFit = .contain
        }
        appendBlockLevel(
          Block(
            kind: .image(ref), style: style.computed, location: location, element: "svg",
            lang: lang, dir: style.computed.direction, box: style.box))
      }
    case "hr":
      appendBlockLevel(
        Block(
          kind: .rule, style: style.computed, location: location, element: "hr", lang: lang,
          dir: style.computed.direction, box: style.box))
    default:
      return false
    }
    return true
  }

  /// Opens a block frame for a block-level element (not for inline ones, table row groups or
  /// the html element); true when one was opened.
  private mutating func openFrame(_ n: Int, style: ElementStyle, lang: String?) -> Bool {
    let node = tree.nodes[n]
    guard style.display != .inline && style.display != .tableRowGroup && node.name != "html"
    else { return false }
    flushPending()
    var kind = blockKind(node, style)
    if case .list(let ordered, _) = kind {
      kind = .list(ordered: ordered, start: Self.firstNumber(n, tree: tree))
    }
    // ::first-letter reaches the first block child when nothing came before it.
    let last = frames.count - 1
    var firstLetter: FirstLetterStyle? = nil
    if frames[last].firstLetter != nil, frames[last].children.isEmpty {
      firstLetter = frames[last].firstLetter
      frames[last].firstLetter = nil
    }
    // Made in the array: a frame built in a local and appended was copied (~1 K
    // instructions with its destruction, 3.6 M a paginate of moby-dick).
    frames.append(
      Frame(
        kind: kind, element: node.name, style: style.computed, lang: lang, location: location,
        box: style.box, firstLetter: firstLetter, note: NoteDetection.mark(node)))
    return true
  }

  /// Opens an inline block for an inline-level element with `display: inline-block` (or
  /// inline-table, -flex, -grid), or with `float` (a float is blockified, CSS 2.1 §9.7, and
  /// holds its content as a block of its own; Typeset floats it): true when one was opened.
  /// Nesting past `maxInlineBoxDepth` leaves the content inline.
  private mutating func openInlineBox(
    _ n: Int, style: ElementStyle, parent: ElementStyle, lang: String?
  ) -> Bool {
    guard style.display == .inline, style.box.isInlineBlock || style.box.float != .none,
      inlineBoxDepth < Self.maxInlineBoxDepth,
      style.computed.text.writing.ruby == .none
    else { return false }
    inlineBoxDepth += 1
    var opening = InlineBoxOpening(
      style: style.computed, box: style.box, element: tree.nodes[n].name,
      source: Int(ordinals[n]), lang: lang)
    if style.box.isInlineTable, style.box.float == .none {
      opening.isTable = true
      var asTable = style
      asTable.display = .table
      opening.table = TableMarkup.part(n, in: tree, style: asTable, parent: parent)
    }
    frames[frames.count - 1].pending.append(.boxStart(opening))
    return true
  }

  /// Inside an inline block, a block-level element opens no frame: its start goes into the
  /// inline content (its end on exit), so its text is numbered in order with the paragraph
  /// around the inline block, and its block is built when that paragraph closes. Sets the
  /// element's display to inline (for the rest of the walk); true when a start was added.
  /// Row groups add none (their rows carry the group); past `maxBoxBlockDepth`, and for
  /// floats (laid out as floating inline blocks), the element is set inline.
  private mutating func openBoxBlock(
    _ n: Int, _ style: inout ElementStyle, parent: ElementStyle, lang: String?
  ) -> Bool {
    guard inlineBoxDepth > 0, style.display != .inline else { return false }
    let block = style
    style.display = .inline
    guard block.display != .tableRowGroup, block.box.float == .none,
      boxBlockDepth < Self.maxBoxBlockDepth
    else { return false }
    boxBlockDepth += 1
    let node = tree.nodes[n]
    var kind = blockKind(node, block)
    if case .list(let ordered, _) = kind {
      kind = .list(ordered: ordered, start: Self.firstNumber(n, tree: tree))
    }
    frames[frames.count - 1].pending.append(
      .blockStart(
        BoxBlockOpening(
          kind: kind, style: block.computed, box: block.box, element: node.name,
          source: Int(ordinals[n]), lang: lang,
          table: TableMarkup.part(n, in: tree, style: block, parent: parent))))
    return true
  }

  /// A block-level element without text (a rule, a block image): appended after the open
  /// frame's inline content, or kept in the inline content inside an inline block.
  private mutating func appendBlockLevel(_ block: Block) {
    if inlineBoxDepth > 0 {
      frames[frames.count - 1].pending.append(.blockLeaf(block))
      return
    }
    flushPending()
    appendBlock(block)
  }

  /// A `<math>` element: an inline object, or a centred paragraph of its own when display.
  private mutating func appendMath(_ n: Int, style: ElementStyle, lang: String?) {
    var report = mathReport
    // Inside an inline block a formula stays inline (its paragraph is numbered as a whole).
    let display = style.display != .inline && inlineBoxDepth == 0
    let formula = report.read(n, tree: tree, displayBlock: display, style: style) {
      self.mathElementStyle($0, parent: $1)
    }
    mathReport = report
    guard formula.display, inlineBoxDepth == 0 else {
      frames[frames.count - 1].pending.append(.math(formula, Self.inlineStyle(style.computed)))
      return
    }
    flushPending()
    var st = style.computed
    st.textAlign = .center
    let start = location
    let (inlines, _) = process([.math(formula, Self.inlineStyle(st))], isPre: false, lang: lang)
    var block = Block(
      kind: .paragraph, style: st, inlines: inlines, location: start, element: "math", lang: lang,
      dir: st.direction)
    block.source = Int(ordinals[n])
    appendBlock(block)
  }

  /// The style of MathML element `n` inside a formula: the book's CSS (selectors, the
  /// `style` attribute) and MathML's colour hints, from its parent's style.
  private mutating func mathElementStyle(_ n: Int, parent: ElementStyle) -> ElementStyle {
    let node = tree.nodes[n]
    var inline: [CSSDeclaration] = []
    if publisherStyles, let s = node.attribute("style") {
      inline = CSSRuleParser.styleAttribute(s, baseHref: href)
    }
    let hints = publisherStyles ? MathMarkup.hints(node) : []
    let matched = resolver.match(n, inlineStyle: inline, hints: hints)
    return StyleComputer.compute(
      matched.element, parent: parent, base: ElementStyle.inheriting(from: parent))
  }

  /// Whether an `<svg>` only wraps one `<image>` (the usual cover page): drawn as that image.
  private func wrapsOneImage(_ n: Int) -> Bool {
    var stack = tree.nodes[n].children
    var images = 0
    while let m = stack.popLast() {
      guard tree.nodes[m].kind == .element else { continue }
      switch tree.nodes[m].name {
      case "image": images += 1
      case "title", "desc", "metadata", "g": break
      default: return false
      }
      stack.append(contentsOf: tree.nodes[m].children)
    }
    return images == 1
  }

  /// An inline `<svg>` as an in-memory image: inline when its display is, else a block.
  private mutating func appendInlineSVG(_ node: MarkupNode, style: ElementStyle, lang: String?) {
    let resource = InlineSVG.href(chapter: href, index: inlineImages.count + 1)
    inlineImages[resource] = Data((node.markup ?? "").utf8)
    let title = node.children.first { tree.nodes[$0].name == "title" }
    var ref = ImageRef(
      href: resource,
      alt: title.map { tree.textContent(of: $0).trimmingCharacters(in: .whitespacesAndNewlines) }
        ?? node.attribute("aria-label") ?? "")
    ref.box = style.box
    if style.display == .inline {
      frames[frames.count - 1].pending.append(.image(ref, style.computed))
      return
    }
    appendBlockLevel(
      Block(
        kind: .image(ref), style: style.computed, location: location, element: "svg", lang: lang,
        dir: style.computed.direction, box: style.box))
  }

  private func firstDescendant(of n: Int, named name: String) -> Int? {
    var stack = tree.nodes[n].children
    while let m = stack.popLast() {
      if tree.nodes[m].kind == .element && tree.nodes[m].name == name { return m }
      stack.append(contentsOf: tree.nodes[m].children)
    }
    return nil
  }

  private func imageRef(_ node: MarkupNode) -> ImageRef? {
    guard let src = node.attribute("src") ?? node.attribute("xlink:href") ?? node.attribute("href"),
      !src.isEmpty
    else { return nil }
    func number(_ s: String?) -> Double? {
      guard let s else { return nil }
      let digits = s.trimmingCharacters(in: .whitespaces).prefix { $0.isNumber || $0 == "." }
      guard let v = Double(digits), v.isFinite, v > 0, !s.contains("%") else { return nil }
      return min(v, 100_000)
    }
    return ImageRef(
      href: PathResolver.resolve(src, against: href), alt: node.attribute("alt") ?? "",
      width: number(node.attribute("width")), height: number(node.attribute("height")))
  }

  private mutating func appendText(_ text: String, _ ctx: StyleContext) {
    var style = ctx.inlineTextStyle
    // Nearly always no first line: the element's text style is shared as it is.
    if let first = ctx.firstLine {
      style = RunStyle(
        FirstLineCascade.attach(Self.inlineStyle(first.computed), to: style.style))
    }
    frames[frames.count - 1].pending.append(
      .text(text, style, link: ctx.link, lang: ctx.lang))
  }

  /// Sets the element's first-line styles (its own and its `::after`'s), `parent` its
  /// parent's context.
  private mutating func setFirstLine(
    _ ctx: StyleContext, _ style: ElementStyle, _ matched: MatchedDeclarations,
    _ opened: Bool, _ openedBox: Bool, _ parent: StyleContext
  ) {
    ctx.firstLine = firstLineStyle(
      style, matched, opened: opened, openedBox: openedBox, parent: parent)
    if let fl = ctx.firstLine, ctx.after != nil {
      ctx.afterFirstLine = pseudoStyle(.after, matched, fl)
    }
  }

  /// The element's style inside the `::first-line` box of its block (FirstLineCascade.swift):
  /// an inline element's is computed under its parent's; a block's is its own
  /// `::first-line`, over what its parent hands down when it is the parent's first content.
  private mutating func firstLineStyle(
    _ style: ElementStyle, _ matched: MatchedDeclarations, opened: Bool, openedBox: Bool,
    parent: StyleContext
  ) -> ElementStyle? {
    let inherited = parent.firstLine
    // An atomic inline's content is laid out apart, as a block of its own.
    if openedBox { return nil }
    guard opened else {
      return inherited.map {
        FirstLineCascade.descendant(matched.element, element: style, parent: $0)
      }
    }
    var handed: ElementStyle? = nil
    if parent.openedFrame {
      if let inherited, frames.count >= 2, frames[frames.count - 2].children.isEmpty {
        handed = FirstLineCascade.descendant(matched.element, element: style, parent: inherited)
      }
      // The parent's first line is this block's (or was before it): none later is.
      parent.firstLine = nil
    }
    return FirstLineCascade.own(matched.pseudo[.firstLine], base: handed ?? style) ?? handed
  }

  /// Whether some run of `inlines` carries a first-line style.
  private static func hasFirstLine(_ inlines: [Inline]) -> Bool {
    inlines.contains {
      if case .text(let r) = $0 { return r.style.firstLine != nil }
      return false
    }
  }

  /// An inline's style without the box properties that only blocks act on, so runs that
  /// differ only there merge and dumps stay readable.
  static func inlineStyle(_ s: ComputedStyle) -> ComputedStyle {
    var s = s
    s.margin = .zero
    s.padding = .zero
    s.breakBefore = .auto
    s.breakAfter = .auto
    s.breakInside = .auto
    return s
  }

  private mutating func appendBlock(_ block: Block) {
    frames[frames.count - 1].children.append(block)
  }

  private mutating func blockKind(_ node: MarkupNode, _ style: ElementStyle) -> BlockKind {
    switch style.display {
    case .listItem:
      return .listItem(marker: nextMarker)
    case .table: return .table
    case .tableRow: return .tableRow
    case .tableCell: return .tableCell(header: node.name == "th")
    case .tableCaption: return .caption
    default: break
    }
    switch node.name {
    case "p": return .paragraph
    case "h1", "h2", "h3", "h4", "h5", "h6": return .heading(level: Int(String(node.name.last!))!)
    case "ul", "menu", "dir": return .list(ordered: false, start: 1)
    case "ol": return .list(ordered: true, start: 1)
    case "blockquote": return .blockquote
    case "pre", "listing", "xmp", "plaintext": return .preformatted
    case "figure": return .figure
    case "figcaption", "caption": return .caption
    default: return .container
    }
  }

  // MARK: - Generated content (GeneratedText.swift)

  /// HTML's list attributes as counter values (`<ol start reversed>`, `<li value>`), then the
  /// element's counter properties.
  private mutating func applyCounters(
    _ n: Int, _ style: inout ElementStyle, scope: inout Set<String>
  ) {
    let node = tree.nodes[n]
    func integer(_ name: String) -> Int? {
      node.attribute(name).flatMap { Int($0.trimmingCharacters(in: .whitespaces).prefix(12)) }
    }
    if node.name == "ol",
      let k = style.generated.counterReset?.firstIndex(where: { $0.name == "list-item" })
    {
      let start = integer("start")
      if node.attribute("reversed") != nil {
        style.generated.counterReset?[k] = CounterChange(
          name: "list-item", value: (start ?? 0) + 1, reversed: true, countsItems: start == nil)
      } else if let start {
        style.generated.counterReset?[k].value = start - 1
      }
    }
    if node.name == "li", style.display == .listItem, let v = integer("value"),
      style.generated.counterSet == nil
    {
      style.generated.counterSet = [CounterChange(name: "list-item", value: v)]
    }
    generated.applyCounters(
      style.generated, listItem: style.display == .listItem, siblingScope: &scope,
      itemCount: { Self.itemCount(n, tree: tree) })
  }

  /// `<li>` children of a list (what a reversed list counts down from).
  private static func itemCount(_ n: Int, tree: MarkupTree) -> Int {
    tree.nodes[n].children.count { tree.nodes[$0].kind == .element && tree.nodes[$0].name == "li" }
  }

  /// The first number of an `<ol>` (for the dump and `BlockKind.list`).
  private static func firstNumber(_ n: Int, tree: MarkupTree) -> Int {
    let node = tree.nodes[n]
    let start = node.attribute("start").flatMap {
      Int($0.trimmingCharacters(in: .whitespaces).prefix(12))
    }
    if node.attribute("reversed") != nil, node.name == "ol" {
      return start ?? itemCount(n, tree: tree)
    }
    return start ?? 1
  }

  /// A pseudo-element's style (inheriting from its element's), when it has declarations.
  private func pseudoStyle(
    _ p: PseudoElement, _ matched: MatchedDeclarations, _ style: ElementStyle
  )
    -> ElementStyle?
  {
    guard let decls = matched.pseudo[p] else { return nil }
    let s = StyleComputer.compute(decls, parent: style, base: ElementStyle.inheriting(from: style))
    if case .items = s.generated.content { return s }
    return p == .firstLetter || p == .marker ? s : nil
  }

  /// Sets `nextMarker` for a list item (::marker content, else its list-style-type); returns
  /// the marker text when it is set inside (as generated text), else nil.
  private mutating func prepareMarker(
    _ n: Int, _ style: ElementStyle, _ matched: MatchedDeclarations, lang: String?
  ) -> String? {
    guard style.display == .listItem else { return nil }
    let inside = style.generated.markerInside
    var text = generated.marker(style.listStyle, inside: inside)
    if let m = pseudoStyle(.marker, matched, style), case .items(let items) = m.generated.content {
      text = generated.text(items, node: tree.nodes[n], quotes: m.generated.quotes, lang: lang)
    }
    nextMarker = inside ? "" : text
    return inside && !text.isEmpty ? text : nil
  }

  /// After an element opened: its inside marker, ::before and ::first-letter.
  private mutating func startGenerated(
    _ n: Int, _ style: ElementStyle, _ matched: MatchedDeclarations, insideMarker: String?,
    opened: Bool, _ ctx: StyleContext
  ) {
    if let insideMarker {
      frames[frames.count - 1].pending.append(
        .text(
          insideMarker, RunStyle(Self.inlineStyle(style.computed)), link: ctx.link,
          lang: ctx.lang, generated: true))
    }
    let fl = ctx.firstLine
    if let before = pseudoStyle(.before, matched, style) {
      appendGenerated(before, n, ctx, firstLine: fl.flatMap { pseudoStyle(.before, matched, $0) })
    }
    if opened, let first = pseudoStyle(.firstLetter, matched, style) {
      // Inside the first line, the first letter inherits from ::first-line (CSS Pseudo 4 §2.1).
      let inFirstLine = fl.flatMap { pseudoStyle(.firstLetter, matched, $0) }
      frames[frames.count - 1].firstLetter = FirstLetterStyle(
        style: FirstLineCascade.attach(
          inFirstLine.map { Self.inlineStyle($0.computed) }, to: Self.inlineStyle(first.computed)),
        box: first.box)
    }
  }

  /// The text of a ::before/::after with content, as a generated run in the open frame.
  private mutating func appendGenerated(
    _ pseudo: ElementStyle, _ n: Int, _ ctx: StyleContext, firstLine: ElementStyle? = nil,
    after: Bool = false
  ) {
    guard case .items(let items) = pseudo.generated.content, pseudo.display != .none else { return }
    generated.applyCounters(
      pseudo.generated, listItem: false, siblingScope: &ctx.siblingScope, itemCount: { 0 })
    let text = generated.text(
      items, node: tree.nodes[n], quotes: pseudo.generated.quotes, lang: ctx.lang)
    guard !text.isEmpty else { return }
    // An inline box child of its element (CSS 2.1 §12.1): its padding, borders, margins and
    // background are drawn as a span's are.
    var pseudo = pseudo
    let id = InlineBoxDecoration.pseudoID(element: Int(ordinals[n]), after: after)
    pseudo.resolveInlineBox(id: id)
    var line = firstLine
    line?.resolveInlineBox(id: id)
    let style = FirstLineCascade.attach(
      line.map { Self.inlineStyle($0.computed) }, to: Self.inlineStyle(pseudo.computed))
    frames[frames.count - 1].pending.append(
      .text(text, RunStyle(style), link: ctx.link, lang: ctx.lang, generated: true))
  }

  /// Gives the first letter unit of the first text its `::first-letter` style (as a run of
  /// its own; the text and its Locations are unchanged). Returns whether `pending` settled
  /// the first letter (split it, or holds content before any letter); false when it holds
  /// only anchors and white space, which make no line: the first letter then goes on to
  /// what follows (a container's first child block, CSS Pseudo 4 §2.1).
  @discardableResult
  private static func splitFirstLetter(
    _ pending: inout [PendingInline], _ first: FirstLetterStyle?
  ) -> Bool {
    guard let first else { return true }
    let style = first.style
    for (k, item) in pending.enumerated() {
      switch item {
      case .anchor: continue
      case .text(let text, let st, let link, let lang, let gen):
        guard let (lead, letter, rest) = FirstLetter.split(text) else {
          if text.allSatisfy(\.isWhitespace) { continue }
          return true
        }
        var parts: [PendingInline] = []
        if !lead.isEmpty { parts.append(.text(lead, st, link: link, lang: lang, generated: gen)) }
        // A floated first letter (a drop cap) is a float of its own (CSS Pseudo 4 §2.1).
        var box = first.box
        if box.initialLetter != nil, box.float == .none { box.float = .left }
        let floats = box.float != .none
        if floats {
          parts.append(
            .boxStart(
              InlineBoxOpening(
                style: style, box: box, element: "::first-letter", source: -1, lang: lang)))
        }
        parts.append(.text(letter, RunStyle(style), link: link, lang: lang, generated: gen))
        if floats { parts.append(.boxEnd) }
        if !rest.isEmpty { parts.append(.text(rest, st, link: link, lang: lang, generated: gen)) }
        pending.replaceSubrange(k...k, with: parts)
        return true
      default: return true
      }
    }
    return false
  }

  // MARK: - Frames

  private mutating func closeFrame() {
    let block = finish(frames.removeLast())
    frames[frames.count - 1].children.append(block)
  }

  /// Turns a frame into its block; remaining inline content goes into the block itself
  /// (kinds that hold inlines) or an anonymous paragraph. The frame is consumed: a copy
  /// would share its children, and appending the anonymous paragraph would then copy every
  /// block.
  private mutating func finish(_ frame: consuming Frame) -> Block {
    var block = Block(
      kind: frame.kind, style: frame.style, location: frame.location, element: frame.element,
      lang: frame.lang, dir: frame.style.direction, box: frame.box)
    block.note = frame.note
    block.source = frame.source
    block.table = frame.table
    let holdsInlines: Bool
    // By pattern: `frame.kind == .preformatted` made and copied a `BlockKind` (~400
    // instructions with its destruction).
    var isPre = false
    switch frame.kind {
    case .preformatted:
      holdsInlines = true
      isPre = true
    case .paragraph, .heading, .listItem, .caption, .tableCell: holdsInlines = true
    default: holdsInlines = false
    }
    if frame.children.isEmpty && holdsInlines {
      var pending = frame.pending
      frame.pending = []
      Self.splitFirstLetter(&pending, frame.firstLetter)
      let (inlines, image) = process(pending, isPre: isPre, lang: frame.lang)
      if let image {
        block.children = [image]
      } else {
        block.inlines = inlines
        block.hasFirstLine = Self.hasFirstLine(inlines)
      }
    } else {
      if var anon = anonymousParagraph(&frame) {
        anon.source = frame.source
        frame.children.append(anon)
      }
      block.children = frame.children
    }
    return block
  }

  /// Flushes the open frame's inline content into an anonymous paragraph before a block child.
  private mutating func flushPending() {
    let last = frames.count - 1
    guard !frames[last].pending.isEmpty else { return }
    // Most often the indentation between two block elements: nothing to make (and no line,
    // so a `::first-letter` waiting here goes on to the block child).
    if Self.collapsesAway(frames[last].pending) {
      frames[last].pending = []
      return
    }
    // Take the pending content out first: copying the frame would copy its children
    // (quadratic in a container with many anonymous paragraphs).
    var pending = frames[last].pending
    frames[last].pending = []
    if Self.splitFirstLetter(&pending, frames[last].firstLetter) {
      frames[last].firstLetter = nil
    }
    let (kind, style, lang) = (frames[last].kind, frames[last].style, frames[last].lang)
    if var anon = anonymousParagraph(
      pending, kind: kind, style: style, lang: lang, box: frames[last].box)
    {
      anon.source = frames[last].source
      frames[last].children.append(anon)
    }
  }

  private mutating func anonymousParagraph(_ frame: inout Frame) -> Block? {
    var pending = frame.pending
    frame.pending = []
    if frame.children.isEmpty { Self.splitFirstLetter(&pending, frame.firstLetter) }
    return anonymousParagraph(
      pending, kind: frame.kind, style: frame.style, lang: frame.lang, box: frame.box)
  }

  private mutating func anonymousParagraph(
    _ pending: [PendingInline], kind: BlockKind, style frameStyle: ComputedStyle, lang: String?,
    box: BoxStyle
  ) -> Block? {
    guard !pending.isEmpty, !Self.collapsesAway(pending) else { return nil }
    let start = location
    var isPre = false
    if case .preformatted = kind { isPre = true }
    let (inlines, image) = process(pending, isPre: isPre, lang: lang)
    if let image { return image }
    guard !inlines.isEmpty else { return nil }
    // An anonymous box inherits the inherited properties only.
    var style = ElementStyle()
    style.computed = frameStyle
    let anonStyle = ElementStyle.inheriting(from: style).computed
    var block = Block(
      kind: .paragraph, style: anonStyle, inlines: inlines, location: start, element: "",
      lang: lang, dir: frameStyle.direction)
    block.hasFirstLine = Self.hasFirstLine(inlines)
    // Its lines are the element's (CSS Overflow 3 §3.2: the ellipsis is the block
    // container's, whose anonymous boxes hold its text).
    block.box.textOverflowEllipsis = box.clipsOverflow && box.textOverflowEllipsis
    return block
  }

  // MARK: - White space and offsets

  /// Whether `pending` is only text of ASCII white space under `normal` or `nowrap` (the
  /// usual indentation between block elements). White-space processing drops all of it at
  /// a block's start, so such content makes no piece and no paragraph: `process` need not
  /// run (nor its first-letter split, which skips white space).
  private static func collapsesAway(_ pending: [PendingInline]) -> Bool {
    for item in pending {
      guard case .text(let s, let st, _, _, _) = item else { return false }
      switch st.style.whiteSpace {
      case .normal, .nowrap: break
      case .pre, .preWrap, .preLine: return false
      }
      for c in s.utf8 where !(c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D || c == 0x0C) {
        return false
      }
    }
    return true
  }

  /// CSS white-space processing over one block's inline content, then offsets. Returns a
  /// block image instead when the content is one image and nothing else.
  private mutating func process(_ pending: [PendingInline], isPre: Bool, lang: String?) -> (
    [Inline], Block?
  ) {
    var collapser = WhiteSpaceCollapser(isPre: isPre)
    for item in pending { collapser.add(item) }
    let pieces = collapser.finish()

    // One image alone (anchors aside) becomes a block-level image.
    if let (ref, st) = Self.soleImage(pieces) {
      for case .anchor(let id) in pieces where anchors[id] == nil { anchors[id] = offset }
      return (
        [],
        Block(
          kind: .image(ref), style: st, location: location, element: "img", lang: nil,
          dir: st.direction, box: ref.box)
      )
    }

    var out: [Inline] = []
    // Inline blocks, and blocks inside them, being filled (innermost last).
    var boxes: [BoxLevel] = []
    // The run being extended: appended to while only its text differs (kept out of `out`
    // so appending never copies the accumulated string).
    var open: TextRun? = nil
    // Its style as the pieces carry it (compared by reference first).
    var openStyle: RunStyle? = nil
    func close() {
      if let r = open { out.append(.text(r)) }
      open = nil
    }
    for p in pieces {
      switch p {
      case .anchor(let id):
        if anchors[id] == nil { anchors[id] = offset }
      case .lineBreak:
        close()
        out.append(.lineBreak(location))
        offset += 1
      case .image(let ref, let st):
        close()
        var inline = Self.inlineStyle(st)
        // A floated image is a float's margin box (Typeset/Blocks/FloatLayout.swift).
        if ref.box.float != .none { inline.margin = st.margin }
        out.append(.image(InlineImage(image: ref, style: inline, location: location)))
        offset += 1
      case .math(let formula, let st):
        close()
        out.append(.math(InlineMath(formula: formula, style: st, location: location)))
        offset += 1
      case .boxStart(let opening):
        close()
        boxes.append(BoxLevel(outside: out, start: location, opening: opening))
        out = []
      case .boxEnd:
        close()
        closeLevels(&boxes, content: &out, throughBox: true)
      case .blockStart(let opening):
        close()
        guard !boxes.isEmpty else { continue }
        boxes[boxes.count - 1].takeParagraph(&out)
        boxes.append(BoxLevel(start: location, block: opening))
      case .blockEnd:
        close()
        if boxes.last?.block != nil { closeLevels(&boxes, content: &out, throughBox: false) }
      case .blockLeaf(var leaf):
        close()
        guard !boxes.isEmpty else { continue }
        boxes[boxes.count - 1].takeParagraph(&out)
        leaf.location = location
        boxes[boxes.count - 1].children.append(leaf)
      case .text(let s, let st, let link, let lang, _, let generated):
        guard !s.isEmpty else { continue }
        // Compared in place: binding the run would copy its text on every append.
        if open != nil, openStyle?.sameStyle(as: st) == true, open?.link == link,
          open?.lang == lang, open?.generated == generated
        {
          open?.text += s
        } else {
          close()
          open = TextRun(text: s, style: st.style, location: location, link: link, lang: lang)
          open?.generated = generated
          openStyle = st
        }
        // Generated text is not book text: it advances no Location (GeneratedText.swift).
        if !generated { offset += ChapterBuilder.scalarCount(s) }
      }
    }
    close()
    while !boxes.isEmpty { closeLevels(&boxes, content: &out, throughBox: true) }
    RubyMarkup.attach(&out)
    return (out, nil)
  }

  /// The image of content whose only visible piece (anchors and empty text aside) is one
  /// image, else nil. Scans in place: filtering would copy every piece.
  private static func soleImage(_ pieces: [Piece]) -> (ImageRef, ComputedStyle)? {
    var image: (ImageRef, ComputedStyle)? = nil
    var visible = 0
    for p in pieces {
      switch p {
      case .anchor: continue
      case .text(let s, _, _, _, _, _): if s.isEmpty { continue }
      case .image(let ref, let st): if visible == 0 { image = (ref, st) }
      default: break
      }
      visible += 1
      if visible > 1 { return nil }
    }
    return visible == 1 ? image : nil
  }

  /// The number of Unicode scalars in `s`: its UTF-8 bytes that are not continuation bytes
  /// (a String's UTF-8 is valid). `unicodeScalars.count` decodes every scalar, ~10
  /// instructions a byte on a chapter's long text runs; this counts eight bytes a step (a
  /// continuation byte is 10xxxxxx: bit 7 set, bit 6 clear).
  static func scalarCount(_ s: String) -> Int {
    var s = s
    return s.withUTF8 { bytes in
      guard let base = bytes.baseAddress else { return 0 }
      let raw = UnsafeRawPointer(base)
      var n = 0
      var i = 0
      while i + 8 <= bytes.count {
        let w = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
        n += 8 - (w & ~(w << 1) & 0x8080_8080_8080_8080).nonzeroBitCount
        i += 8
      }
      while i < bytes.count {
        if bytes[i] & 0xC0 != 0x80 { n += 1 }
        i += 1
      }
      return n
    }
  }

  /// Closes the innermost level (`throughBox`: levels up to and including the innermost
  /// inline block): a block inside an inline block joins its parent's children; an inline
  /// block joins the content outside it (`content` then holds that content).
  private func closeLevels(_ levels: inout [BoxLevel], content: inout [Inline], throughBox: Bool) {
    while var level = levels.popLast() {
      level.takeParagraph(&content)
      if let o = level.block {
        var block = Block(
          kind: o.kind, style: o.style, location: level.start, element: o.element, lang: o.lang,
          dir: o.style.direction, box: o.box)
        (block.source, block.table) = (o.source, o.table)
        if level.holdsInlines, level.children.count == 1, level.children[0].element == "",
          case .paragraph = level.children[0].kind
        {
          block.inlines = level.children[0].inlines
        } else {
          block.children = level.children
        }
        content = []
        if !levels.isEmpty { levels[levels.count - 1].children.append(block) }
        if throughBox { continue }
        return
      }
      if let o = level.opening { closeInlineBox(&level, o, content: &content) }
      return
    }
  }

  /// Wraps an inline block's content into its `InlineBlock` and puts it after the content
  /// outside it (moved out of `box`): one paragraph, or its blocks when it holds some.
  private func closeInlineBox(
    _ box: inout BoxLevel, _ o: InlineBoxOpening, content: inout [Inline]
  ) {
    var block = Block(
      kind: .paragraph, style: o.style, location: box.start, element: o.element,
      lang: o.lang, dir: o.style.direction, box: o.box)
    block.source = o.source
    if box.children.count == 1, box.children[0].element == "",
      case .paragraph = box.children[0].kind
    {
      block.inlines = box.children[0].inlines
    } else if !box.children.isEmpty {
      block.kind = o.isTable ? .table : .container
      block.table = o.table
      block.children = box.children
    }
    // Moved out, not copied: appending to a shared buffer would copy the paragraph's content
    // once per box (quadratic in a paragraph of many boxes).
    content = []
    swap(&content, &box.outside)
    content.append(
      .inlineBlock(
        InlineBlock(
          block: block, style: Self.inlineStyle(o.style), location: box.start, end: offset)))
  }
}

/// An inline block, or a block-level element inside one, while its paragraph is numbered:
/// the content outside it (an inline block's), where it starts, and its blocks so far.
private struct BoxLevel {
  var outside: [Inline] = []
  var start: Location
  var children: [Block] = []
  var opening: InlineBoxOpening? = nil
  var block: BoxBlockOpening? = nil

  init(outside: [Inline], start: Location, opening: InlineBoxOpening) {
    (self.outside, self.start, self.opening) = (outside, start, opening)
  }

  init(start: Location, block: BoxBlockOpening) {
    (self.start, self.block) = (start, block)
  }

  /// Whether its block holds inline content itself (else its text is an anonymous
  /// paragraph).
  var holdsInlines: Bool {
    switch block?.kind {
    case .paragraph, .heading, .listItem, .preformatted, .caption, .tableCell: return true
    default: return false
    }
  }

  /// Its style, which an anonymous paragraph inside it inherits from.
  var style: ComputedStyle { block?.style ?? opening?.style ?? ComputedStyle() }

  /// Moves `content` (its inlines since the last block) into an anonymous paragraph at the
  /// end of its children; nothing when the content holds no inline.
  mutating func takeParagraph(_ content: inout [Inline]) {
    RubyMarkup.attach(&content)
    guard let first = content.first else { return }
    var parent = ElementStyle()
    parent.computed = style
    var anon = Block(
      kind: .paragraph, style: ElementStyle.inheriting(from: parent).computed, inlines: content,
      location: first.location, element: "", lang: block?.lang ?? opening?.lang,
      dir: style.direction)
    anon.source = block?.source ?? opening?.source ?? -1
    children.append(anon)
    content = []
  }
}

/// One block's inline content after white-space processing, before offsets are numbered.
private enum Piece {
  case text(
    String, RunStyle, link: String?, lang: String?, collapsibleTail: Bool,
    generated: Bool = false)
  case lineBreak(ComputedStyle, fromNewline: Bool)
  case image(ImageRef, ComputedStyle)
  case anchor(String)
  case math(MathFormula, ComputedStyle)
  indirect case boxStart(InlineBoxOpening)
  case boxEnd
  indirect case blockStart(BoxBlockOpening)
  case blockEnd
  indirect case blockLeaf(Block)
}

/// CSS white-space processing (CSS Text 3, the subset books use) over one block's inline
/// content, item by item: `normal`/`nowrap` collapse runs of white space to one space and
/// drop it at the block's start and end and before a forced break; `pre-line` also keeps
/// newlines as breaks; `pre`/`pre-wrap` keep everything, newlines becoming breaks (a newline
/// right after <pre> and right before </pre> does not count).
private struct WhiteSpaceCollapser {
  let isPre: Bool
  private(set) var pieces: [Piece] = []
  /// A collapsible space would be dropped here (true at the block's start).
  private var lastWasSpace = true
  private var atStart = true
  /// Whether the text being added is generated content.
  private var generated = false

  init(isPre: Bool) { self.isPre = isPre }

  mutating func add(_ item: PendingInline) {
    switch item {
    case .anchor(let id): pieces.append(.anchor(id))
    case .image(let ref, let st):
      pieces.append(.image(ref, st))
      lastWasSpace = false
      atStart = false
    case .math(let formula, let st):
      pieces.append(.math(formula, st))
      lastWasSpace = false
      atStart = false
    case .boxStart(let opening):
      // The box's content starts a block of its own: leading spaces collapse away.
      pieces.append(.boxStart(opening))
      lastWasSpace = true
      atStart = false
    case .boxEnd:
      // …and so do its trailing ones; outside, the box is one atomic object.
      trimTrailingSpace()
      pieces.append(.boxEnd)
      lastWasSpace = false
    case .blockStart, .blockEnd, .blockLeaf:
      // A block boundary inside an inline block ends a line box and starts the next: spaces
      // collapse away on both sides.
      trimTrailingSpace()
      pieces.append(Self.piece(item))
      lastWasSpace = true
      atStart = false
    case .lineBreak(let st):
      trimTrailingSpace()
      pieces.append(.lineBreak(st, fromNewline: false))
      lastWasSpace = true
      atStart = false
    case .text(let raw, let st, let link, let lang, let generated):
      self.generated = generated
      switch st.style.whiteSpace {
      case .pre, .preWrap: addPreserved(raw, st, link: link, lang: lang)
      case .normal, .nowrap, .preLine: addCollapsed(raw, st, link: link, lang: lang)
      }
    }
  }

  /// A block boundary's piece.
  private static func piece(_ item: PendingInline) -> Piece {
    switch item {
    case .blockStart(let o): return .blockStart(o)
    case .blockLeaf(let b): return .blockLeaf(b)
    default: return .blockEnd
    }
  }

  /// The pieces, with the trailing collapsible space and a final newline of <pre> removed.
  mutating func finish() -> [Piece] {
    trimTrailingSpace()
    if isPre {
      // A newline right before </pre> ends the last line; it does not start a new one.
      while let i = pieces.lastIndex(where: {
        if case .anchor = $0 { return false } else { return true }
      }),
        case .lineBreak(_, true) = pieces[i]
      {
        pieces.remove(at: i)
      }
    }
    return pieces
  }

  /// Drops a collapsible space before a forced break or the block end.
  private mutating func trimTrailingSpace() {
    for i in stride(from: pieces.count - 1, through: 0, by: -1) {
      switch pieces[i] {
      case .anchor: continue
      case .text(var s, let st, let link, let lang, let tail, let generated):
        if tail, s.unicodeScalars.last == " " {
          s.unicodeScalars.removeLast()
          pieces[i] = .text(
            s, st, link: link, lang: lang, collapsibleTail: tail, generated: generated)
        }
        return
      default: return
      }
    }
  }

  /// `pre` and `pre-wrap`: text kept as is, each newline (CR LF, LF or CR) a forced break,
  /// and a first newline right after `<pre>` dropped. Split on the source's UTF-8 bytes (the
  /// breaks are ASCII, so every piece between them is valid UTF-8 as it stands).
  private mutating func addPreserved(
    _ raw: String, _ st: RunStyle, link: String?, lang: String?
  ) {
    var source = raw
    let dropsFirstNewline = isPre && atStart
    var parts: [String?] = []  // nil: a newline
    var isEmpty = true
    source.withUTF8 { bytes in
      var i = 0
      if dropsFirstNewline, let first = bytes.first {
        if first == 0x0A {
          i = 1
        } else if first == 0x0D, bytes.count > 1, bytes[1] == 0x0A {
          i = 2
        }
      }
      isEmpty = i == bytes.count
      var start = i
      while i < bytes.count {
        let c = bytes[i]
        guard c == 0x0A || c == 0x0D else {
          i += 1
          continue
        }
        if start < i {
          parts.append(
            String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self))
        }
        parts.append(nil)
        i += c == 0x0D && i + 1 < bytes.count && bytes[i + 1] == 0x0A ? 2 : 1
        start = i
      }
      if start < bytes.count {
        parts.append(
          String(decoding: UnsafeBufferPointer(rebasing: bytes[start...]), as: UTF8.self))
      }
    }
    for part in parts {
      if let text = part {
        pieces.append(
          .text(text, st, link: link, lang: lang, collapsibleTail: false, generated: generated))
      } else {
        pieces.append(.lineBreak(st.style, fromNewline: true))
      }
    }
    if !isEmpty {
      lastWasSpace = false
      atStart = false
    }
  }

  /// Collapsing works on UTF-8 bytes: every white-space character is ASCII, and any other
  /// byte (including those of multi-byte scalars) is copied as is. Appending to a byte array
  /// is far cheaper than to a String.UnicodeScalarView, scalar by scalar.
  private mutating func addCollapsed(
    _ raw: String, _ st: RunStyle, link: String?, lang: String?
  ) {
    if st.style.whiteSpace != .preLine {
      addCollapsedRun(raw, st, link: link, lang: lang)
      return
    }
    var buf: [UInt8] = []
    buf.reserveCapacity(raw.utf8.count)
    for c in raw.utf8 {
      switch c {
      case 0x20, 0x09, 0x0A, 0x0D, 0x0C:
        if st.style.whiteSpace == .preLine && c == 0x0A {
          if buf.last == 0x20 { buf.removeLast() }
          if !buf.isEmpty {
            pieces.append(
              .text(
                String(decoding: buf, as: UTF8.self), st, link: link, lang: lang,
                collapsibleTail: true, generated: generated))
          }
          buf.removeAll(keepingCapacity: true)
          trimTrailingSpace()
          pieces.append(.lineBreak(st.style, fromNewline: true))
          lastWasSpace = true
        } else if !lastWasSpace {
          buf.append(0x20)
          lastWasSpace = true
        }
      default:
        buf.append(c)
        lastWasSpace = false
        atStart = false
      }
    }
    if !buf.isEmpty {
      pieces.append(
        .text(
          String(decoding: buf, as: UTF8.self), st, link: link, lang: lang, collapsibleTail: true,
          generated: generated))
    }
  }

  /// `normal` and `nowrap` (no newline is kept): text that collapsing leaves as it is (no
  /// tab, newline or double space; 99.6 % of moby-dick's text bytes) is kept as the same
  /// String. Other text is written straight into the new String's storage, one pass over
  /// the source's UTF-8 and one allocation.
  private mutating func addCollapsedRun(
    _ raw: String, _ st: RunStyle, link: String?, lang: String?
  ) {
    var source = raw
    var lastWasSpace = self.lastWasSpace
    var sawOther = false
    let text = source.withUTF8 { bytes in
      if CollapsedSpace.isCollapsed(bytes, lastWasSpace: lastWasSpace) {
        CollapsedSpace.flags(ofCollapsed: bytes, lastWasSpace: &lastWasSpace, sawOther: &sawOther)
        return raw
      }
      return String(unsafeUninitializedCapacity: bytes.count) { out in
        CollapsedSpace.collapse(bytes, into: out, lastWasSpace: &lastWasSpace, sawOther: &sawOther)
      }
    }
    self.lastWasSpace = lastWasSpace
    if sawOther { atStart = false }
    if !text.isEmpty {
      pieces.append(
        .text(text, st, link: link, lang: lang, collapsibleTail: true, generated: generated))
    }
  }
}

/// The collapsing of `white-space: normal` on UTF-8 bytes: each run of ASCII white space
/// (space, tab, LF, CR, FF) becomes one space, none when one was just written.
enum CollapsedSpace {
  /// Collapses `bytes` into `out` (at least `bytes.count` long; collapsing never lengthens)
  /// and returns the length written. `lastWasSpace`: a space was just written (or the
  /// block starts), so white space is dropped; `sawOther` is set by any other byte.
  static func collapse(
    _ bytes: UnsafeBufferPointer<UInt8>, into out: UnsafeMutableBufferPointer<UInt8>,
    lastWasSpace: inout Bool, sawOther: inout Bool
  ) -> Int {
    var n = 0
    for c in bytes {
      if c <= 0x20, c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D || c == 0x0C {
        if !lastWasSpace {
          out[n] = 0x20
          n += 1
          lastWasSpace = true
        }
      } else {
        out[n] = c
        n += 1
        lastWasSpace = false
        sawOther = true
      }
    }
    return n
  }

  /// Whether `collapse` would give `bytes` back as they are: no byte below 0x0E (tab, LF,
  /// FF, CR, and a few controls for which it only may not), no two spaces in a row, and no
  /// space first after a space. Then the text's String is kept (session 17): the collapse
  /// cost ~12 instructions a byte and validating the new String's UTF-8 ~8 more (~26 M of
  /// a paginate of moby-dick); this test takes eight bytes a step. In each word, the
  /// has-less-than test says exactly whether a byte is below 0x0E, and the spaces are
  /// flagged exactly, bit 7 of each byte (a zero byte of the word XOR `0x20…`, found
  /// without the borrows of the has-zero test).
  static func isCollapsed(_ bytes: UnsafeBufferPointer<UInt8>, lastWasSpace: Bool) -> Bool {
    guard let base = bytes.baseAddress else { return true }
    let raw = UnsafeRawPointer(base)
    let count = bytes.count
    let highs: UInt64 = 0x8080_8080_8080_8080
    let lows: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
    var afterSpace = lastWasSpace
    var i = 0
    while i + 8 <= count {
      let w = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
      if (w &- 0x0E0E_0E0E_0E0E_0E0E) & ~w & highs != 0 { return false }
      let t = w ^ 0x2020_2020_2020_2020
      let spaces = ~(((t & lows) &+ lows) | t | lows)
      if spaces & (spaces << 8) != 0 || (afterSpace && spaces & 0x80 != 0) { return false }
      afterSpace = spaces >> 63 != 0
      i += 8
    }
    while i < count {
      let c = bytes[i]
      if c < 0x0E || (afterSpace && c == 0x20) { return false }
      afterSpace = c == 0x20
      i += 1
    }
    return true
  }

  /// `collapse`'s flags for bytes it gives back as they are (`isCollapsed`): the last byte
  /// says whether a space was just written; any byte but a lone space is another byte.
  static func flags(
    ofCollapsed bytes: UnsafeBufferPointer<UInt8>, lastWasSpace: inout Bool, sawOther: inout Bool
  ) {
    guard let last = bytes.last else { return }
    lastWasSpace = last == 0x20
    if bytes.count > 1 || last != 0x20 { sawOther = true }
  }
}
