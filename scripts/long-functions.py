#!/usr/bin/env python3
"""Lists Swift functions (func, init, deinit, closures assigned to properties are ignored)
longer than a limit, by counting lines from the declaration to its matching closing brace.

    python3 scripts/long-functions.py [--limit 120] [Sources]

Braces inside string literals and comments are skipped. Exit code 1 when any function is
over the limit, so it can gate CI; parsers' switch tables are listed in ALLOWED."""
import re
import sys
from pathlib import Path

# Functions that are one big switch over token or tag kinds: long by nature, flat to read.
ALLOWED: set[str] = {
    "Sources/QuireIngest/Style/CSSTokenizer.swift:tokenize",  # CSS Syntax §4.3, one case per code point class
    "Sources/QuireIngest/Style/Cascade.swift:apply",  # one case per CSS property
    "Sources/QuireIngest/Style/CSSParser.swift:parse",  # selector grammar, one case per token
}

DECL = re.compile(r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|private|fileprivate|static|class|final|override|mutating|nonmutating|convenience|required|nonisolated|@inline\(__always\)|@usableFromInline)\s+)*(func\s+([^\s(<]+)|init[?!]?\s*[(<]|deinit\b)")


def strip(line: str, in_block: bool) -> tuple[str, bool]:
    """The line without comments and string contents; whether a block comment continues."""
    out = []
    i = 0
    in_string = False
    while i < len(line):
        c = line[i]
        if in_block:
            if line.startswith("*/", i):
                in_block = False
                i += 2
                continue
            i += 1
            continue
        if in_string:
            if c == "\\":
                i += 2
                continue
            if c == '"':
                in_string = False
            i += 1
            continue
        if line.startswith("//", i):
            break
        if line.startswith("/*", i):
            in_block = True
            i += 2
            continue
        if c == '"':
            in_string = True
            i += 1
            continue
        out.append(c)
        i += 1
    return "".join(out), in_block


def functions(path: Path):
    lines = path.read_text(encoding="utf-8").splitlines()
    cleaned = []
    in_block = False
    for line in lines:
        s, in_block = strip(line, in_block)
        cleaned.append(s)
    for start, text in enumerate(cleaned):
        m = DECL.match(text)
        if not m:
            continue
        name = m.group(2) or ("init" if "init" in m.group(1) else "deinit")
        depth = 0
        opened = False
        for end in range(start, len(cleaned)):
            for c in cleaned[end]:
                if c == "{":
                    depth += 1
                    opened = True
                elif c == "}":
                    depth -= 1
            if opened and depth <= 0:
                yield name, start + 1, end - start + 1
                break
            if not opened and end > start and cleaned[end].strip() == "":
                break  # a protocol requirement: no body


def main() -> int:
    args = sys.argv[1:]
    limit = 120
    if "--limit" in args:
        i = args.index("--limit")
        limit = int(args[i + 1])
        del args[i : i + 2]
    roots = [Path(a) for a in args] or [Path("Sources")]
    over = []
    for root in roots:
        for path in sorted(root.rglob("*.swift")):
            for name, line, length in functions(path):
                if length > limit and f"{path}:{name}" not in ALLOWED:
                    over.append((length, f"{path}:{line}", name))
    for length, where, name in sorted(over, reverse=True):
        print(f"{length:5d}  {where}  {name}")
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
