// `npm run bench`: runs every bench/*.bench.ts (or those whose file name contains one of the
// arguments: `npm run bench -- users`) one after the other and prints one table, each figure beside
// the floor measured in the same run. Adding an entry is adding a file; nothing here changes.
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { BenchEntry, Figure } from './types.ts';

const folder = path.dirname(fileURLToPath(import.meta.url));

async function entries(filters: string[]): Promise<{ file: string; entry: BenchEntry }[]> {
  const files = (await readdir(folder))
    .filter((file) => file.endsWith('.bench.ts'))
    .filter((file) => filters.length === 0 || filters.some((filter) => file.includes(filter)))
    .sort();
  return Promise.all(
    files.map(async (file) => ({ file, entry: (await import(pathToFileURL(path.join(folder, file)).href)).default as BenchEntry })),
  );
}

const format = (value: number, unit: Figure['unit']) => `${value.toFixed(value < 10 ? 2 : 1)} ${unit}`;

function table(rows: { entry: string; figure: Figure }[]): string {
  const lines = [['entry', 'figure', 'value', 'floor', 'floor value', 'ratio']];
  for (const { entry, figure } of rows) {
    const ratio = figure.floor.value > 0 ? `${(figure.value / figure.floor.value).toFixed(1)}×` : '–';
    lines.push([entry, figure.name, format(figure.value, figure.unit), figure.floor.name, format(figure.floor.value, figure.unit), ratio]);
  }
  const widths = lines[0]!.map((_, column) => Math.max(...lines.map((line) => line[column]!.length)));
  const render = (line: string[]) => `| ${line.map((cell, column) => cell.padEnd(widths[column]!)).join(' | ')} |`;
  return [render(lines[0]!), `|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`, ...lines.slice(1).map(render)].join('\n');
}

async function main(): Promise<void> {
  const selected = await entries(process.argv.slice(2));
  if (selected.length === 0) throw new Error('No bench/*.bench.ts matches');
  const rows: { entry: string; figure: Figure }[] = [];
  for (const { file, entry } of selected) {
    process.stderr.write(`bench: ${entry.title} (${file})…\n`);
    for (const figure of await entry.run()) rows.push({ entry: entry.title, figure });
  }
  process.stdout.write(`${table(rows)}\n`);
}

await main();
