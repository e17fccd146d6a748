#!/usr/bin/env python3
"""Writes the typesetting size attacks of issue #9 as single XHTML files into a folder.

    python3 Benchmarks/typeset-attacks.py /tmp/attacks
    /usr/bin/time -v .build/release/quire paginate /tmp/attacks/shy.xhtml

Each file is one chapter; `quire paginate` reads XHTML directly. Sizes are the issue's
(full size); Tests/QuireTypesetTests/BoundedInlineTests.swift has the small CI versions.
"""
import os
import random
import sys


def page(body):
    return ('<?xml version="1.0" encoding="utf-8"?>\n<html xmlns="http://www.w3.org/1999/xhtml">'
            f"<head><title>t</title></head><body>{body}</body></html>")


def words(nbytes):
    rng = random.Random(1)
    vocabulary = ["lorem", "ipsum", "dolor", "sit", "amet", "consectetur", "adipiscing", "elit"]
    out, n = [], 0
    while n < nbytes:
        w = rng.choice(vocabulary)
        out.append(w)
        n += len(w) + 1
    return " ".join(out)


CASES = {
    "unbreakable": lambda: page("<p>Before " + "x" * 5000 + " after.</p>"),
    "huge": lambda: page("<p>" + words(20_000_000) + "</p>"),
    "shy": lambda: page("<p>" + "a&#173;" * 1_400_000 + "</p>"),
    "tabs": lambda: page("<p>" + "a\t" * 2_000_000 + "</p>"),
    "tabs-pre": lambda: page("<pre>" + "a\t" * 2_000_000 + "</pre>"),
    "br": lambda: page("<p>" + "a<br/>" * 200_000 + "</p>"),
    "marks": lambda: page("<p>" + " ".join("a" + "\u0301" * 50_000 for _ in range(20)) + "</p>"),
    "table-1000x1000": lambda: page("<table>" + ("<tr>" + "<td>c</td>" * 1000 + "</tr>") * 1000 + "</table>"),
    "table-100000x10": lambda: page("<table>" + ("<tr>" + "<td>c</td>" * 10 + "</tr>") * 100_000 + "</table>"),
}

if __name__ == "__main__":
    out = sys.argv[1] if len(sys.argv) > 1 else "attacks"
    os.makedirs(out, exist_ok=True)
    for name, make in CASES.items():
        with open(os.path.join(out, name + ".xhtml"), "w", encoding="utf-8") as f:
            f.write(make())
