/**
 * The browsable API's JSON printer (web/browsable/json-view.ts): the text a person reads is exactly
 * the pretty-printed JSON, data never becomes markup, and only http(s) URLs become links.
 */
import { describe, expect, it } from 'vitest';
import { jsonView } from '../../src/web/browsable/json-view.js';

const BASE = 'http://127.0.0.1:8000';

/** what a browser shows: the markup without tags, entities decoded */
function shownText(markup: string): string {
  return markup
    .replace(/<[^>]*>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
}

describe('jsonView', () => {
  const tricky = {
    id: 7,
    url: `${BASE}/api/dcim/sites/7/`,
    name: '<script>alert(1)</script>',
    'we"ird <key>': 'a "quoted": value, with true and 12 inside',
    nested: { list: [1, -2.5, 1e21, true, false, null, ''], empty: {}, none: [] },
    amp: 'AT&T',
    outside: 'https://example.com/a?b=1&c=2',
    js: 'javascript:alert(1)',
    backslash: 'C:\\path\\"x"',
  };

  it('shows exactly the pretty-printed JSON', () => {
    const out = jsonView(tricky, BASE).text;
    expect(out.startsWith('<pre class="json" tabindex="0">')).toBe(true);
    expect(shownText(out)).toBe(JSON.stringify(tricky, null, 2));
  });

  it('never lets data become markup', () => {
    const out = jsonView(tricky, BASE).text;
    expect(out).not.toContain('<script>');
    expect(out).not.toContain('<key>');
    expect(out).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  });

  it('links URLs of this service as local paths, others out, and nothing else', () => {
    const out = jsonView(tricky, BASE).text;
    expect(out).toContain(`<a href="/api/dcim/sites/7/">${BASE}/api/dcim/sites/7/</a>`);
    expect(out).toContain('<a href="https://example.com/a?b=1&amp;c=2" rel="noopener noreferrer nofollow">');
    expect(out.match(/<a /g)).toHaveLength(2);
    expect(out).not.toContain('href="javascript');
  });

  it('marks keys, strings, numbers and literals for the stylesheet', () => {
    const out = jsonView({ a: 'x', b: 1, c: null, d: true }, BASE).text;
    expect(out).toContain('<span class="k">"a"</span>: <span class="s">"x"</span>');
    expect(out).toContain('<span class="n">1</span>');
    expect(out).toContain('<span class="l">null</span>');
    expect(out).toContain('<span class="l">true</span>');
  });
});
