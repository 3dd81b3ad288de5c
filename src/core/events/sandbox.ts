/**
 * Runs user-submitted webhook code (Jinja2 templates, conditions with regular expressions) in a
 * process of its own (sandbox.child.mjs), one job at a time, each bounded in time (the process is
 * killed and replaced when a job runs past `timeoutMs`), in output size, and in memory (its heap is
 * small: a template that grows without bound ends only that process). A job that fails for any of
 * these reasons fails its own delivery with a clear error and harms nothing else.
 *
 * Why a process and not a worker thread: a thread that reaches its heap limit inside a large
 * allocation can abort the whole service (seen here: V8's fatal "heap out of memory" despite the
 * thread's resourceLimits).
 */
import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export interface SandboxLimits {
  timeoutMs: number;
  maxOutputBytes: number;
  /** the sandbox process's heap, MiB */
  heapMb: number;
}

const DEFAULT_SANDBOX_LIMITS: SandboxLimits = { timeoutMs: 2_000, maxOutputBytes: 1024 * 1024, heapMb: 64 };

/**
 * Jinja2's block whitespace options. Absent: @huggingface/jinja's own choice (both on), which
 * webhook templates have always had; Jinja2's defaults (both off) are what NetBox renders
 * export templates, config templates and custom links with.
 */
export interface BlockWhitespace {
  trim_blocks: boolean;
  lstrip_blocks: boolean;
}

export interface RenderOptions {
  /** this job's time limit instead of the sandbox's */
  timeoutMs?: number;
  whitespace?: BlockWhitespace;
}

type Job =
  | { kind: 'render'; templates: Record<string, string>; context: unknown; whitespace?: BlockWhitespace }
  | { kind: 'conditions'; conditions: unknown; data: unknown };

interface Running extends Pending {
  id: number;
  timer: NodeJS.Timeout;
  worker: ChildProcess;
}

interface Pending {
  job: Job;
  /** this job's time limit when shorter or longer than the sandbox's (request-time rendering) */
  timeoutMs?: number;
  resolve: (v: unknown) => void;
  reject: (e: Error) => void;
}

export class TemplateSandbox {
  private worker: ChildProcess | null = null;
  private queue: Pending[] = [];
  /** the job running, and the process it was sent to */
  private busy: Running | null = null;
  private nextId = 1;

  constructor(private readonly limits: SandboxLimits = DEFAULT_SANDBOX_LIMITS) {}

  /** Renders each named template with the context; rejects with the template's error. */
  render(
    templates: Record<string, string>,
    context: unknown,
    opts: RenderOptions = {},
  ): Promise<Record<string, string>> {
    const job: Job = opts.whitespace
      ? { kind: 'render', templates, context, whitespace: opts.whitespace }
      : { kind: 'render', templates, context };
    return this.run(job, opts.timeoutMs) as Promise<Record<string, string>>;
  }

  evaluate(conditions: unknown, data: unknown): Promise<boolean> {
    if (conditions === null || conditions === undefined) return Promise.resolve(true);
    return this.run({ kind: 'conditions', conditions, data }) as Promise<boolean>;
  }

  async close(): Promise<void> {
    const w = this.worker;
    this.worker = null;
    if (w && w.exitCode === null) {
      const gone = new Promise((resolve) => w.once('exit', resolve));
      w.kill('SIGKILL');
      await gone;
    }
  }

  private run(job: Job, timeoutMs?: number): Promise<unknown> {
    return new Promise((resolve, reject) => {
      this.queue.push({ job, resolve, reject, timeoutMs });
      this.pump();
    });
  }

  private thread(): ChildProcess {
    if (this.worker) return this.worker;
    const w = fork(fileURLToPath(new URL('./sandbox.child.mjs', import.meta.url)), [], {
      // plain Node: no TypeScript loader, no inherited flags; a small heap
      execArgv: [`--max-old-space-size=${this.limits.heapMb}`],
      env: { SANDBOX_MAX_OUTPUT_BYTES: String(this.limits.maxOutputBytes) },
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      serialization: 'advanced',
    });
    let stderr = '';
    w.stderr?.on('data', (c: Buffer) => {
      if (stderr.length < 4096) stderr += c.toString();
    });
    w.on('message', (msg: { id: number; ok: boolean; value?: unknown; error?: string }) => {
      const cur = this.busy;
      if (!cur || cur.id !== msg.id) return;
      this.finish(cur, msg.ok ? null : new Error(msg.error ?? 'template error'), msg.value);
    });
    w.on('exit', () =>
      this.crashed(
        w,
        /heap out of memory|heap limit/i.test(stderr)
          ? `the template used more memory than allowed (${this.limits.heapMb} MiB)`
          : 'the template sandbox stopped',
      ),
    );
    w.on('error', () => this.crashed(w, 'the template sandbox could not run'));
    // the sandbox never keeps the service alive
    w.unref();
    w.channel?.unref();
    this.worker = w;
    return w;
  }

  private crashed(w: ChildProcess, why: string): void {
    if (this.worker === w) this.worker = null;
    // a process stopped for running too long exits after its job was failed and the next one sent
    // to its replacement: only the job it was running fails with it
    const cur = this.busy;
    if (cur && cur.worker === w) this.finish(cur, new Error(why));
  }

  private finish(cur: Running, err: Error | null, value?: unknown): void {
    clearTimeout(cur.timer);
    this.busy = null;
    if (err) cur.reject(err);
    else cur.resolve(value);
    this.pump();
  }

  private pump(): void {
    if (this.busy || this.queue.length === 0) return;
    const next = this.queue.shift()!;
    const id = this.nextId++;
    const w = this.thread();
    const timeoutMs = next.timeoutMs ?? this.limits.timeoutMs;
    const timer = setTimeout(() => {
      // a template still running after the limit: stop the thread (the next job starts a new one)
      if (this.worker === w) this.worker = null;
      w.kill('SIGKILL');
      const cur = this.busy;
      if (cur && cur.id === id)
        this.finish(cur, new Error(`the template ran longer than ${timeoutMs} ms and was stopped`));
    }, timeoutMs);
    this.busy = { ...next, id, timer, worker: w };
    w.send({ id, ...next.job });
  }
}
