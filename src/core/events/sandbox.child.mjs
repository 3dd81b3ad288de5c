// The template sandbox's process (core/events/sandbox.ts): renders Jinja2 templates with
// @huggingface/jinja, whose interpreter cannot reach JavaScript internals, and evaluates event-rule
// conditions (their regular expressions included). It is a process of its own, with a small heap,
// so that a template that loops forever, a catastrophic regular expression, or a template that
// grows without bound is stopped by ending this process, never the service's (a worker thread
// that runs out of heap can take the whole process down with it). Plain JavaScript: Node starts it
// without a TypeScript loader.
import { parse, Template, tokenize } from '@huggingface/jinja';
import { evaluateConditions } from './evaluate-conditions.mjs';

const maxOutput = Number(process.env.SANDBOX_MAX_OUTPUT_BYTES);

/** A template parsed with the job's block whitespace options (Template's constructor always trims). */
function compile(source, whitespace) {
  if (!whitespace) return new Template(source);
  const template = new Template('');
  template.parsed = parse(
    tokenize(source, { trim_blocks: whitespace.trim_blocks, lstrip_blocks: whitespace.lstrip_blocks }),
  );
  return template;
}

function render(source, context, whitespace) {
  if (!source) return '';
  const out = compile(source, whitespace).render(context);
  if (out.length > maxOutput) throw new Error(`the rendered template is larger than ${maxOutput} bytes`);
  return out;
}

process.on('message', (job) => {
  try {
    if (job.kind === 'conditions') {
      process.send({ id: job.id, ok: true, value: evaluateConditions(job.conditions, job.data) });
      return;
    }
    const value = {};
    for (const [name, source] of Object.entries(job.templates))
      value[name] = render(source, job.context, job.whitespace);
    process.send({ id: job.id, ok: true, value });
  } catch (err) {
    process.send({ id: job.id, ok: false, error: err instanceof Error ? err.message : String(err) });
  }
});
// the service went away: so does the sandbox
process.on('disconnect', () => process.exit(0));
