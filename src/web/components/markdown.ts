/**
 * Comments and journal entries are Markdown, as in NetBox; rendered with markdown-it with raw HTML
 * off (it is escaped, so `<script>` shows as text) and its link check on (javascript:, vbscript:,
 * file: and data: URLs other than images are not links). Links open as plain links; the page CSP
 * would stop any script that slipped through regardless.
 */
import MarkdownIt from 'markdown-it';
import { trusted, type Html } from '../html.js';

const md = new MarkdownIt({ html: false, linkify: true, breaks: false });

export function markdown(text: string): Html {
  // markdown-it escapes every text and attribute it emits; html:false escapes raw HTML too
  return trusted(md.render(text));
}
