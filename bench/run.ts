// `npm run bench`: runs every bench/*.bench.ts (or those whose file name contains one of the
// arguments: `npm run bench -- users`) one after the other and prints one table, each figure (its
// median, and its 95th percentile where the entry measures one) beside the floor measured in the same run. An entry that fails is a row saying why, and the others still
// run. The same results go to bench/results/<time>.json, and bench/results/report.html charts every
// figure over all the JSON results kept there. Adding an entry is adding a file; nothing here changes.
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { BenchEntry, Figure } from './types.ts';
import { renderReport, type BenchResult, type BenchRow } from './report.ts';

const folder = path.dirname(fileURLToPath(import.meta.url));
const resultsFolder = path.join(folder, 'results');

function entryFiles(filters: string[]): Promise<string[]> {
  return readdir(folder).then((files) =>
    files
      .filter((file) => file.endsWith('.bench.ts'))
      .filter((file) => filters.length === 0 || filters.some((filter) => file.includes(filter)))
      .sort(),
  );
}

const format = (value: number, unit: Figure['unit']) => `${value.toFixed(value < 10 ? 2 : 1)} ${unit}`;

const formatOptional = (value: number | undefined, unit: Figure['unit']) => (value === undefined ? '–' : format(value, unit));

function cells(row: BenchRow): string[] {
  if ('error' in row) return [row.entry, `failed: ${row.error}`, '', '', '', '', '', '', ''];
  const { figure } = row;
  const ratio = figure.floor.value > 0 ? `${(figure.value / figure.floor.value).toFixed(2)}×` : '–';
  const spread = figure.spread === undefined ? '–' : `${Math.round(figure.spread * 100)} %`;
  return [
    row.entry,
    figure.name,
    format(figure.value, figure.unit),
    formatOptional(figure.p95, figure.unit),
    figure.floor.name,
    format(figure.floor.value, figure.unit),
    formatOptional(figure.floor.p95, figure.unit),
    ratio,
    spread,
  ];
}

function table(rows: BenchRow[]): string {
  const lines = [['entry', 'figure', 'value', 'p95', 'floor', 'floor value', 'floor p95', 'ratio', 'spread'], ...rows.map(cells)];
  const widths = lines[0]!.map((_, column) => Math.max(...lines.map((line) => line[column]!.length)));
  const render = (line: string[]) => `| ${line.map((cell, column) => cell.padEnd(widths[column]!)).join(' | ')} |`;
  return [render(lines[0]!), `|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`, ...lines.slice(1).map(render)].join('\n');
}

async function runEntry(file: string): Promise<BenchRow[]> {
  try {
    const entry = (await import(pathToFileURL(path.join(folder, file)).href)).default as BenchEntry;
    process.stderr.write(`bench: ${entry.title} (${file})…\n`);
    try {
      return (await entry.run()).map((figure) => ({ entry: entry.title, figure }));
    } catch (error) {
      return [{ entry: entry.title, error: (error as Error).message }];
    }
  } catch (error) {
    return [{ entry: file, error: (error as Error).message }];
  }
}

async function earlierResults(): Promise<BenchResult[]> {
  const files = (await readdir(resultsFolder)).filter((file) => file.endsWith('.json')).sort();
  return Promise.all(files.map(async (file) => JSON.parse(await readFile(path.join(resultsFolder, file), 'utf8')) as BenchResult));
}

async function main(): Promise<void> {
  const files = await entryFiles(process.argv.slice(2));
  if (files.length === 0) throw new Error('No bench/*.bench.ts matches');
  const rows: BenchRow[] = [];
  for (const file of files) rows.push(...(await runEntry(file)));
  process.stdout.write(`${table(rows)}\n`);

  const result: BenchResult = { at: new Date().toISOString(), node: process.version, rows };
  await mkdir(resultsFolder, { recursive: true });
  const json = path.join(resultsFolder, `${result.at.replace(/[:.]/g, '-')}.json`);
  await writeFile(json, `${JSON.stringify(result, null, 2)}\n`);
  const html = path.join(resultsFolder, 'report.html');
  await writeFile(html, renderReport(await earlierResults()));
  process.stderr.write(`bench: wrote ${path.relative(process.cwd(), json)} and ${path.relative(process.cwd(), html)}\n`);
  if (rows.some((row) => 'error' in row)) process.exitCode = 1;
}

await main();
