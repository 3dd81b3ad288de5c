/**
 * The document in the three forms the service serves: `json` (/api/schema/), `legacy` (NetBox 3.4's
 * /api/docs/?format=openapi layout) and `yaml` (/api/schema/?format=yaml), each kept gzipped once
 * made (3.5 MB of JSON as 130 kB, outside the JavaScript heap).
 *
 * A server makes them in a process of its own (`inventory openapi <form>`, which prints one):
 * making the document allocates ~45 MB and took ~0.3 s of the event loop (YAML ~1 s and ~60 MB),
 * and a heap that has grown so keeps its pages, where an API process is meant to stay under 200 MB
 * resident (docs/performance.md, "Memory", has the measured peaks). A page of 1,000 interfaces at
 * 16 connections after one document request peaked 20-40 MB higher. If that process cannot run, the
 * server makes the document itself.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { stringify as toYaml } from 'yaml';
import { buildOpenApiDocument, type DocumentOptions } from './document.js';
import type { Dialect } from '../model/dialect.js';

export type DocumentForm = 'json' | 'legacy' | 'yaml';
export const DOCUMENT_FORMS: readonly DocumentForm[] = ['json', 'legacy', 'yaml'];

const gzipped = promisify(gzip);

/** the command line that prints a form (bin/inventory.js: the compiled bundle, or tsx) */
const INVENTORY = fileURLToPath(new URL('../../../bin/inventory.js', import.meta.url));

/**
 * The same document laid out as NetBox 3.4's /api/docs/?format=openapi was: paths relative to a
 * `/api` base (`/dcim/devices/`). Clients of that era index it so: the Ansible inventory plugin
 * (netbox.netbox 3.x) reads `paths['/dcim/devices/'].get.parameters` when the version is below 3.5.
 */
function underApiBase(doc: Record<string, unknown>): Record<string, unknown> {
  const paths = Object.entries(doc.paths as Record<string, unknown>).map(([p, item]) => [
    p.replace(/^\/api(?=\/)/, ''),
    item,
  ]);
  return { ...doc, servers: [{ url: '/api' }], paths: Object.fromEntries(paths) };
}

/** One form of the document as text, made here. */
export function documentText(opts: DocumentOptions, form: DocumentForm): string {
  const doc = buildOpenApiDocument(opts);
  if (form === 'legacy') return JSON.stringify(underApiBase(doc));
  if (form === 'yaml') return toYaml(doc, { aliasDuplicateObjects: false });
  return JSON.stringify(doc);
}

/** how long the process of its own may take (it takes ~0.5 s; a first start may compile the bundle) */
const APART_TIMEOUT_MS = 60_000;

/** What `<command> openapi <form>` prints, read from its output; rejects if it fails or takes too long. */
function printedApart(
  command: readonly string[],
  form: DocumentForm,
  dialect: Dialect,
  timeoutMs: number,
): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const [file, ...args] = command;
    const child = spawn(file!, [...args, 'openapi', form, dialect], {
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: timeoutMs,
      killSignal: 'SIGKILL',
    });
    const out: Buffer[] = [];
    let err = '';
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => (err = (err + b.toString()).slice(-2000)));
    child.once('error', reject);
    child.once('close', (code, signal) => {
      if (code === 0 && out.length) resolve(Buffer.concat(out));
      else
        reject(
          new Error(
            `inventory openapi ${form} ${signal ? `was stopped (${signal}) after ${timeoutMs / 1000} s at most` : `exited with ${code}`}: ${err.trim()}`,
          ),
        );
    });
  });
}

/**
 * The forms a server serves, each made on the first request for it and then kept gzipped. A form
 * that could not be made is tried again on the next request.
 */
export class KeptDocuments {
  /** by form and API dialect (`json 4.4`) */
  private readonly made = new Map<string, Promise<Buffer>>();

  constructor(
    private readonly opts: DocumentOptions,
    private readonly warn: (message: string) => void,
    /** the command line of the process of its own (null: made in this process) */
    private readonly command: readonly string[] | null = [process.execPath, INVENTORY],
    private readonly timeoutMs = APART_TIMEOUT_MS,
  ) {}

  gzipped(form: DocumentForm, dialect: Dialect = '3.4'): Promise<Buffer> {
    const key = `${form} ${dialect}`;
    let kept = this.made.get(key);
    if (!kept) {
      kept = this.make(form, dialect);
      kept.catch(() => this.made.delete(key));
      this.made.set(key, kept);
    }
    return kept;
  }

  private async make(form: DocumentForm, dialect: Dialect): Promise<Buffer> {
    if (this.command) {
      try {
        return await gzipped(await printedApart(this.command, form, dialect, this.timeoutMs));
      } catch (err) {
        this.warn(
          `the OpenAPI document is made in the server process instead: ${err instanceof Error ? err.message : String(err)}`,
        );
      }
    }
    return gzipped(documentText({ ...this.opts, dialect }, form));
  }
}
