/**
 * The object page's panels: a group of attributes as a two-column table, custom fields, tags,
 * comments, and the related-object counts; and the tabs over an object's pages.
 */
import type { ModelDef } from '../../core/model/types.js';
import { html, type Html, type HtmlValue } from '../html.js';
import { cell, type Represented } from './cells.js';
import { markdown } from './markdown.js';
import { columnLabel } from './object-table.js';

export function panel(title: string, body: HtmlValue, cls = ''): Html {
  return html`<section class="panel ${cls}">${title ? html`<h2>${title}</h2>` : ''}${body}</section>`;
}

export function attributePanel(model: ModelDef, title: string, keys: string[], obj: Represented): Html {
  return panel(
    title,
    html`<table class="attrs">${keys.map(
      (k) => html`<tr><th scope="row">${columnLabel(model, k)}</th><td>${cell(k, obj[k])}</td></tr>`,
    )}</table>`,
  );
}

export function customFieldPanel(labels: Map<string, string>, values: Represented | undefined): Html | '' {
  const entries = Object.entries(values ?? {});
  if (!entries.length) return '';
  return panel(
    'Custom fields',
    html`<table class="attrs">${entries.map(
      ([k, v]) => html`<tr><th scope="row">${labels.get(k) || k}</th><td>${cell(k, v)}</td></tr>`,
    )}</table>`,
  );
}

export function commentsPanel(text: unknown): Html {
  return panel(
    'Comments',
    typeof text === 'string' && text.trim()
      ? html`<div class="markdown">${markdown(text)}</div>`
      : html`<p class="muted">None</p>`,
  );
}

export interface RelatedCount {
  label: string;
  href: string;
  count: number;
}

export function relatedPanel(rows: RelatedCount[]): Html | '' {
  if (!rows.length) return '';
  return panel(
    'Related objects',
    html`<table class="attrs">${rows.map(
      (r) =>
        html`<tr><th scope="row"><a href="${r.href}">${r.label}</a></th><td class="num"><a href="${r.href}">${r.count.toLocaleString('en')}</a></td></tr>`,
    )}</table>`,
  );
}

export interface Tab {
  label: string;
  href: string;
  current: boolean;
  badge?: number;
}

export function tabs(items: Tab[]): Html {
  return html`<nav class="tabs" aria-label="Object views"><ul>${items.map(
    (t) =>
      html`<li><a href="${t.href}"${t.current ? html` aria-current="page"` : ''}>${t.label}${t.badge ? html` <span class="count">${t.badge}</span>` : ''}</a></li>`,
  )}</ul></nav>`;
}
