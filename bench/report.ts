// The bench's HTML report: one self-contained page (inline SVG, no script, no fetch) with the latest
// run's table and a chart per figure of its value and floor over every result kept in bench/results.
import type { Figure } from './types.ts';

export type BenchRow = { entry: string; figure: Figure } | { entry: string; error: string };

export interface BenchResult {
  /** When the run finished (ISO 8601). */
  at: string;
  node: string;
  rows: BenchRow[];
}

const escape = (text: string) => text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
const number = (value: number) => value.toFixed(value < 10 ? 2 : 1);
const optional = (value: number | undefined, unit: string) => (value === undefined ? '–' : `${number(value)} ${unit}`);

interface Point {
  at: string;
  value: number;
  floor: number;
  /** The figure's 95th percentile, when its entry measured one. */
  p95?: number;
}

const WIDTH = 640;
const HEIGHT = 220;
const PAD = { left: 56, right: 16, top: 16, bottom: 36 };

function chart(unit: string, points: Point[]): string {
  const top = Math.max(...points.flatMap((point) => [point.value, point.floor, point.p95 ?? 0])) * 1.1 || 1;
  const x = (index: number) =>
    PAD.left + (points.length === 1 ? (WIDTH - PAD.left - PAD.right) / 2 : (index * (WIDTH - PAD.left - PAD.right)) / (points.length - 1));
  const y = (value: number) => HEIGHT - PAD.bottom - (value / top) * (HEIGHT - PAD.top - PAD.bottom);
  const line = (pick: (point: Point) => number, colour: string, label: string, dashed = false) => {
    const coordinates = points.map((point, index) => `${x(index).toFixed(1)},${y(pick(point)).toFixed(1)}`);
    const dots = points
      .map(
        (point, index) =>
          `<circle cx="${x(index).toFixed(1)}" cy="${y(pick(point)).toFixed(1)}" r="3" fill="${colour}"><title>${escape(`${label}: ${number(pick(point))} ${unit} (${point.at})`)}</title></circle>`,
      )
      .join('');
    return `<polyline fill="none" stroke="${colour}" stroke-width="2"${dashed ? ' stroke-dasharray="4 3"' : ''} points="${coordinates.join(' ')}"/>${dots}`;
  };
  // The p95 line over the runs that measured one (older results may not have it).
  const withP95 = points.every((point) => point.p95 !== undefined);
  const ticks = [0, 0.5, 1]
    .map((share) => {
      const value = top * share;
      return `<line x1="${PAD.left}" x2="${WIDTH - PAD.right}" y1="${y(value)}" y2="${y(value)}" stroke="#ddd"/><text x="${PAD.left - 6}" y="${y(value) + 4}" text-anchor="end">${number(value)}</text>`;
    })
    .join('');
  const first = points[0]!.at.slice(0, 16).replace('T', ' ');
  const last = points.at(-1)!.at.slice(0, 16).replace('T', ' ');
  return `<svg viewBox="0 0 ${WIDTH} ${HEIGHT}" width="${WIDTH}" height="${HEIGHT}" role="img" font-size="11" font-family="sans-serif">
${ticks}<text x="${PAD.left}" y="${HEIGHT - 8}">${escape(first)}</text><text x="${WIDTH - PAD.right}" y="${HEIGHT - 8}" text-anchor="end">${escape(last)}</text>
${line((point) => point.floor, '#2a9d8f', 'floor')}${line((point) => point.value, '#e76f51', 'value')}${withP95 ? line((point) => point.p95!, '#e76f51', 'p95', true) : ''}</svg>`;
}

export function renderReport(results: BenchResult[]): string {
  const sorted = [...results].sort((a, b) => a.at.localeCompare(b.at));
  const series = new Map<string, { entry: string; figure: Figure; points: Point[] }>();
  for (const result of sorted) {
    for (const row of result.rows) {
      if ('error' in row) continue;
      const key = `${row.entry}\n${row.figure.name}`;
      const known = series.get(key) ?? { entry: row.entry, figure: row.figure, points: [] };
      known.figure = row.figure;
      known.points.push({ at: result.at, value: row.figure.value, floor: row.figure.floor.value, p95: row.figure.p95 });
      series.set(key, known);
    }
  }
  const latest = sorted.at(-1);
  const rows = (latest?.rows ?? [])
    .map((row) =>
      'error' in row
        ? `<tr><td>${escape(row.entry)}</td><td colspan="8">failed: ${escape(row.error)}</td></tr>`
        : `<tr><td>${escape(row.entry)}</td><td>${escape(row.figure.name)}</td><td>${number(row.figure.value)} ${row.figure.unit}</td><td>${optional(row.figure.p95, row.figure.unit)}</td><td>${escape(row.figure.floor.name)}</td><td>${number(row.figure.floor.value)} ${row.figure.unit}</td><td>${optional(row.figure.floor.p95, row.figure.unit)}</td><td>${row.figure.floor.value > 0 ? `${(row.figure.value / row.figure.floor.value).toFixed(2)}×` : '–'}</td><td>${row.figure.spread === undefined ? '–' : `${Math.round(row.figure.spread * 100)} %`}</td></tr>`,
    )
    .join('\n');
  const charts = [...series.values()]
    .map(
      ({ entry, figure, points }) =>
        `<section><h2>${escape(entry)}: ${escape(figure.name)}</h2><p><span class="value">value</span>${points.every((point) => point.p95 !== undefined) ? ' (median; dashed: p95)' : ''} against <span class="floor">${escape(figure.floor.name)}</span>, ${figure.unit}, ${points.length} run${points.length === 1 ? '' : 's'}</p>${chart(figure.unit, points)}</section>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Foyer bench</title>
<style>body{font-family:sans-serif;margin:2rem;color:#222}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.25rem .5rem;text-align:left}.value{color:#e76f51;font-weight:bold}.floor{color:#2a9d8f;font-weight:bold}section{margin-top:1.5rem}h2{font-size:1rem;margin-bottom:.25rem}p{margin:.25rem 0}</style>
</head><body>
<h1>Foyer bench</h1>
<p>Latest run ${escape(latest?.at ?? 'none')} (Node ${escape(latest?.node ?? '?')}); ${sorted.length} result${sorted.length === 1 ? '' : 's'} kept in bench/results.</p>
<table><thead><tr><th>entry</th><th>figure</th><th>value</th><th>p95</th><th>floor</th><th>floor value</th><th>floor p95</th><th>ratio</th><th>spread</th></tr></thead><tbody>
${rows}
</tbody></table>
${charts}
</body></html>
`;
}
