/**
 * A strict reader of Prometheus's text exposition format (version 0.0.4), for the /metrics tests:
 * every line must be a HELP, a TYPE or a sample, every sample must belong to a family with a TYPE,
 * and label values are unescaped. Anything else throws, so a malformed exposition fails a test.
 */
interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Exposition {
  samples: Sample[];
  /** family name -> counter, gauge, histogram, summary or untyped */
  types: Map<string, string>;
  /** sum of the samples named `name` whose labels include `labels` (0 when none) */
  value(name: string, labels?: Record<string, string>): number;
  /** the distinct values a label takes in the samples named `name` */
  labelValues(name: string, label: string): Set<string>;
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"(?:,|$)/y;

function parseLabels(text: string, line: string): Record<string, string> {
  const out: Record<string, string> = {};
  LABEL.lastIndex = 0;
  while (LABEL.lastIndex < text.length) {
    const m = LABEL.exec(text);
    if (!m) throw new Error(`bad labels in: ${line}`);
    out[m[1]!] = m[2]!.replace(/\\(["\\n])/g, (_, c: string) => (c === 'n' ? '\n' : c));
  }
  return out;
}

/** Prometheus reads values with Go's ParseFloat: NaN and Inf in any case (prom-client writes `Nan`) */
function parseValue(text: string, line: string): number {
  if (/^[+]?inf(inity)?$/i.test(text)) return Infinity;
  if (/^-inf(inity)?$/i.test(text)) return -Infinity;
  if (/^nan$/i.test(text)) return NaN;
  const n = Number(text);
  if (Number.isNaN(n)) throw new Error(`bad value in: ${line}`);
  return n;
}

/** the family a sample belongs to: histogram and summary samples carry suffixes */
function familyOf(name: string, types: Map<string, string>): string | undefined {
  if (types.has(name)) return name;
  const m = /^(.*)_(bucket|sum|count)$/.exec(name);
  return m && ['histogram', 'summary'].includes(types.get(m[1]!) ?? '') ? m[1] : undefined;
}

export function parseExposition(text: string): Exposition {
  const samples: Sample[] = [];
  const types = new Map<string, string>();
  for (const line of text.split('\n')) {
    if (line === '') continue;
    if (line.startsWith('# HELP ')) continue;
    const type = /^# TYPE ([a-zA-Z_:][a-zA-Z0-9_:]*) (counter|gauge|histogram|summary|untyped)$/.exec(line);
    if (type) {
      if (types.has(type[1]!)) throw new Error(`family ${type[1]} typed twice`);
      types.set(type[1]!, type[2]!);
      continue;
    }
    const m = SAMPLE.exec(line);
    if (!m) throw new Error(`not a sample line: ${line}`);
    if (!familyOf(m[1]!, types)) throw new Error(`sample of a family without TYPE: ${line}`);
    samples.push({ name: m[1]!, labels: m[2] ? parseLabels(m[2], line) : {}, value: parseValue(m[3]!, line) });
  }
  const matching = (name: string, labels: Record<string, string>) =>
    samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  return {
    samples,
    types,
    value: (name, labels = {}) => matching(name, labels).reduce((n, s) => n + s.value, 0),
    labelValues: (name, label) =>
      new Set(
        matching(name, {})
          .map((s) => s.labels[label]!)
          .filter((v) => v !== undefined),
      ),
  };
}
