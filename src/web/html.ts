/**
 * HTML from tagged templates that escape by default: every `${value}` in html`...` is escaped
 * unless it is already Html (made by html`...` itself or by `trusted()`), so a site named
 * `<script>` renders as text without anyone remembering to escape it. Arrays are joined, and
 * null, undefined and false render nothing, so conditionals and loops read naturally.
 *
 * Why not JSX (@kitajs/html): its escaping is opt-in per attribute (`safe`), which is the
 * mistake this file exists to make impossible, and it needs a compile step for .tsx.
 */

/** A fragment of markup that is safe to emit as it is. */
export class Html {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

export type HtmlValue = Html | string | number | bigint | boolean | null | undefined | readonly HtmlValue[];

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for element content and quoted attribute values alike. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

function emit(value: HtmlValue): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof Html) return value.text;
  if (Array.isArray(value)) return value.map(emit).join('');
  return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): Html {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) out += emit(values[i]!) + strings[i + 1]!;
  return new Html(out);
}

/** Markup the caller vouches for (made by this module's own code, never from data). */
export function trusted(markup: string): Html {
  return new Html(markup);
}

/** `attrs({ href: url, hidden: false })` -> ` href="..."`: false/null/undefined drop the attribute, true writes it bare. */
export function attrs(map: Record<string, string | number | boolean | null | undefined>): Html {
  let out = '';
  for (const [name, value] of Object.entries(map)) {
    if (value === false || value === null || value === undefined) continue;
    out += value === true ? ` ${name}` : ` ${name}="${escapeHtml(String(value))}"`;
  }
  return new Html(out);
}
