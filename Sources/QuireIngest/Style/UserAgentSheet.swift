// The user-agent style sheet: a browser's defaults (HTML Living Standard §15, "Rendering")
// trimmed to what the typesetter acts on, with e-reader choices: body has no margin (the
// page has its own), links are not coloured, and code and headings are not hyphenated
// automatically (an author's `hyphens: auto` on them wins; see ResolvedStyle.swift for how
// `--hyphenate` meets `hyphens`).

enum UserAgentSheet {
  static let css = """
    html, body, div, section, article, aside, nav, header, footer, main, address, blockquote,
    figure, figcaption, p, h1, h2, h3, h4, h5, h6, ul, ol, dl, dt, dd, pre, hr, center, hgroup,
    details, summary, form, fieldset, legend, menu, dir, listing, plaintext, xmp { display: block }
    li { display: list-item }
    head, script, style, title, meta, link, template, noscript, base, datalist, param,
    col, colgroup, area, map, [hidden] { display: none }
    table { display: table }
    tr { display: table-row }
    td, th { display: table-cell }
    tbody { display: table-row-group }
    thead { display: table-header-group }
    tfoot { display: table-footer-group }
    caption { display: table-caption; text-align: center }
    table { border-spacing: 2px; text-indent: 0 }
    td, th { padding: 1px }
    thead, tbody, tfoot, tr { vertical-align: middle }
    p { margin-top: 1em; margin-bottom: 1em }
    h1 { font-size: 2em; margin-top: 0.67em; margin-bottom: 0.67em; font-weight: bold }
    h2 { font-size: 1.5em; margin-top: 0.83em; margin-bottom: 0.83em; font-weight: bold }
    h3 { font-size: 1.17em; margin-top: 1em; margin-bottom: 1em; font-weight: bold }
    h4 { margin-top: 1.33em; margin-bottom: 1.33em; font-weight: bold }
    h5 { font-size: 0.83em; margin-top: 1.67em; margin-bottom: 1.67em; font-weight: bold }
    h6 { font-size: 0.67em; margin-top: 2.33em; margin-bottom: 2.33em; font-weight: bold }
    blockquote, figure { margin: 1em 40px }
    pre, listing, xmp, plaintext { white-space: pre; font-family: monospace; margin-top: 1em; margin-bottom: 1em }
    code, kbd, samp, tt { font-family: monospace }
    ul, ol, menu, dir { margin-top: 1em; margin-bottom: 1em; padding-left: 40px }
    ul ul, ol ul, dl ul, menu ul, dir ul, ul ol, ol ol, dl ol, menu ol, dir ol, ul dl, ol dl,
    dl dl, menu dl, dir dl, ul menu, ol menu, dl menu, menu menu, dir menu, ul dir, ol dir,
    dl dir, menu dir, dir dir { margin-top: 0; margin-bottom: 0 }
    ol, ul, menu, dir { counter-reset: list-item }
    q::before { content: open-quote }
    q::after { content: close-quote }
    ul, menu, dir { list-style-type: disc }
    ol { list-style-type: decimal }
    ul ul, ol ul { list-style-type: circle }
    ul ul ul, ul ol ul, ol ul ul, ol ol ul { list-style-type: square }
    dl { margin-top: 1em; margin-bottom: 1em }
    dd { margin-left: 40px }
    em, i, cite, var, dfn, address { font-style: italic }
    strong, b, th { font-weight: bolder }
    th { text-align: center }
    u, ins { text-decoration: underline }
    s, strike, del { text-decoration: line-through }
    small { font-size: smaller }
    big { font-size: larger }
    sup { vertical-align: super; font-size: smaller }
    sub { vertical-align: sub; font-size: smaller }
    hr { margin-top: 0.5em; margin-bottom: 0.5em }
    center { text-align: center }
    nobr { white-space: nowrap }
    pre, listing, xmp, plaintext, code, kbd, samp, tt, var, h1, h2, h3, h4, h5, h6 { hyphens: none }
    """

  static let sheet: StyleSheet = {
    var loader = StyleSheetLoader(loadResource: { _ in nil })
    var sheet = StyleSheet()
    loader.parse(css, baseHref: "", into: &sheet)
    return sheet
  }()
}
