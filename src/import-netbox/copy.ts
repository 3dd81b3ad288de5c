/**
 * A whole copy (README.md): the plan, then each type in order (fetched one type ahead of the
 * writes), the second pass, the source's timestamps, the sequences, the change log, and the check.
 */
import type { FastifyInstance } from 'fastify';
import type { RequestContext } from '../core/context.js';
import { inTransaction } from '../core/crud/routes.js';
import type { Dialect } from '../core/model/dialect.js';
import type { UploadedFile } from '../core/media/uploaded-file.js';
import type { ModelDef } from '../core/model/types.js';
import { LEGACY_FIELDS } from '../apps/extras/webhook.model.js';
import { resetSequences } from '../db/reset-sequences.js';
import { requestId } from '../http/request-id.js';
import { copyChangeLog } from './change-log.js';
import { attachmentFiles, markSuperusers, objectCustomFields, retrievableTokens } from './source-quirks.js';
import { createdFromChangeLog, restoreTimes, timesOf } from './times.js';
import { checkCopy, type TypeCheck } from './check.js';
import { importPlan, type Skipped, type Step } from './plan.js';
import { ImportError, type Rep, type Source } from './source.js';
import type { InputRules } from './to-input.js';
import { type Rejected, writeDeferred, writeType } from './write-type.js';

export interface CopyOptions {
  continueOnError?: boolean;
  /** read both sides again at the end and compare them (on by default) */
  check?: boolean;
  progress?: (line: string) => void;
}

interface TypeReport {
  model: string;
  path: string;
  source: number;
  created: number;
  present: number;
  rejected: Rejected[];
  fetchMs: number;
  writeMs: number;
}

export interface CopyReport {
  version: string;
  dialect: Dialect;
  types: TypeReport[];
  skipped: Skipped[];
  /** what the copy could not carry over as it was (superusers a NetBox 4 does not show) */
  notes: string[];
  changes: { copied: number; present: number } | null;
  checks: TypeCheck[];
  seconds: number;
  objects: number;
  /** where the time went, in seconds */
  phases: Record<string, number>;
  requests: number;
  /** this process's CPU time (user + system) */
  cpuSeconds: number;
}

/** the base URL the target's objects are rendered under while copying (never served) */
const TARGET_BASE = 'http://import.invalid';

/** the request context of the copy's writes: a superuser's, in the source's dialect, importing */
function copyContext(app: FastifyInstance, dialect: Dialect): RequestContext {
  return {
    app: app.inventory,
    q: app.inventory.db.kysely,
    user: { id: 0, username: 'import-netbox', is_superuser: true, is_active: true, is_staff: true },
    token: null,
    viaSession: false,
    requestId: requestId(),
    baseUrl: TARGET_BASE,
    dialect,
    permissions: null,
    clientIp: '127.0.0.1',
    dataVersion: null,
    importing: true,
  };
}

/** the list a type is read from at the source: its own path, or one it had in earlier releases (L2VPNs under ipam) */
async function locate(source: Source, model: ModelDef): Promise<{ path: string; count: number } | null> {
  for (const app of [model.app, ...(model.alsoAt ?? [])]) {
    const path = `api/${app}/${model.path}/`;
    const count = await source.count(path);
    if (count !== null) return { path, count };
  }
  return null;
}

async function fetchAll(source: Source, model: ModelDef, path: string): Promise<Rep[]> {
  const all: Rep[] = [];
  // a device's and a VM's rendered config context is derived, and costly for NetBox to render
  const extra = model.fields.local_context_data ? '&exclude=config_context' : '';
  for await (const page of source.pages(path, extra)) all.push(...page);
  return all;
}

const secs = (ms: number) => (ms / 1000).toFixed(1);

export async function copyFrom(app: FastifyInstance, source: Source, opts: CopyOptions = {}): Promise<CopyReport> {
  const started = performance.now();
  const cpu = process.cpuUsage();
  const say = opts.progress ?? (() => undefined);
  const keepGoing = !!opts.continueOnError;
  const phases: Record<string, number> = {};
  const info = await source.detect();
  say(`Source: NetBox ${info.version} at ${source.base.href} (read in the ${info.dialect} dialect)`);
  const { steps, skipped } = importPlan(app.inventory.registry, info.dialect);
  const rc = copyContext(app, info.dialect);

  // where each type lives at the source and how many objects it holds (a few at a time)
  let t = performance.now();
  const located = new Map<Step, { path: string; count: number }>();
  for (let i = 0; i < steps.length; i += 8) {
    const found = await Promise.all(steps.slice(i, i + 8).map((s) => locate(source, s.model)));
    found.forEach((f, j) => {
      if (f) located.set(steps[i + j]!, f);
      else skipped.push({ model: steps[i + j]!.model.name, reason: 'the source has no such list' });
    });
  }
  const plan = steps.filter((s) => located.has(s));
  const total = plan.reduce((n, s) => n + located.get(s)!.count, 0);
  phases.counting = (performance.now() - t) / 1000;
  say(`${plan.length} object types, ${total} objects to read`);

  const rules: InputRules = {
    copied: new Set(plan.map((s) => s.model.name)),
    objectCustomFields: new Map(),
    macObjects: plan.some((s) => s.model.name === 'dcim.macaddress'),
    // a 3.4 webhook's triggers make its event rule; a source that lists event rules (this service
    // in the 3.4 dialect) brings them with their ids instead
    leaveOut: new Map(
      plan.some((s) => s.model.name === 'extras.eventrule') ? [['extras.webhook', new Set<string>(LEGACY_FIELDS)]] : [],
    ),
  };
  const types: TypeReport[] = [];
  const notes: string[] = [];
  const later = new Map<Step, { deferred: Rep[]; stamps: Rep[]; rejected: Set<number> }>();
  let done = 0;
  let fetchMs = 0;
  let writeMs = 0;
  const fetchStep = (s: Step | undefined) => {
    if (!s) return Promise.resolve(null);
    const began = performance.now();
    const where = located.get(s)!;
    return (where.count ? fetchAll(source, s.model, where.path) : Promise.resolve([])).then((reps) => ({
      reps,
      ms: performance.now() - began,
    }));
  };
  let next = fetchStep(plan[0]);
  for (const [i, step] of plan.entries()) {
    const fetched = (await next)!;
    // the next type is read while this one is written
    next = fetchStep(plan[i + 1]);
    next.catch(() => undefined);
    fetchMs += fetched.ms;
    const model = step.model;
    let reps = model.name === 'users.token' ? retrievableTokens(fetched.reps, notes) : fetched.reps;
    let files: Map<number, UploadedFile> | undefined;
    if (model.uploads) ({ files, reps } = await attachmentFiles(source, reps, notes));
    if (model.name === 'extras.customfield') rules.objectCustomFields = objectCustomFields(reps);
    if (model.name === 'users.user') {
      const note = await markSuperusers(source, located.get(step)!.path, reps);
      if (note) notes.push(note);
    }
    const began = performance.now();
    let outcome: Awaited<ReturnType<typeof writeType>>;
    try {
      outcome = await writeType(rc, step, reps, rules, keepGoing, files);
    } catch (err) {
      if (err instanceof ImportError) throw err;
      throw new ImportError(`${model.name} could not be written, and none of it was: ${(err as Error).message}`);
    }
    const ms = performance.now() - began;
    writeMs += ms;
    const rejected = new Set(outcome.rejected.map((r) => r.id));
    later.set(step, {
      deferred: step.deferred.size || rules.objectCustomFields.has(model.name) ? reps : [],
      stamps: timesOf(model).length
        ? reps.map((r) => Object.fromEntries([['id', r.id], ...timesOf(model).map((c) => [c, r[c] ?? null])]))
        : [],
      rejected,
    });
    types.push({
      model: model.name,
      path: located.get(step)!.path,
      source: reps.length,
      created: outcome.created,
      present: outcome.present,
      rejected: outcome.rejected,
      fetchMs: fetched.ms,
      writeMs: ms,
    });
    done += reps.length;
    const elapsed = (performance.now() - started) / 1000;
    const rate = done / Math.max(elapsed, 0.001);
    const left = rate > 0 ? Math.round((total - done) / rate) : 0;
    say(
      `[${i + 1}/${plan.length}] ${model.name}: ${reps.length} read in ${secs(fetched.ms)} s; ${outcome.created} created${outcome.present ? `, ${outcome.present} already here` : ''}${outcome.rejected.length ? `, ${outcome.rejected.length} refused` : ''} in ${secs(ms)} s; ${done}/${total} done, about ${left} s left`,
    );
  }
  phases.reading = fetchMs / 1000;
  phases.writing = writeMs / 1000;

  // the second pass: references that waited for every object to exist
  t = performance.now();
  for (const step of plan) {
    const l = later.get(step)!;
    if (!l.deferred.length) continue;
    const r = await writeDeferred(rc, step, l.deferred, rules, keepGoing, l.rejected);
    types.find((x) => x.model === step.model.name)!.rejected.push(...r.rejected);
    if (r.updated)
      say(
        `${step.model.name}: ${r.updated} objects given their ${[...step.deferred].join(', ') || 'object custom fields'}`,
      );
  }
  phases.references = (performance.now() - t) / 1000;

  t = performance.now();
  await inTransaction(rc, async (trx) => {
    for (const step of plan) await restoreTimes(trx, step.model, later.get(step)!.stamps);
    await resetSequences(trx.q);
  });
  phases.timestamps = (performance.now() - t) / 1000;

  t = performance.now();
  const changes = await copyChangeLog(rc, source, say);
  if (changes)
    await inTransaction(rc, async (trx) => {
      for (const step of plan) await createdFromChangeLog(trx, step.model);
    });
  phases.changelog = (performance.now() - t) / 1000;

  let checks: TypeCheck[] = [];
  if (opts.check !== false) {
    t = performance.now();
    say('Checking: reading both sides again');
    checks = await checkCopy(
      rc,
      source,
      plan.map((s) => ({ model: s.model, path: located.get(s)!.path })),
    );
    phases.check = (performance.now() - t) / 1000;
  }
  return {
    version: info.version,
    dialect: info.dialect,
    types,
    skipped,
    notes,
    changes,
    checks,
    seconds: (performance.now() - started) / 1000,
    objects: total,
    phases,
    requests: source.stats.requests,
    cpuSeconds: (() => {
      const u = process.cpuUsage(cpu);
      return (u.user + u.system) / 1e6;
    })(),
  };
}
