// @vitest-environment node
// The custom CSS rule (src/policy/custom-css.ts): what it lets through and every way of hiding what it refuses.
import { describe, expect, it } from 'vitest';
import { checkCustomCss, decodeCssEscapes, MAX_CUSTOM_CSS_LENGTH, stripCssComments } from '../../../src/policy/custom-css.ts';

describe('checkCustomCss', () => {
  it.each([
    ['', 'nothing'],
    [':root { --foyer-color-primary: #0a7; }\n.login h1 { font-weight: 700; }', 'tokens and rules'],
    ['a > b, a + b, a ~ b { color: red }', 'combinators'],
    ['html { scroll-behavior: smooth; overscroll-behavior: contain }', 'scroll-behavior'],
    ['body { background: url("https://cdn.example.com/bg.png") }', 'an https image'],
    ['.logo { background-image: url(data:image/png;base64,iVBORw0KGgo=) }', 'a data: image'],
    ['/* a comment */ .a::before { content: "\\2014" }', 'comments and an escaped dash'],
    ['@media (max-width: 600px) { .card { border-radius: 0 } }', 'media queries'],
  ])('accepts %j (%s)', (css) => {
    expect(checkCustomCss(css)).toEqual({ ok: true });
  });

  it.each([
    ['</style><script>alert(1)</script>', 'markup'],
    ['a::after { content: "\\3c /style>" }', 'markup'],
    ['body { background: url(javascript:alert(1)) }', 'script'],
    ["body { background: url('JavaScript:alert(1)') }", 'script'],
    ['body { background: url(\\6a avascript:alert(1)) }', 'script'],
    ['body { background: url(\\00006a avascript:alert(1)) }', 'script'],
    ['body { background: url(java\\\nscript:alert(1)) }', 'script'],
    ['body { background: url(java\\73 cript:alert(1)) }', 'script'],
    ['body { background: url(java\\\r\nscript:alert(1)) }', 'script'],
    ['body { background: url(java/**/script:alert(1)) }', 'script'],
    ['body { background: url(java\tscript:alert(1)) }', 'script'],
    ['body { background: url(vbscript:msgbox(1)) }', 'script'],
    ['body { background: url(data:text/html,<b>) }', 'markup'],
    ['body { background: url(data:text/html;base64,PGI+) }', 'script'],
    ['body { width: expression(alert(1)) }', 'expression'],
    ['body { width: expr/**/ession(alert(1)) }', 'expression'],
    ['body { width: \\65 xpression(alert(1)) }', 'expression'],
    ['body { width: EXPRESSION (alert(1)) }', 'expression'],
    ['@import url(https://evil.example/x.css);', 'import'],
    ['@\\69 mport "x.css";', 'import'],
    ['body { behavior: url(x.htc) }', 'binding'],
    ['body { -moz-binding: url(x.xml#xss) }', 'binding'],
    // A comment opener inside a string must not hide the markup after it.
    ['a { content: "/*" } </style><script>x</script> b { content: "*/" }', 'markup'],
  ])('refuses %j as %s', (css, reason) => {
    expect(checkCustomCss(css)).toEqual({ ok: false, reason });
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

describe('stripCssComments', () => {
  it('removes closed and unterminated comments', () => {
    expect(stripCssComments('a/* x */b/* y')).toBe('ab');
  });
});
