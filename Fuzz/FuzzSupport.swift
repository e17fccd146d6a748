// What the fuzz entries run: the same code paths `Book.open` takes, on bytes in memory.

import Foundation

/// ZIP layer (every entry inflated under the limits), then the whole EPUB reader on top:
/// container.xml, OPF, encryption.xml, nav/NCX, chapter conversion, fonts.
func fuzzPackage(_ data: Data, limits: IngestLimits) {
  guard let archive = try? ZipArchive(data: data, file: "fuzz.epub", limits: limits) else { return }
  for entry in archive.entries.prefix(200) {
    _ = try? archive.read(entry.name)
  }
  // A fresh archive: the first one's total budget is spent.
  guard let again = try? ZipArchive(data: data, file: "fuzz.epub", limits: limits) else { return }
  var options = IngestOptions()
  options.limits = limits
  _ = try? EPUBReader(files: again, options: options).document()
}

/// The content owner's converter, then the package side's XML tree on the same bytes.
func fuzzChapter(_ data: Data) {
  let converter = ChapterConverter(
    options: IngestOptions(), bookLanguage: "en", loadResource: { _ in nil })
  _ = converter.convert(
    ChapterSource(
      spineIndex: 0, href: "OPS/fuzz.xhtml", mediaType: "application/xhtml+xml", linear: true,
      data: data))
  if let tree = try? XMLTree.parse(data, file: "fuzz.xhtml", limits: IngestLimits()) {
    _ = TableOfContents.fromNav(tree, base: "OPS/nav.xhtml", limit: 200)
  }
}

/// The fixed document the `css` target styles: a little of everything selectors look at.
/// Built per input (a global would be reported by LeakSanitizer at exit).
func fuzzStyledDocument() -> Data {
  Data(
    """
    <?xml version="1.0" encoding="UTF-8"?>
    <html xmlns="http://www.w3.org/1999/xhtml" xml:lang="en"><head><title>t</title>
    <link rel="stylesheet" href="s.css"/></head>
    <body class="b" id="top"><div class="a b" id="x"><h1 title="h">H</h1><p class="a">one
    <em class="c">two</em> <span lang="fr-CA" data-x="1 2">three</span></p><p>four<br/>five</p>
    <ul class="l"><li>i</li><li class="a"><a href="#x">j</a></li><li id="y">k</li></ul></div>
    <section><div><div class="a"><p style="color: red; margin: 1em 2px">deep</p></div></div>
    <table><tr><td class="a">c</td><th>h</th></tr></table><img src="i.png" alt="a"/><hr/>
    <pre>  pre  </pre></section></body></html>
    """.utf8)
}

/// The CSS parser and the cascade on `data` as a style sheet: the converter end to end, then
/// the fast and the plain matcher compared element by element.
func fuzzStyleSheet(_ data: Data) {
  let document = fuzzStyledDocument()
  let converter = ChapterConverter(
    options: IngestOptions(), bookLanguage: "en",
    loadResource: { href in href == "OPS/s.css" ? data : nil })
  _ = converter.convert(
    ChapterSource(
      spineIndex: 0, href: "OPS/c.xhtml", mediaType: "application/xhtml+xml", linear: true,
      data: document))
  var sheet = StyleSheet()
  var loader = StyleSheetLoader(loadResource: { _ in nil })
  loader.parse(String(decoding: data, as: UTF8.self), baseHref: "OPS/s.css", into: &sheet)
  var rules = RuleSet()
  rules.add(UserAgentSheet.sheet, origin: 0)
  rules.add(sheet, origin: 1)
  let tree = MarkupParser.parse(document, limits: IngestLimits())
  var fast = StyleResolver(tree: tree, rules: rules)
  var plain = StyleResolver(tree: tree, rules: rules, reference: true)
  var stack = [tree.root]
  while let n = stack.popLast() {
    if n != tree.root && tree.nodes[n].kind == .element {
      let a = fast.declarations(for: n, inlineStyle: [])
      let b = plain.declarations(for: n, inlineStyle: [])
      if a != b { fatalError("hashed and plain matchers disagree on element \(n)") }
    }
    stack.append(contentsOf: tree.nodes[n].children.reversed())
  }
}
