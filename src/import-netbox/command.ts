/**
 * `inventory import-netbox --url URL --token KEY [--continue-on-error] [--no-check]`: copies a
 * running NetBox (or another instance of this service) into the configured database, then prints
 * the report. Exits non-zero when an object was refused or the check found a difference.
 */
import { buildApp } from '../app.js';
import { openPreparedDatabase } from '../bootstrap.js';
import type { Config } from '../config.js';
import { type CopyReport, copyFrom } from './copy.js';
import { ImportError, Source } from './source.js';

function flag(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
}

const USAGE =
  'usage: inventory import-netbox --url https://netbox.example.com --token KEY [--continue-on-error] [--no-check]';

/** the report's text; `ok` is false when something was refused or differs */
export function reportText(r: CopyReport): { text: string; ok: boolean } {
  const lines: string[] = [];
  const pad = (s: string | number, n: number) => String(s).padStart(n);
  lines.push('', `Copied from NetBox ${r.version} (${r.dialect} dialect)`, '');
  // `here`: the target's count as the check read it (blank with --no-check)
  const here = new Map(r.checks.map((c) => [c.model, c.target]));
  lines.push(
    `${'type'.padEnd(36)}${pad('source', 9)}${pad('here', 9)}${pad('created', 9)}${pad('present', 9)}${pad('refused', 9)}`,
  );
  let refused = 0;
  for (const t of r.types) {
    if (!t.source && !t.rejected.length) continue;
    lines.push(
      `${t.model.padEnd(36)}${pad(t.source, 9)}${pad(here.get(t.model) ?? '', 9)}${pad(t.created, 9)}${pad(t.present, 9)}${pad(t.rejected.length, 9)}`,
    );
    refused += t.rejected.length;
  }
  const refusals = r.types.flatMap((t) => t.rejected.map((x) => `  ${t.model} ${x.id} (${x.display}): ${x.reason}`));
  if (refusals.length) lines.push('', 'Refused:', ...refusals.slice(0, 50));
  if (refusals.length > 50) lines.push(`  ... and ${refusals.length - 50} more`);
  if (r.notes.length) lines.push('', 'Notes:', ...r.notes.map((n) => `  ${n}`));
  lines.push('', 'Not copied:');
  for (const s of r.skipped) lines.push(`  ${s.model}: ${s.reason}`);
  if (r.changes) lines.push('', `Change log: ${r.changes.copied} records copied, ${r.changes.present} already here`);
  let differences = 0;
  if (r.checks.length) {
    const bad = r.checks.filter((c) => c.missing.length || c.differing);
    differences = bad.reduce((n, c) => n + c.missing.length + c.differing, 0);
    lines.push(
      '',
      bad.length
        ? `Check: ${differences} objects missing or different in ${bad.length} types`
        : `Check: every object of ${r.checks.length} types read again on both sides; they agree`,
    );
    for (const c of bad) {
      lines.push(
        `  ${c.model}: ${c.source} at the source, ${c.target} here; ${c.missing.length} missing, ${c.differing} different`,
      );
      if (c.missing.length) lines.push(`    missing ids: ${c.missing.slice(0, 20).join(', ')}`);
      for (const e of c.examples) lines.push(`    ${e}`);
    }
  }
  const phases = Object.entries(r.phases)
    .map(([k, v]) => `${k} ${v.toFixed(1)} s`)
    .join(', ');
  lines.push(
    '',
    `${r.objects} objects in ${r.seconds.toFixed(1)} s (${Math.round(r.objects / Math.max(r.seconds, 0.001))} objects/s), ${r.cpuSeconds.toFixed(1)} s of CPU here, ${r.requests} requests to the source; ${phases}`,
  );
  return { text: lines.join('\n'), ok: refused === 0 && differences === 0 };
}

export async function importNetboxCommand(config: Config, args: string[]): Promise<void> {
  const url = flag(args, '--url');
  const token = flag(args, '--token');
  if (!url || !token) throw new ImportError(USAGE);
  const source = new Source({ url, token });
  // a wrong URL or token is told before the target is opened (a new DATA_DIR is made by opening it)
  await source.detect();
  const { db } = await openPreparedDatabase(config);
  const app = await buildApp(
    { ...config, logLevel: 'warn', events: { ...config.events, workerInProcess: false } },
    { db, eventWorker: false },
  );
  try {
    const report = await copyFrom(app, source, {
      continueOnError: args.includes('--continue-on-error'),
      check: !args.includes('--no-check'),
      progress: (line) => console.log(line),
    });
    const { text, ok } = reportText(report);
    console.log(text);
    if (!ok) process.exitCode = 1;
  } catch (err) {
    if (err instanceof ImportError)
      throw new ImportError(
        `${err.message}\nThe type being copied was not written; the types copied before it stay. Run the same command again to resume.`,
      );
    throw err;
  } finally {
    await app.close();
    await db.close();
  }
}
