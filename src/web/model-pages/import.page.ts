/**
 * A model's import page (`<list>import/`, NetBox's `_bulk_import`): data pasted in `data` or sent
 * as the file `upload_file`, in CSV, JSON or YAML, with "Dry run" (`_preview`) and "Import"
 * (`_apply`). Both run the same writes in one transaction (web/import/run-import.ts); a dry run
 * always rolls it back and shows each row's outcome, an import commits only when every row
 * succeeds and then redirects (303) to the list of what it wrote. Below the form: the columns this
 * model takes and how each names its related objects.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext, CustomFieldDef } from '../../core/context.js';
import { Errors } from '../../core/errors.js';
import type { ModelDef } from '../../core/model/types.js';
import { html, type Html } from '../html.js';
import { howToWrite, importColumns } from '../import/import-columns.js';
import { ImportInputError } from '../import/parse-records.js';
import { type ImportResult, runImport } from '../import/run-import.js';
import { listPath } from '../navigation/menu.js';
import { csrfField, pageContext } from '../page-context.js';
import { can, customFieldsOf, modelCrumbs, objectPath, sendErrorPage, sendModelPage } from './page-shell.js';

/** lists of at most this many ids are shown as `?id=...`; more show the whole list */
const MAX_IDS_IN_URL = 500;

interface ImportForm {
  data: string;
  format: string;
  csv_delimiter: string;
}

const FORMATS = ['auto', 'csv', 'json', 'yaml'];
const NUMBERING = { row: 'Row', line: 'Line', record: 'Record' };
const DELIMITERS = ['auto', 'comma', 'semicolon', 'pipe', 'tab'];

function options(values: string[], chosen: string): Html[] {
  return values.map((v) => html`<option value="${v}"${v === chosen ? html` selected` : ''}>${v}</option>`);
}

function columnsHelp(ctx: AppContext, model: ModelDef, cfs: CustomFieldDef[]): Html {
  const cols = [...importColumns(ctx.registry, model, cfs).values()];
  return html`<section class="panel" aria-labelledby="import-columns">
<h2 id="import-columns">Columns</h2>
<p>The first CSV row names the columns; JSON and YAML objects use the same names. Related objects are named by the attribute shown; a number alone is also taken as an id. Lists in CSV are comma-separated within one quoted cell. A column that is no field of this model but scopes another column's object (a device's <code>manufacturer</code> for its device type) only narrows that lookup; NetBox's other such columns (a cable's <code>side_a_device</code>) are refused as unknown columns.</p>
<table class="objects"><thead><tr><th scope="col">Column</th><th scope="col">Required</th><th scope="col">Write</th></tr></thead>
<tbody>${cols.map(
    (c) =>
      html`<tr><td><code>${c.name}</code></td><td>${c.required ? 'required' : ''}</td><td>${howToWrite(ctx.registry, c)}</td></tr>`,
  )}</tbody></table>
</section>`;
}

function outcomeCell(model: ModelDef, o: ImportResult['outcomes'][number]): Html {
  if (o.action === 'create') return html`<span class="badge tone-ok">create</span>`;
  if (o.action === 'update')
    return html`<span class="badge tone-info">update</span> <a href="${objectPath(model, o.id)}">${o.label ?? `${model.verboseName} ${o.id}`}</a>`;
  return html`<span class="badge tone-bad">fail</span>`;
}

function preview(model: ModelDef, result: ImportResult, dryRun: boolean): Html {
  const failed = result.outcomes.filter((o) => o.action === 'fail').length;
  const creates = result.outcomes.filter((o) => o.action === 'create').length;
  const updates = result.outcomes.filter((o) => o.action === 'update').length;
  const summary = failed
    ? `${failed} of ${result.outcomes.length} rows fail; nothing was written.`
    : `Dry run: ${creates} would be created and ${updates} updated; nothing was written.`;
  return html`<section class="panel" aria-labelledby="import-preview">
<h2 id="import-preview">${dryRun ? 'Dry run' : 'Import'}</h2>
<p role="status">${summary}</p>
<table class="objects"><thead><tr><th scope="col">${NUMBERING[result.numbering]}</th><th scope="col">Outcome</th><th scope="col">Errors</th></tr></thead>
<tbody>${result.outcomes.map(
    (o) =>
      html`<tr><td>${o.row}</td><td>${outcomeCell(model, o)}</td><td>${[...o.errors].map(
        ([column, messages]) => html`<div>${column ? html`<code>${column}</code>: ` : ''}${messages.join(' ')}</div>`,
      )}</td></tr>`,
  )}</tbody></table>
</section>`;
}

async function sendImportPage(
  ctx: AppContext,
  model: ModelDef,
  request: FastifyRequest,
  reply: FastifyReply,
  form: ImportForm,
  extra: { message?: string; result?: ImportResult; dryRun?: boolean; status?: number } = {},
) {
  const cfs = await customFieldsOf(request.rc, model);
  const title = `Import ${model.verboseNamePlural}`;
  const action = `${listPath(model)}import/`;
  const body = html`<h1>${title}</h1>
${extra.message ? html`<div class="alert" role="alert"><p>${extra.message}</p></div>` : ''}
${extra.result ? preview(model, extra.result, extra.dryRun === true) : ''}
<form class="object-form" method="post" action="${action}" enctype="multipart/form-data" data-busy="Reading and checking every row: a large import takes a few seconds.">
  ${csrfField(pageContext(request, reply))}
  <fieldset class="panel"><legend>Data</legend>
    <div class="field"><label for="import-data">Data</label>
      <textarea id="import-data" name="data" rows="12" spellcheck="false">${form.data}</textarea></div>
    <div class="field"><label for="import-file">Or a file</label>
      <input id="import-file" type="file" name="upload_file" accept=".csv,.json,.yaml,.yml,text/csv,application/json,text/yaml"></div>
    <div class="field"><label for="import-format">Format</label>
      <select id="import-format" name="format">${options(FORMATS, form.format)}</select></div>
    <div class="field"><label for="import-delimiter">CSV delimiter</label>
      <select id="import-delimiter" name="csv_delimiter">${options(DELIMITERS, form.csv_delimiter)}</select></div>
  </fieldset>
  <div class="form-buttons">
    <button type="submit" name="_preview" value="1">Dry run</button>
    <button type="submit" class="primary" name="_apply" value="1">Import</button>
    <a class="button" href="${listPath(model)}">Cancel</a>
  </div>
</form>
${columnsHelp(ctx, model, cfs)}`;
  return sendModelPage(request, reply, {
    title,
    crumbs: modelCrumbs(model, { label: 'Import' }),
    body,
    status: extra.status,
  });
}

export async function importPage(ctx: AppContext, model: ModelDef, request: FastifyRequest, reply: FastifyReply) {
  try {
    if (!(await can(request.rc, model)).add) throw Errors.permissionDenied();
    return await sendImportPage(ctx, model, request, reply, { data: '', format: 'auto', csv_delimiter: 'auto' });
  } catch (err) {
    return sendErrorPage(request, reply, err, modelCrumbs(model));
  }
}

/** the posted fields, from a urlencoded form or a multipart one (whose file, if any, replaces `data`) */
function postedForm(request: FastifyRequest): ImportForm {
  const fields = request.formFields ?? (request.body as Record<string, string> | null) ?? {};
  const file = request.uploadedFiles?.get('upload_file');
  let data = fields.data ?? '';
  if (file?.data.length) {
    try {
      data = new TextDecoder('utf-8', { fatal: true }).decode(file.data);
    } catch {
      throw new ImportInputError('The file is not UTF-8 text.');
    }
  }
  // a spreadsheet's byte order mark is no part of the first column's name
  if (data.charCodeAt(0) === 0xfeff) data = data.slice(1);
  return { data, format: fields.format ?? 'auto', csv_delimiter: fields.csv_delimiter ?? 'auto' };
}

export async function postImport(ctx: AppContext, model: ModelDef, request: FastifyRequest, reply: FastifyReply) {
  const rc = request.rc;
  let form: ImportForm = { data: '', format: 'auto', csv_delimiter: 'auto' };
  try {
    if (!(await can(rc, model)).add && !(await can(rc, model)).change) throw Errors.permissionDenied();
    const fields = request.formFields ?? (request.body as Record<string, string> | null) ?? {};
    const apply = fields._apply !== undefined;
    form = postedForm(request);
    const cfs = await customFieldsOf(rc, model);
    const result = await runImport(rc, model, cfs, {
      text: form.data,
      format: form.format,
      csvDelimiter: form.csv_delimiter,
      apply,
    });
    if (result.written) {
      const ids = [...result.created, ...result.updated];
      const query = new URLSearchParams();
      if (ids.length <= MAX_IDS_IN_URL) for (const id of ids) query.append('id', String(id));
      query.set('imported', `${result.created.length},${result.updated.length}`);
      return reply.redirect(`${listPath(model)}?${query}`, 303);
    }
    const failed = result.outcomes.some((o) => o.action === 'fail');
    return await sendImportPage(ctx, model, request, reply, form, {
      result,
      dryRun: !apply,
      status: failed ? 400 : 200,
    });
  } catch (err) {
    if (err instanceof ImportInputError)
      return sendImportPage(ctx, model, request, reply, form, { message: err.message, status: 400 });
    return sendErrorPage(request, reply, err, modelCrumbs(model));
  }
}

/** the list's notice after an import redirected to it (`?imported=<created>,<updated>`) */
export function importedNotice(query: Map<string, string[]>): string | undefined {
  const m = /^(\d+),(\d+)$/.exec(query.get('imported')?.[0] ?? '');
  if (!m) return undefined;
  return `Imported: ${m[1]} created, ${m[2]} updated.`;
}
