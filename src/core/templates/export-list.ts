/**
 * `?export=<name>` on a list (NetBox 3.7 ExportTemplatesMixin): the export template of that name
 * for the list's model, rendered over the list as filtered (every page: limit and offset do not
 * apply), in the list's order, and answered with the template's MIME type (default
 * `text/plain; charset=utf-8`) and, when `as_attachment`, as a file named as NetBox names it
 * (`netbox_<verbose name plural>.<extension>`). No such template: 404.
 *
 * The template sees `queryset`: the objects' full API representations (so `{{ obj.site.name }}`
 * reads the nested site), loaded in chunks. An export is capped at EXPORT_MAX_OBJECTS objects:
 * they all travel to the sandbox at once, and a larger list is refused with a 400 that says to
 * narrow it with filters, before anything is loaded.
 */
import type { FastifyReply } from 'fastify';
import { type RawBuilder, sql } from 'kysely';
import type { RequestContext } from '../context.js';
import { listConditions, readAndRender, whereSql } from '../crud/read.js';
import { Errors } from '../errors.js';
import type { ModelDef } from '../model/types.js';
import type { Params } from '../query/filters.js';
import { buildOrdering } from '../query/ordering.js';
import { TemplateRenderError } from './template-pool.js';

const EXPORT_MAX_OBJECTS = 10_000;
/** objects loaded and represented per statement */
const CHUNK = 1_000;
/** an export renders a whole list: more time than a link, within the sandbox's limits */
const EXPORT_TIMEOUT_MS = 10_000;
const DEFAULT_MIME_TYPE = 'text/plain; charset=utf-8';

interface ExportTemplateRow {
  template_code: string;
  mime_type: string;
  file_extension: string;
  as_attachment: boolean;
  file_name: string;
}

/** NetBox filters by content type and name and takes the first (the model's ordering: name, then id) */
async function findTemplate(rc: RequestContext, model: ModelDef, name: string): Promise<ExportTemplateRow> {
  const res = await sql<ExportTemplateRow>`select template_code, mime_type, file_extension, as_attachment, file_name
    from extras_exporttemplate where name = ${name} and ${model.name} = any(content_types) order by id limit 1`.execute(
    rc.q,
  );
  if (!res.rows.length) throw Errors.exportTemplateNotFound(name, model.name);
  return res.rows[0]!;
}

/** The filtered list's objects, represented as the list would show them, all pages. */
async function exportedObjects(rc: RequestContext, model: ModelDef, params: Params): Promise<unknown[]> {
  const where = whereSql(await listConditions(rc, model, params));
  const table = sql.table(model.table);
  const total = Number(
    (await sql<{ n: number }>`select count(*)::int as n from ${table} as t ${where}`.execute(rc.q)).rows[0]!.n,
  );
  if (total > EXPORT_MAX_OBJECTS) {
    throw Errors.badRequest(
      `An export renders at most ${EXPORT_MAX_OBJECTS} objects; this list has ${total}. Narrow it with filters.`,
    );
  }
  const order = sql.join(buildOrdering(rc.app.registry, model, params.get('ordering')));
  const out: unknown[] = [];
  for (let offset = 0; offset < total; offset += CHUNK) {
    const page = (columns: RawBuilder<unknown>) =>
      sql`select ${columns} from ${table} as t ${where} order by ${order} limit ${CHUNK} offset ${offset}`;
    const rows = await readAndRender(rc, model, params, page);
    out.push(...rows);
    if (rows.length < CHUNK) break;
  }
  return out;
}

/** Answers the export named by `?export=` (the list route's hook). */
export async function exportList(
  rc: RequestContext,
  reply: FastifyReply,
  model: ModelDef,
  params: Params,
): Promise<string> {
  const name = params.get('export')!.at(-1) ?? '';
  const template = await findTemplate(rc, model, name);
  const queryset = await exportedObjects(rc, model, params);
  let output: string;
  try {
    output = await rc.app.templates.render(template.template_code, { queryset }, { timeoutMs: EXPORT_TIMEOUT_MS });
  } catch (err) {
    if (err instanceof TemplateRenderError)
      throw Errors.templateError(`An error occurred while rendering the export template: ${err.message}`);
    throw err;
  }
  reply.header('content-type', template.mime_type || DEFAULT_MIME_TYPE);
  if (template.as_attachment) {
    const base = `netbox_${model.verboseNamePlural.replace(/ /g, '_')}`;
    const extension = template.file_extension ? `.${template.file_extension}` : '';
    // NetBox 4.3: the template may name the file; quotes and line ends could not stay in the header
    const name = template.file_name.replace(/["\\\r\n]/g, '') || base;
    reply.header('content-disposition', `attachment; filename="${name}${extension}"`);
  }
  // NetBox 3.7 ExportTemplate.render(): CRLF line ends become LF
  return output.replace(/\r\n/g, '\n');
}
