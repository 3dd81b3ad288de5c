/**
 * Request-time Jinja2 rendering (export templates, config templates, custom links): a small pool
 * of template sandboxes (events/sandbox.ts), each a process of its own, created on first use and
 * closed with the app. A job goes to the sandbox with the fewest jobs waiting, so one template
 * that loops until its time limit holds up one sandbox, not every render of the service; and
 * since rendering happens in another process, requests that render nothing never wait for it.
 *
 * The limits are wider than the webhook worker's: an export renders a whole filtered list (its
 * objects' full representations travel to the sandbox), so the heap and the output may be larger.
 */
import { type BlockWhitespace, type RenderOptions, type SandboxLimits, TemplateSandbox } from '../events/sandbox.js';

const REQUEST_SANDBOX_LIMITS: SandboxLimits = {
  timeoutMs: 10_000,
  maxOutputBytes: 32 * 1024 * 1024,
  heapMb: 384,
};
/** two cores is the smallest machine the service runs on; more sandboxes would only queue on them */
const POOL_SIZE = 2;

/** Jinja2's defaults, NetBox's environment for these templates: no block is trimmed */
const JINJA2_WHITESPACE: BlockWhitespace = { trim_blocks: false, lstrip_blocks: false };

/** A template that failed: a syntax error, an error while rendering, or a limit it ran into. */
export class TemplateRenderError extends Error {}

export interface TemplatePool {
  /** Renders one template with the context (Jinja2's whitespace defaults unless told); rejects with a TemplateRenderError. */
  render(template: string, context: unknown, opts?: RenderOptions): Promise<string>;
  /** Renders several templates with one context in one job (a link's text and URL); one failing fails all. */
  renderAll(templates: Record<string, string>, context: unknown, opts?: RenderOptions): Promise<Record<string, string>>;
  close(): Promise<void>;
}

interface Slot {
  sandbox: TemplateSandbox;
  jobs: number;
}

export function createTemplatePool(limits: SandboxLimits = REQUEST_SANDBOX_LIMITS, size = POOL_SIZE): TemplatePool {
  const slots: Slot[] = [];
  let closed = false;

  function pick(): Slot {
    const idle = slots.find((s) => s.jobs === 0);
    if (idle) return idle;
    if (slots.length < size) {
      const slot = { sandbox: new TemplateSandbox(limits), jobs: 0 };
      slots.push(slot);
      return slot;
    }
    return slots.reduce((a, b) => (b.jobs < a.jobs ? b : a));
  }

  async function renderAll(
    templates: Record<string, string>,
    context: unknown,
    opts: RenderOptions = {},
  ): Promise<Record<string, string>> {
    if (closed) throw new TemplateRenderError('the template renderer has stopped');
    const slot = pick();
    slot.jobs += 1;
    try {
      return await slot.sandbox.render(templates, context, { whitespace: JINJA2_WHITESPACE, ...opts });
    } catch (err) {
      throw new TemplateRenderError(err instanceof Error ? err.message : String(err));
    } finally {
      slot.jobs -= 1;
    }
  }

  return {
    async render(template, context, opts) {
      return (await renderAll({ t: template }, context, opts)).t ?? '';
    },
    renderAll,
    async close() {
      closed = true;
      await Promise.all(slots.map((s) => s.sandbox.close()));
    },
  };
}
