/**
 * A list page's exports (NetBox 4.4's list view, `export` parameter), of the objects the list
 * shows: its filters, saved filter and `sort`, within the user's view scope, every page; with `pk`
 * values (the list's checkboxes), only those of them.
 * - `?export=table`: the table as the user sees it: their columns, their labels as the header,
 *   each cell's text (cell-text.ts), formula-guarded for spreadsheets (../export/csv.ts).
 * - `?export` (no value): all data in the import's columns (all-data.ts); device and module
 *   types as the community device-type library's YAML (apps/dcim/type-library/export-types.ts).
 * - `?export=<name>`: the model's export template of that name (core/templates/export-list.ts,
 *   the REST list's own), 404 without one.
 * CSV is streamed chunk by chunk (core/crud/list-chunks.ts): memory stays flat whatever the count.
 */
import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RequestContext } from '../../core/context.js';
import { listInChunks } from '../../core/crud/list-chunks.js';
import { Errors } from '../../core/errors.js';
import type { ModelDef } from '../../core/model/types.js';
import { orderingNames } from '../../core/query/ordering.js';
import { exportList } from '../../core/templates/export-list.js';
import { isFilterParam } from '../components/filter-form.js';
import { columnLabel } from '../components/object-table.js';
import { isTypeLibraryModel } from '../../apps/dcim/type-library/import-types.js';
import { typeLibraryExport } from '../../apps/dcim/type-library/export-types.js';
import { customFieldsOf, modelCrumbs, type Query, queryOf, sendErrorPage } from '../model-pages/page-shell.js';
import { allDataCell, allDataColumns } from './all-data.js';
import { cellText } from './cell-text.js';
import { csvLine, guardFormula } from './csv.js';

/** the list's read parameters: its filters, its sort as `ordering`, the chosen `pk`s as an `id` filter */
function exportParams(model: ModelDef, query: Query): Query {
  const params: Query = new Map();
  for (const [k, v] of query)
    if (isFilterParam(k) && k !== 'export' && k !== 'pk')
      params.set(
        k,
        v.filter((x) => x !== ''),
      );
  const sort = query.get('sort')?.[0] ?? '';
  if (sort && orderingNames(model).includes(sort.replace(/^-/, ''))) params.set('ordering', [sort]);
  const pks = query.get('pk')?.filter((x) => x !== '');
  if (pks?.length) {
    // with an `id` filter too: the chosen ones it lets through (none at all: an id no row has)
    const ids = params.get('id');
    const both = ids?.length ? pks.filter((p) => ids.includes(p)) : pks;
    params.set('id', both.length ? both : ['0']);
  }
  return params;
}

function fileName(model: ModelDef, extension: string): string {
  return `netbox_${model.verboseNamePlural.replace(/ /g, '_')}.${extension}`;
}

function sendCsv(reply: FastifyReply, model: ModelDef, lines: AsyncGenerator<string>) {
  return reply
    .header('content-type', 'text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${fileName(model, 'csv')}"`)
    .header('cache-control', 'no-store')
    .send(Readable.from(lines));
}

async function csvExport(
  rc: RequestContext,
  model: ModelDef,
  params: Query,
  header: string[],
  columns: string[],
  cell: (row: Record<string, unknown>, key: string) => string,
): Promise<AsyncGenerator<string>> {
  const list = await listInChunks(rc, model, params);
  return (async function* () {
    yield csvLine(header);
    for await (const rows of list.chunks()) yield rows.map((row) => csvLine(columns.map((k) => cell(row, k)))).join('');
  })();
}

/**
 * `POST <list>` from the table's selection form: the checked rows (`pk`) and the export kind
 * (`export`) from the form, the list's filters and sort from the URL. Without `export`, a 400.
 */
export async function postListExport(
  model: ModelDef,
  request: FastifyRequest,
  reply: FastifyReply,
  shownColumns: () => Promise<string[]>,
) {
  const form = request.formValues ?? new Map<string, string[]>();
  const query: Query = queryOf(request);
  for (const key of ['export', 'pk']) {
    const values = form.get(key);
    if (values) query.set(key, [...(query.get(key) ?? []), ...values]);
  }
  try {
    if (!query.has('export'))
      throw Errors.badRequest('Choose what to export: export=table, export, or an export template by name.');
    return await sendListExport(model, request, reply, query, shownColumns);
  } catch (err) {
    return sendErrorPage(request, reply, err, modelCrumbs(model));
  }
}

/**
 * Answers the export the query asks for. `shownColumns` gives the user's table columns (the list
 * page's choice). Errors are thrown before anything is sent, for the page's error answer.
 */
export async function sendListExport(
  model: ModelDef,
  request: FastifyRequest,
  reply: FastifyReply,
  query: Query,
  shownColumns: () => Promise<string[]>,
) {
  const rc = request.rc;
  const kind = query.get('export')?.at(-1) ?? '';
  const params = exportParams(model, query);
  if (kind === 'table') {
    const columns = await shownColumns();
    const header = columns.map((c) => columnLabel(model, c));
    const text = (row: Record<string, unknown>, key: string) =>
      guardFormula(key === 'display' ? String(row.display ?? row.id) : cellText(row, key));
    return sendCsv(reply, model, await csvExport(rc, model, params, header, columns, text));
  }
  if (kind === '') {
    if (isTypeLibraryModel(model)) {
      const documents = await typeLibraryExport(rc, model, params);
      return reply
        .header('content-type', 'application/yaml; charset=utf-8')
        .header('content-disposition', `attachment; filename="${fileName(model, 'yaml')}"`)
        .header('cache-control', 'no-store')
        .send(Readable.from(documents));
    }
    const columns = allDataColumns(model, await customFieldsOf(rc, model));
    const cell = (row: Record<string, unknown>, key: string) => allDataCell(model, row, key);
    return sendCsv(reply, model, await csvExport(rc, model, params, columns, columns, cell));
  }
  params.set('export', [kind]);
  const body = await exportList(rc, reply, model, params);
  return reply.header('cache-control', 'no-store').send(body);
}
