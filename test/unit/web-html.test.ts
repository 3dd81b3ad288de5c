import { describe, expect, it } from 'vitest';
import { attrs, escapeHtml, html, trusted } from '../../src/web/html.js';

describe('html tagged template', () => {
  it('escapes every interpolated value for text and attributes', () => {
    const name = `<script>alert("x")</script> & 'y'`;
    expect(html`<a title="${name}">${name}</a>`.text).toBe(
      '<a title="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;y&#39;">&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;y&#39;</a>',
    );
  });

  it('keeps fragments it made, joins arrays, and drops null, undefined and false', () => {
    const items = ['<a>', 'b'].map((x) => html`<li>${x}</li>`);
    expect(html`<ul>${items}</ul>${null}${undefined}${false}${0}`.text).toBe('<ul><li>&lt;a&gt;</li><li>b</li></ul>0');
  });

  it('does not trust a string that merely looks like markup', () => {
    const sneaky = { toString: () => '<b>' } as unknown as string;
    expect(html`${sneaky}`.text).toBe('&lt;b&gt;');
    expect(html`${trusted('<b>')}`.text).toBe('<b>');
  });

  it('writes attributes from a map', () => {
    expect(attrs({ href: '/a?b=1&c="2"', hidden: false, required: true, title: null }).text).toBe(
      ' href="/a?b=1&amp;c=&quot;2&quot;" required',
    );
    expect(escapeHtml('plain')).toBe('plain');
  });
});
