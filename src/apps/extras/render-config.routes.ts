/**
 * Rendering config templates (NetBox 3.7 RenderConfigMixin and ConfigTemplateViewSet.render):
 * - `POST /api/dcim/devices/<id>/render-config/` and `POST /api/virtualization/virtual-machines/<id>/render-config/`
 *   render the object's config template (its own, else its role's, else its platform's: NetBox
 *   3.7 RenderConfigMixin.get_config_template) with the object's rendered config context, the
 *   request body's keys over it, and the object itself as `device` or `virtualmachine` (its full
 *   API representation here). No template: 400 `{"error": ...}`.
 * - `POST /api/extras/config-templates/<id>/render/` renders one template with the body as context.
 * Both answer `{configtemplate, content}`, or the content alone as text/plain when the client
 * asks for text/plain (NetBox's TextRenderer). As NetBox's POST actions, they need the model's
 * add permission (NetBox 3.7 maps POST to add) and a write-enabled token.
 * A template that fails (syntax, rendering, a sandbox limit) is a 400 naming the error (NetBox
 * answers 500; here a user's template is never the service's error).
 */
import { parseId } from '../../core/crud/routes.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { requirePermission } from '../../core/auth/permissions.js';
import type { AppContext, RequestContext } from '../../core/context.js';
import { fetchOne } from '../../core/crud/read.js';
import { isPlainObject } from '../../core/crud/parse-field.js';
import { Errors } from '../../core/errors.js';
import type { ModelDef, Row } from '../../core/model/types.js';
import type { RouteDoc } from '../../core/openapi/types.js';
import { render } from '../../core/represent/render.js';
import type { BlockWhitespace } from '../../core/events/sandbox.js';
import { TemplateRenderError } from '../../core/templates/template-pool.js';
import { wantsText } from './accept-text.js';

type Params = { Params: { id: string } };

/** a config render: a device's whole configuration, more time than a link */
const RENDER_TIMEOUT_MS = 5_000;

/** [list url, model identity, the object's name in the context (NetBox: its model name)] */
const RENDERABLE: Array<[string, string, string]> = [
  ['/api/dcim/devices', 'dcim.device', 'device'],
  ['/api/virtualization/virtual-machines', 'virtualization.virtualmachine', 'virtualmachine'],
];

/** The body is extra context: an object (none at all is an empty one). */
function contextBody(body: unknown): Row {
  if (body === undefined || body === null) return {};
  if (!isPlainObject(body)) throw Errors.validation({ non_field_errors: ['Invalid data. Expected a dictionary.'] });
  return body;
}

/** NetBox 3.7 get_config_template(): the object's own, else its role's, else its platform's */
async function resolveTemplateId(rc: RequestContext, row: Row): Promise<number | null> {
  if (row.config_template_id != null) return Number(row.config_template_id);
  const res = await sql<{ id: number | null }>`select coalesce(
      (select config_template_id from dcim_devicerole where id = ${row.role_id ?? null}::bigint),
      (select config_template_id from dcim_platform where id = ${row.platform_id ?? null}::bigint)) as id`.execute(
    rc.q,
  );
  const id = res.rows[0]?.id;
  return id == null ? null : Number(id);
}

/**
 * NetBox 3.7 passes environment_params to Jinja2's environment; the renderer here takes its block
 * whitespace options (trim_blocks, lstrip_blocks; Jinja2's default: off) and no others.
 */
function whitespaceOf(params: unknown): BlockWhitespace {
  const p = isPlainObject(params) ? params : {};
  return { trim_blocks: Boolean(p.trim_blocks), lstrip_blocks: Boolean(p.lstrip_blocks) };
}

async function renderTemplate(request: FastifyRequest, reply: FastifyReply, template: Row, context: Row) {
  const rc = request.rc;
  let content: string;
  try {
    content = await rc.app.templates.render(String(template.template_code), context, {
      timeoutMs: RENDER_TIMEOUT_MS,
      whitespace: whitespaceOf(template.environment_params),
    });
  } catch (err) {
    if (err instanceof TemplateRenderError)
      throw Errors.templateError(`An error occurred while rendering the template: ${err.message}`);
    throw err;
  }
  // NetBox 3.7 ConfigTemplate.render(): CRLF line ends become LF
  content = content.replace(/\r\n/g, '\n');
  if (wantsText(request.headers.accept)) return reply.type('text/plain; charset=utf-8').send(content);
  const [configtemplate] = await render(rc, rc.app.registry.get('extras.configtemplate'), [template], 'nested');
  return { configtemplate, content };
}

const OPTIONS = (name: string) => ({
  name,
  description: '',
  renders: ['application/json', 'text/plain'],
  parses: ['application/json'],
});

export function registerRenderConfigRoutes(app: FastifyInstance, ctx: AppContext): void {
  const templateModel = ctx.registry.get('extras.configtemplate');
  for (const [list, type, contextName] of RENDERABLE) {
    const model: ModelDef | undefined = ctx.registry.find(type);
    if (!model) continue;
    app.route<Params>({
      method: ['POST', 'OPTIONS'],
      url: `${list}/:id/render-config/`,
      config: { allow: 'POST, OPTIONS' },
      handler: async (request, reply) => {
        if (request.method === 'OPTIONS') return OPTIONS('Render Config');
        const rc = request.rc;
        const extra = contextBody(request.body);
        const row = await fetchOne(rc, model, parseId(request.params.id), await requirePermission(rc, model, 'add'));
        const templateId = await resolveTemplateId(rc, row);
        if (templateId === null)
          return reply.code(400).send({ error: `No config template found for this ${contextName}.` });
        const template = await fetchOne(rc, templateModel, templateId, null);
        // the full representation carries the rendered config context (config-context-render.ts)
        const [object] = await render(rc, model, [row], 'full');
        const configContext = isPlainObject(object!.config_context) ? object!.config_context : {};
        return renderTemplate(request, reply, template, { ...configContext, ...extra, [contextName]: object });
      },
    });
  }
  app.route<Params>({
    method: ['POST', 'OPTIONS'],
    url: '/api/extras/config-templates/:id/render/',
    config: { allow: 'POST, OPTIONS' },
    handler: async (request, reply) => {
      if (request.method === 'OPTIONS') return OPTIONS('Render');
      const rc = request.rc;
      const extra = contextBody(request.body);
      const template = await fetchOne(
        rc,
        templateModel,
        parseId(request.params.id),
        await requirePermission(rc, templateModel, 'add'),
      );
      return renderTemplate(request, reply, template, extra);
    },
  });
}

const RENDERED = {
  type: 'object',
  properties: { configtemplate: { $model: 'extras.configtemplate' }, content: { type: 'string' } },
  required: ['configtemplate', 'content'],
};

/** The render routes in the OpenAPI document (NetBox's operationIds). */
export function renderConfigDocs(): RouteDoc[] {
  const id = [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }];
  const common = {
    method: 'post' as const,
    parameters: id,
    requestBody: { type: 'object', additionalProperties: true },
    alsoProduces: { 'text/plain': { type: 'string' } },
  };
  const errors = {
    400: { type: 'object', additionalProperties: true },
    403: { $ref: '#/components/schemas/Detail' },
    404: { $ref: '#/components/schemas/Detail' },
  };
  return [
    {
      ...common,
      path: '/api/dcim/devices/{id}/render-config/',
      operationId: 'dcim_devices_render_config_create',
      tag: 'dcim',
      summary: "Render the device's config template with its config context (body: extra context)",
      responses: { 200: RENDERED, ...errors },
    },
    {
      ...common,
      path: '/api/virtualization/virtual-machines/{id}/render-config/',
      operationId: 'virtualization_virtual_machines_render_config_create',
      tag: 'virtualization',
      summary: "Render the virtual machine's config template with its config context (body: extra context)",
      responses: { 200: RENDERED, ...errors },
    },
    {
      ...common,
      path: '/api/extras/config-templates/{id}/render/',
      operationId: 'extras_config_templates_render_create',
      tag: 'extras',
      summary: 'Render the config template with the body as its context',
      responses: { 200: RENDERED, ...errors },
    },
  ];
}
