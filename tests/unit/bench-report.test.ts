// The bench's HTML report (bench/report.ts): the latest run's table, failed entries included, and a
// chart per figure over every kept result, with nothing fetched and every text escaped.
import { describe, expect, it } from 'vitest';
import { renderReport, type BenchResult } from '../../bench/report.ts';

const figure = (name: string, value: number, floor: number, p95?: { value: number; floor: number }) => ({
  name,
  value,
  unit: 'ms' as const,
  spread: 0.1,
  p95: p95?.value,
  floor: { name: 'bare <floor>', value: floor, p95: p95?.floor },
});

const results: BenchResult[] = [
  {
    at: '2026-01-02T00:00:00.000Z',
    node: 'v20',
    rows: [
      { entry: 'users', figure: figure('first page', 12, 1) },
      { entry: 'login', figure: figure('sign-in', 30, 10) },
    ],
  },
  { at: '2026-01-01T00:00:00.000Z', node: 'v20', rows: [{ entry: 'users', figure: figure('first page', 20, 1) }] },
  {
    at: '2026-01-03T00:00:00.000Z',
    node: 'v20',
    rows: [
      { entry: 'users', figure: figure('first page', 8, 1, { value: 14, floor: 1.5 }) },
      { entry: 'login', error: 'answered 401 <html>' },
    ],
  },
];

function parse(html: string): Document {
  return new DOMParser().parseFromString(html, 'text/html');
}

describe('bench report', () => {
  it('tabulates the latest run, failures as rows', () => {
    const page = parse(renderReport(results));
    const rows = [...page.querySelectorAll('tbody tr')].map((row) => [...row.querySelectorAll('td')].map((cell) => cell.textContent));
    expect(rows).toEqual([
      ['users', 'first page', '8.00 ms', '14.0 ms', 'bare <floor>', '1.00 ms', '1.50 ms', '8.00×', '10 %'],
      ['login', 'failed: answered 401 <html>'],
    ]);
  });

  it('charts each figure over every run that measured it, oldest first', () => {
    const page = parse(renderReport(results));
    const sections = [...page.querySelectorAll('section')];
    expect(sections.map((section) => section.querySelector('h2')?.textContent)).toEqual(['users: first page', 'login: sign-in']);
    const values = (section: Element) =>
      [...section.querySelectorAll('circle title')].map((title) => title.textContent).filter((text) => text?.startsWith('value'));
    expect(values(sections[0]!)).toEqual([
      'value: 20.0 ms (2026-01-01T00:00:00.000Z)',
      'value: 12.0 ms (2026-01-02T00:00:00.000Z)',
      'value: 8.00 ms (2026-01-03T00:00:00.000Z)',
    ]);
    expect(values(sections[1]!)).toHaveLength(1);
  });

  it('draws the p95 only for a figure whose every run measured one', () => {
    const p95Titles = (html: string) =>
      [...parse(html).querySelectorAll('circle title')].map((title) => title.textContent).filter((text) => text?.startsWith('p95'));
    expect(p95Titles(renderReport(results))).toEqual([]);
    expect(p95Titles(renderReport(results.slice(2)))).toEqual(['p95: 14.0 ms (2026-01-03T00:00:00.000Z)']);
    const table = parse(renderReport(results.slice(0, 1)));
    expect([...table.querySelectorAll('tbody tr')][0]!.querySelectorAll('td')[3]!.textContent).toBe('–');
  });

  it('is self-contained', () => {
    const html = renderReport(results);
    expect(html).not.toMatch(/<script|<link|src=|href=/i);
    expect(html).toContain('failed: answered 401 &#60;html&#62;');
  });
});
