import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT } from './processes';

export interface Row {
  name: string;
  figures: Record<string, string | number>;
}

export function machine() {
  return {
    cpus: `${os.cpus().length} x ${os.cpus()[0]?.model ?? 'unknown'}`,
    memoryGb: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
    platform: `${os.type()} ${os.release()}`,
  };
}

/** Writes the run's JSON under bench/results/ and its section of docs/PERFORMANCE.md. */
export function writeReport(
  section: string,
  title: string,
  command: string,
  rows: Row[],
  notes: string[],
) {
  const when = new Date().toISOString();
  const data = { when, command, machine: machine(), rows };
  const dir = path.join(ROOT, 'bench/results');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(
    path.join(dir, `${section}-${when.replace(/[:.]/g, '-')}.json`),
    JSON.stringify(data, null, 2),
  );
  fs.writeFileSync(path.join(dir, `${section}-latest.json`), JSON.stringify(data, null, 2));

  const lines = [
    `<!-- ${section}:start -->`,
    `## ${title}`,
    '',
    `Measured ${when} with \`${command}\` on ${data.machine.cpus}, ${data.machine.memoryGb} GiB, Node ${data.machine.node}; the load generator runs on the same machine.`,
    '',
    '| Measure | Figures |',
    '|---|---|',
    ...rows.map(
      (row) =>
        `| ${row.name} | ${Object.entries(row.figures)
          .map(([k, v]) => `${k}: ${v}`)
          .join(', ')} |`,
    ),
    '',
    ...notes.map((note) => `- ${note}`),
    `<!-- ${section}:end -->`,
  ].join('\n');
  const doc = path.join(ROOT, 'docs/PERFORMANCE.md');
  let text = fs.existsSync(doc)
    ? fs.readFileSync(doc, 'utf8')
    : '# Performance\n\nFigures written by `npm run bench`; each table is measured beside its baseline in the same run.\n';
  const pattern = new RegExp(`<!-- ${section}:start -->[\\s\\S]*?<!-- ${section}:end -->`);
  text = pattern.test(text) ? text.replace(pattern, lines) : `${text.trimEnd()}\n\n${lines}\n`;
  fs.mkdirSync(path.dirname(doc), { recursive: true });
  fs.writeFileSync(doc, text);
}

export function printTable(rows: Row[]) {
  for (const row of rows) {
    console.log(
      `${row.name.padEnd(44)} ${Object.entries(row.figures)
        .map(([k, v]) => `${k}=${v}`)
        .join('  ')}`,
    );
  }
}
