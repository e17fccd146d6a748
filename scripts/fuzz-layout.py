#!/usr/bin/env python3
"""Structured layout fuzzing: random XHTML documents with hostile CSS, laid out and drawn by quire.

  fuzz-layout.py QUIRE --seeds 1-400 [--keep DIR] [--timeout 120]

Each seed makes one document (deterministic: the same seed gives the same bytes) from a grammar
of nested elements (tables with wild spans, lists, floats, ruby, pre, images with broken
sources, bidi text) and 3–25 rules that give properties extreme values (1e9px, negative sizes,
column-count 100000, initial-letter 1000, vertical writing modes, counters at Int32 limits…).
Every document runs `paginate`, `render --pages 1-4 --color rgb` and a small-page
`render --pages 2-5`; a crash (signal, exit 70) or a timeout is reported with its seed and the
document is kept in --keep. Exit codes 0, 64 (a page range past the end), 65 and 66 are fine.
libFuzzer (Fuzz/) mutates bytes; this walks the space of *valid* documents a byte mutator
rarely reaches. Costs grow with pages, so renders are limited to four pages each.
"""
import argparse, os, random, subprocess, sys, tempfile

PROPS = {
    'display': ['block', 'inline', 'inline-block', 'inline-table', 'table', 'table-row',
                'table-cell', 'list-item', 'none', 'flex', 'grid', 'table-caption', 'contents'],
    'float': ['left', 'right', 'none', 'inline-start'],
    'clear': ['both', 'left', 'right'],
    'position': ['absolute', 'relative', 'fixed', 'static'],
    'width': ['0', '1px', '-5px', '100%', '1e9px', '50em', 'auto', 'min-content', 'max-content',
              'calc(100% - 10px)', '0.0001px'],
    'height': ['0', '10px', '1e9px', '50%', 'auto'],
    'max-width': ['0', '10px', 'none', '5%'],
    'min-height': ['1e6px', '0', '20em'],
    'margin': ['auto', '-1e9px', '10px', '-50%', '1e9px 0', '0 auto'],
    'padding': ['1e9px', '10px', '50%', '-3px', '0 1e6px'],
    'border': ['1e9px solid red', '3px double', '0', '10px dotted blue', '5px groove'],
    'border-radius': ['50%', '1e9px', '10px / 5px'],
    'font-size': ['0', '1e9px', '0.001px', '300%', '-1px', 'xx-large', '50vw'],
    'line-height': ['0', '1e9', '-1', 'normal', '200px', '0.01'],
    'letter-spacing': ['1e9px', '-1e9px', '-0.5em', '10em'],
    'word-spacing': ['1e9px', '-1e9px', '-10em'],
    'text-indent': ['1e9px', '-1e9px', '100%', '-50em'],
    'white-space': ['pre', 'nowrap', 'pre-wrap', 'pre-line', 'break-spaces'],
    'word-break': ['break-all', 'keep-all'],
    'overflow-wrap': ['anywhere', 'break-word'],
    'column-count': ['1000', '2', '100000', '0'],
    'column-width': ['0.001px', '1px', '1e9px'],
    'column-span': ['all'],
    'break-before': ['page', 'column', 'avoid', 'left', 'recto'],
    'break-inside': ['avoid', 'avoid-page'],
    'widows': ['1000', '0', '2'],
    'orphans': ['1000', '1'],
    'text-align': ['justify', 'center', 'right', 'end'],
    'text-align-last': ['justify', 'center'],
    'vertical-align': ['1e9px', 'super', '-1e9px', 'middle', 'text-top', '50%'],
    'writing-mode': ['vertical-rl', 'vertical-lr', 'horizontal-tb', 'sideways-rl'],
    'direction': ['rtl', 'ltr'],
    'unicode-bidi': ['bidi-override', 'isolate', 'plaintext'],
    'initial-letter': ['12 3', '1000', '3'],
    'counter-increment': ['c 1000000000', 'c -2147483648', 'c'],
    'counter-reset': ['c 2147483647', 'c'],
    'content': ['counter(c)', 'counters(c, ".")', 'attr(id)', '"x" counter(c, lower-greek)',
                'open-quote'],
    'list-style-type': ['lower-greek', 'cjk-ideographic', 'upper-roman', 'decimal-leading-zero',
                        'hiragana', 'disc'],
    'font-variant': ['small-caps', 'all-small-caps'],
    'text-transform': ['uppercase', 'full-width'],
    'hyphens': ['auto', 'none', 'manual'],
    'box-decoration-break': ['clone', 'slice'],
    'overflow': ['hidden', 'scroll', 'clip'],
    'text-overflow': ['ellipsis'],
    'background': ['linear-gradient(red, blue)', 'url(x.png) repeat', 'red',
                   'linear-gradient(45deg, red 0%, blue 1e9%)'],
    'box-sizing': ['border-box'],
    'text-decoration': ['underline wavy', 'line-through double', 'overline'],
    'table-layout': ['fixed', 'auto'],
    'border-collapse': ['collapse', 'separate'],
    'border-spacing': ['1e9px', '5px 1e6px'],
    'caption-side': ['bottom', 'top'],
    'font-feature-settings': ['"smcp" 1', '"liga" 0, "kern" 0'],
    'text-combine-upright': ['all'],
    'text-orientation': ['upright', 'sideways'],
}
TAGS = ['p', 'div', 'span', 'em', 'table', 'tr', 'td', 'th', 'caption', 'ul', 'ol', 'li', 'img',
        'br', 'pre', 'code', 'h1', 'aside', 'figure', 'q', 'sup', 'ruby', 'rt', 'a', 'section',
        'blockquote', 'tbody', 'thead', 'col', 'colgroup', 'hr', 'dl', 'dt', 'dd']
SELECTORS = TAGS + ['*', 'p:nth-child(2n+1)', '.c', '#i3', 'p::first-line', 'p::first-letter',
                    'li::marker', 'span::before', 'div::after', 'td:first-child', 'q::before',
                    'body', 'html']
WORDS = ('lorem ipsum dolor sit amet, the whale Ishmael 日本語の文章 مرحبا بالعالم שלום עולם '
         'verylongwordwithoutbreaks http://example.com/a/b 😀👍🏽 ﷽ a\u0301').split(' ')


def style_sheet(r):
    rules = []
    for _ in range(r.randint(3, 25)):
        chosen = r.sample(list(PROPS.items()), r.randint(1, 6))
        decls = '; '.join(f'{k}: {r.choice(v)}' for k, v in chosen)
        rules.append(f'{r.choice(SELECTORS)} {{ {decls} }}')
    return '\n'.join(rules)


def node(r, depth, ids):
    if depth > r.randint(2, 12) or r.random() < 0.25:
        return ' '.join(r.choice(WORDS) for _ in range(r.randint(0, 40)))
    tag = r.choice(TAGS)
    ids[0] += 1
    attrs = f' id="i{ids[0]}" class="{r.choice(["c", "d", ""])}"'
    if tag == 'img':
        src = r.choice(['x.png', 'data:image/png;base64,AAAA', 'missing.jpg'])
        width = r.choice(['1e9', '0', '-5', '100', '50%'])
        return f'<img{attrs} src="{src}" alt="a" width="{width}"/>'
    if tag in ('br', 'hr', 'col'):
        return f'<{tag}{attrs}/>'
    if tag in ('td', 'th'):
        attrs += f' colspan="{r.choice(["1", "2", "1000", "0", "-1", "99999999"])}"'
        attrs += f' rowspan="{r.choice(["1", "3", "65534", "0"])}"'
    if tag == 'ol':
        attrs += f' start="{r.choice(["-2147483648", "9999999999", "3"])}"'
    kids = ''.join(node(r, depth + 1, ids) for _ in range(r.randint(0, 5)))
    return f'<{tag}{attrs}>{kids}</{tag}>'


def document(seed):
    r = random.Random(seed)
    body = ''.join(node(r, 0, [0]) for _ in range(r.randint(1, 8)))
    return ('<?xml version="1.0" encoding="utf-8"?>'
            '<html xmlns="http://www.w3.org/1999/xhtml"><head><title>f</title>'
            f'<style>{style_sheet(r)}</style></head><body>{body}</body></html>')


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('quire')
    ap.add_argument('--seeds', default='1-100')
    ap.add_argument('--keep', default='fuzz-layout-failures')
    ap.add_argument('--timeout', type=float, default=120)
    a = ap.parse_args()
    lo, hi = (int(x) for x in a.seeds.split('-'))
    failures = 0
    with tempfile.TemporaryDirectory(prefix='fuzz-layout-') as tmp:
        doc = os.path.join(tmp, 'f.xhtml')
        out = os.path.join(tmp, 'out')
        commands = [
            ['paginate', doc, '--cache', 'off'],
            ['render', doc, '-o', out, '--cache', 'off', '--color', 'rgb', '--pages', '1-4'],
            ['render', doc, '-o', out, '--cache', 'off', '--size', '300x200', '--font-size', '40',
             '--pages', '2-5'],
        ]
        for seed in range(lo, hi + 1):
            with open(doc, 'w', encoding='utf-8') as f:
                f.write(document(seed))
            for cmd in commands:
                try:
                    p = subprocess.run([a.quire] + cmd, capture_output=True, timeout=a.timeout)
                    bad = p.returncode not in (0, 64, 65, 66)
                    why = f'exit {p.returncode}'
                    err = p.stderr.decode(errors='replace')
                except subprocess.TimeoutExpired:
                    bad, why, err = True, f'timeout {a.timeout:g} s', ''
                if bad:
                    failures += 1
                    os.makedirs(a.keep, exist_ok=True)
                    kept = os.path.join(a.keep, f'seed-{seed}.xhtml')
                    with open(kept, 'w', encoding='utf-8') as f:
                        f.write(document(seed))
                    crash = next((l for l in err.splitlines() if 'crashed' in l), err[:200])
                    print(f'seed {seed}: {cmd[0]}: {why}: {crash.strip()} ({kept})', flush=True)
                    break
    print(f'{hi - lo + 1} documents, {failures} failing')
    sys.exit(1 if failures else 0)


if __name__ == '__main__':
    main()
