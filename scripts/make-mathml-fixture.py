#!/usr/bin/env python3
"""Writes the MathML fixtures of issue #15: Tests/QuireTests/Fixtures/mathml/equations.xhtml
(one XHTML page of formulas: fractions, nested fractions, roots with degree, scripts, limits
on sums and integrals in display and inline style, stretchy fences around tall content,
matrices with fences, accents, over/under braces, operator spacing), operators.xhtml (one
operator per formula, spaced by the MathML Core dictionary, for the comparison with Chromium)
and notations.xhtml (every menclose notation, mathcolor/mathbackground and CSS colour, an inline
formula wider than the measure, an mlabeledtr equation number). The hostile inputs (deep nesting, a huge mspace, a 100,000-column table)
are made by Tests/QuireTests/MathMLTests.swift itself. Every <math> has an id so the
browser oracle (scripts/mathml-chromium.py) can report its box.

`make-mathml-fixture.py --bench DIR` writes instead a formula-heavy book and a prose book of
the same size into DIR (the speed check of Benchmarks/mathml.md)."""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "Tests", "QuireTests", "Fixtures", "mathml")

FORMULAS = [
    # (id, display, MathML content)
    ("frac", False, "<mfrac><mi>a</mi><mi>b</mi></mfrac><mo>+</mo><mfrac><mn>1</mn><mn>2</mn></mfrac>"),
    ("nested", True,
     "<mfrac><mrow><mn>1</mn><mo>+</mo><mfrac><mn>1</mn><mi>x</mi></mfrac></mrow>"
     "<mrow><mn>1</mn><mo>&#x2212;</mo><mfrac><mn>1</mn><msup><mi>x</mi><mn>2</mn></msup></mfrac></mrow></mfrac>"),
    ("roots", False,
     "<msqrt><msup><mi>a</mi><mn>2</mn></msup><mo>+</mo><msup><mi>b</mi><mn>2</mn></msup></msqrt>"
     "<mo>=</mo><mroot><mrow><mi>x</mi><mo>+</mo><mn>1</mn></mrow><mn>3</mn></mroot>"),
    ("scripts", False,
     "<msub><mi>x</mi><mi>i</mi></msub><mo>+</mo><msup><mi>e</mi><mrow><mo>&#x2212;</mo><mi>x</mi></mrow></msup>"
     "<mo>+</mo><msubsup><mi>y</mi><mi>j</mi><mn>2</mn></msubsup>"),
    ("sum-display", True,
     "<munderover><mo>&#x2211;</mo><mrow><mi>k</mi><mo>=</mo><mn>1</mn></mrow><mi>n</mi></munderover>"
     "<msup><mi>k</mi><mn>2</mn></msup><mo>=</mo><mfrac><mrow><mi>n</mi><mo>(</mo><mi>n</mi><mo>+</mo><mn>1</mn><mo>)</mo>"
     "<mo>(</mo><mn>2</mn><mi>n</mi><mo>+</mo><mn>1</mn><mo>)</mo></mrow><mn>6</mn></mfrac>"),
    ("sum-inline", False,
     "<munderover><mo>&#x2211;</mo><mrow><mi>k</mi><mo>=</mo><mn>1</mn></mrow><mi>n</mi></munderover><mi>k</mi>"),
    ("integral-display", True,
     "<msubsup><mo>&#x222B;</mo><mn>0</mn><mi>&#x221E;</mi></msubsup><msup><mi>e</mi><mrow><mo>&#x2212;</mo>"
     "<msup><mi>x</mi><mn>2</mn></msup></mrow></msup><mi>d</mi><mi>x</mi><mo>=</mo>"
     "<mfrac><msqrt><mi>&#x3C0;</mi></msqrt><mn>2</mn></mfrac>"),
    ("integral-inline", False,
     "<msubsup><mo>&#x222B;</mo><mn>0</mn><mn>1</mn></msubsup><mi>f</mi><mo>(</mo><mi>x</mi><mo>)</mo><mi>d</mi><mi>x</mi>"),
    ("fences", True,
     "<mrow><mo>(</mo><mfrac><mi>a</mi><mi>b</mi></mfrac><mo>)</mo></mrow>"
     "<mrow><mo>[</mo><mfrac><mrow><mi>x</mi><mo>+</mo><mn>1</mn></mrow><mfrac><mn>1</mn><mi>y</mi></mfrac></mfrac><mo>]</mo></mrow>"
     "<mrow><mo>{</mo><munderover><mo>&#x2211;</mo><mi>i</mi><mi>n</mi></munderover><msub><mi>a</mi><mi>i</mi></msub><mo>}</mo></mrow>"),
    ("matrix", True,
     "<mi>A</mi><mo>=</mo><mrow><mo>(</mo><mtable><mtr><mtd><mn>1</mn></mtd><mtd><mo>&#x2212;</mo><mn>1</mn></mtd></mtr>"
     "<mtr><mtd><mn>2</mn></mtd><mtd><mn>2</mn></mtd></mtr><mtr><mtd><mn>1</mn></mtd><mtd><mn>0</mn></mtd></mtr></mtable><mo>)</mo></mrow>"),
    ("accents", False,
     "<mover accent=\"true\"><mi>x</mi><mo>^</mo></mover><mo>+</mo><mover accent=\"true\"><mi>v</mi><mo>&#x2192;</mo></mover>"
     "<mo>+</mo><mover accent=\"true\"><mrow><mi>a</mi><mi>b</mi></mrow><mo>&#x203E;</mo></mover>"),
    ("braces", True,
     "<mover><mover><mrow><mi>a</mi><mo>+</mo><mi>b</mi><mo>+</mo><mi>c</mi></mrow><mo>&#x23DE;</mo></mover><mn>3</mn></mover>"
     "<mo>=</mo><munder><munder><mrow><mi>x</mi><mo>+</mo><mo>&#x22EF;</mo><mo>+</mo><mi>x</mi></mrow><mo>&#x23DF;</mo></munder>"
     "<mrow><mi>n</mi><mtext>&#xA0;times</mtext></mrow></munder>"),
    ("spacing", False,
     "<mi>a</mi><mo>=</mo><mi>b</mi><mo>+</mo><mi>c</mi><mo>&#xD7;</mo><mi>d</mi><mo>,</mo><mo>&#x2212;</mo><mi>x</mi>"
     "<mo>&#x2264;</mo><mi>y</mi><mo>&#x2192;</mo><mi>z</mi>"),
]

# Operator spacing by the MathML Core dictionary, compared with Chromium one formula at a
# time (Tests/QuireTests/Fixtures/mathml/operators-chromium.txt, MathMLTests).
OPERATORS = [
    ("op-plus", "<mi>a</mi><mo>+</mo><mi>b</mi>"),
    ("op-minus-prefix", "<mo>&#x2212;</mo><mi>x</mi>"),
    ("op-times", "<mi>a</mi><mo>&#xD7;</mo><mi>b</mi>"),
    ("op-cdot", "<mi>a</mi><mo>&#x22C5;</mo><mi>b</mi>"),
    ("op-equals", "<mi>a</mi><mo>=</mo><mi>b</mi>"),
    ("op-leq", "<mi>a</mi><mo>&#x2264;</mo><mi>b</mi>"),
    ("op-arrow", "<mi>a</mi><mo>&#x2192;</mo><mi>b</mi>"),
    ("op-comma", "<mi>a</mi><mo>,</mo><mi>b</mi>"),
    ("op-colon", "<mi>f</mi><mo>:</mo><mi>A</mi>"),
    ("op-paren", "<mi>f</mi><mo>(</mo><mi>x</mi><mo>)</mo>"),
    ("op-factorial", "<mi>n</mi><mo>!</mo>"),
    ("op-sum", "<mo>&#x2211;</mo><mi>x</mi>"),
    ("op-integral", "<mo>&#x222B;</mo><mi>f</mi>"),
    ("op-partial", "<mo>&#x2202;</mo><mi>f</mi>"),
    ("op-bars", "<mo>|</mo><mi>x</mi><mo>|</mo>"),
    ("op-middle-bar", "<mi>a</mi><mo>|</mo><mi>b</mi>"),
    ("op-invisible-times", "<mi>a</mi><mo>&#x2062;</mo><mi>b</mi>"),
    ("op-form-prefix", "<mi>a</mi><mo form=\"prefix\">+</mo><mi>b</mi>"),
    ("op-lspace", "<mi>a</mi><mo lspace=\"1em\" rspace=\"0\">+</mo><mi>b</mi>"),
    ("op-space-like", "<mspace width=\"1em\"/><mo>+</mo><mi>b</mi>"),
]

# menclose notations, colours and a formula wider than the measure (notations.xhtml).
NOTATIONS = ["box", "roundedbox", "circle", "left", "right", "top", "bottom",
             "updiagonalstrike", "downdiagonalstrike", "verticalstrike", "horizontalstrike",
             "updiagonalarrow", "longdiv", "actuarial", "madruwb", "phasorangle", "radical"]

WIDE = ("<mi>f</mi><mo>(</mo><mi>x</mi><mo>)</mo><mo>=</mo>"
        + "<mo>+</mo>".join(f"<msub><mi>a</mi><mn>{i}</mn></msub><msup><mi>x</mi><mn>{i}</mn></msup>"
                            for i in range(12))
        + "<mo>=</mo><munderover><mo>&#x2211;</mo><mrow><mi>i</mi><mo>=</mo><mn>0</mn></mrow>"
        "<mn>11</mn></munderover><msub><mi>a</mi><mi>i</mi></msub><msup><mi>x</mi><mi>i</mi></msup>")

PARAS = {
    "frac": "A fraction in running text, ",
    "roots": "Roots with and without a degree: ",
    "scripts": "Sub- and superscripts: ",
    "sum-inline": "In a line, the limits of a sum move to the side: ",
    "integral-inline": "and so do an integral\u2019s: ",
    "accents": "Accents sit on their base: ",
    "spacing": "Operators are spaced by the dictionary: ",
}


def math(fid, display, body):
    d = ' display="block"' if display else ""
    return f'<math id="{fid}"{d} xmlns="http://www.w3.org/1998/Math/MathML">{body}</math>'


def equations():
    body = []
    for fid, display, content in FORMULAS:
        m = math(fid, display, content)
        if display:
            body.append(f"<div>{m}</div>")
        else:
            body.append(f"<p>{PARAS.get(fid, '')}{m} and text after.</p>")
    return page("Equations", "\n".join(body))


def operators():
    body = [f"<p>{math(fid, False, content)}</p>" for fid, content in OPERATORS]
    return page("Operators", "\n".join(body))


def notations():
    cells = []
    for n in NOTATIONS:
        content = '<menclose notation="%s"><mi>x</mi><mo>+</mo><mn>1</mn></menclose>' % n
        cells.append(n + ": " + math("n-" + n, False, content))
    body = ["<p>" + "; ".join(cells[i:i + 3]) + ".</p>" for i in range(0, len(cells), 3)]
    body.append('<p>Colours: ' + math("colors", False,
        '<mi mathcolor="#c00000">a</mi><mo>+</mo><mrow mathbackground="#ffe080"><mi>b</mi>'
        '<mo mathcolor="blue">&#x2212;</mo><mi>c</mi></mrow><mo>=</mo>'
        '<mfrac mathcolor="#008000"><mn>1</mn><mi style="color: #800080">d</mi></mfrac>') + ".</p>")
    body.append("<p>A formula wider than the line breaks after its operators: "
                + math("wide", False, WIDE) + " and the sentence goes on.</p>")
    body.append("<div>" + math("labeled", True,
        '<mtable><mlabeledtr><mtd><mtext>(1.1)</mtext></mtd><mtd><msup><mi>e</mi><mrow><mi>i</mi>'
        '<mi>&#x3C0;</mi></mrow></msup><mo>+</mo><mn>1</mn><mo>=</mo><mn>0</mn></mtd></mlabeledtr>'
        '</mtable>') + "</div>")
    return page("Notations", "\n".join(body))


def page(title, body):
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE html>
<html xmlns="http://www.w3.org/1999/xhtml" lang="en">
<head><title>{title}</title></head>
<body>
{body}
</body>
</html>
"""


WORDS = ("the quick brown fox jumps over a lazy dog while seven wizards quietly judge "
         "boxing matches and every proof ends with a small square").split()


def bench(folder, paragraphs=400):
    """A formula-heavy book and a prose book of the same size in bytes (each formula replaced
    by prose as long as its markup), for the pagination speed check in Benchmarks/mathml.md."""
    os.makedirs(folder, exist_ok=True)
    heavy, prose = [], []
    for i in range(paragraphs):
        fid, display, content = FORMULAS[i % len(FORMULAS)]
        words = " ".join(WORDS[(i + k) % len(WORDS)] for k in range(40))
        m = math(f"f{i}", display, content).replace(f' id="f{i}"', "")
        filler = " ".join(WORDS[(i + k) % len(WORDS)] for k in range(len(m)))[: len(m)]
        if display:
            heavy.append(f"<p>{words}</p><div>{m}</div>")
            prose.append(f"<p>{words}</p><div>{filler}</div>")
        else:
            heavy.append(f"<p>{words} {m} {words}</p>")
            prose.append(f"<p>{words} {filler} {words}</p>")
    for name, body in [("math-heavy.xhtml", heavy), ("prose.xhtml", prose)]:
        with open(os.path.join(folder, name), "w", encoding="utf-8") as f:
            f.write(page(name, "\n".join(body)))


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--bench":
        bench(sys.argv[2])
        return
    os.makedirs(OUT, exist_ok=True)
    for name, text in [("equations.xhtml", equations()), ("operators.xhtml", operators()),
                       ("notations.xhtml", notations())]:
        with open(os.path.join(OUT, name), "w", encoding="utf-8") as f:
            f.write(text)


if __name__ == "__main__":
    main()
