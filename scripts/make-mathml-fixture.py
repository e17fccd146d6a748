#!/usr/bin/env python3
"""Writes the MathML fixture of issue #15: Tests/QuireTests/Fixtures/mathml/equations.xhtml
(one XHTML page of formulas: fractions, nested fractions, roots with degree, scripts, limits
on sums and integrals in display and inline style, stretchy fences around tall content,
matrices with fences, accents, over/under braces, operator spacing). The hostile inputs (deep nesting, a huge mspace, a 100,000-column table)
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
    with open(os.path.join(OUT, "equations.xhtml"), "w", encoding="utf-8") as f:
        f.write(equations())


if __name__ == "__main__":
    main()
