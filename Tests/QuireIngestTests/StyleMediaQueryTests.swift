import Testing

@testable import QuireIngest

@Suite("Media queries")
struct StyleMediaQueryTests {
  func applies(_ query: String, _ w: Int = 600, _ h: Int = 800) -> Bool {
    let tokens = CSSTokenizer.tokenize(query)
    return CSSRuleParser.mediaApplies(tokens, viewport: MediaViewport(width: w, height: h))
  }

  @Test func mediaTypes() {
    #expect(applies(""))
    #expect(applies("all"))
    #expect(applies("screen"))
    #expect(applies("only screen"))
    #expect(!applies("print"))
    #expect(applies("print, screen"))
    #expect(!applies("not screen"))
    #expect(applies("not print"))
    #expect(!applies("amzn-kf8"))
  }

  @Test func orientationFollowsThePage() {
    // moby-dick's style sheet switches p between serif (portrait) and sans-serif (landscape).
    #expect(applies("all and (orientation:portrait)"))
    #expect(!applies("all and (orientation:landscape)"))
    #expect(applies("all and (orientation: landscape)", 800, 600))
    #expect(!applies("all and (orientation: portrait)", 800, 600))
  }

  @Test func widths() {
    #expect(applies("screen and (min-width: 500px)"))
    #expect(!applies("screen and (min-width: 700px)"))
    #expect(applies("(max-width: 40em)"))
    #expect(applies("(min-width: 300px) and (max-height: 900px)"))
    #expect(!applies("(min-width: 300px) and (max-height: 700px)"))
    #expect(!applies("(min-device-pixel-ratio: 2)"))  // unknown feature: false, as in browsers
    #expect(applies("(color)"))
    #expect(!applies("(monochrome)"))
  }

  @Test func publisherSheetPicksThePortraitRule() {
    var sheet = StyleSheet()
    var loader = StyleSheetLoader(
      loadResource: { _ in nil }, viewport: MediaViewport(width: 600, height: 800))
    loader.parse(
      "@media all and (orientation:portrait) { p { font-family: serif; } }\n"
        + "@media all and (orientation:landscape) { p { font-family: sans-serif; } }",
      baseHref: "x.css", into: &sheet)
    #expect(sheet.rules.count == 1)
    var wide = StyleSheet()
    loader.viewport = MediaViewport(width: 800, height: 600)
    loader.parse(
      "@media all and (orientation:landscape) { p { font-family: sans-serif; } }",
      baseHref: "y.css", into: &wide)
    #expect(wide.rules.count == 1)
  }
}
