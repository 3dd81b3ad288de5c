/**
 * `/api/extras/custom-field-choice-sets/<id>/choices/` (NetBox 3.6 action): a set's choices as
 * `{id: value, display: label}` items, paginated like a list, `q` keeping those whose value or label
 * contains it (case-insensitive). Readable by whoever may view the set.
 */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../core/context.js';
import { requirePermission } from '../../core/auth/permissions.js';
import { fetchOne } from '../../core/crud/read.js';
import { parseId, queryParams } from '../../core/crud/routes.js';
import { Errors } from '../../core/errors.js';
import type { RouteDoc } from '../../core/openapi/types.js';
import { pageLinks, parsePage } from '../../core/query/pagination.js';
import { customFieldChoiceSet } from './custom-field-choice-set.model.js';

const PATH = '/api/extras/custom-field-choice-sets/:id/choices/';
const ACCEPTED = new Set(['q', 'limit', 'offset', 'format']);

export function registerChoiceSetRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get<{ Params: { id: string } }>(
    PATH,
    { exposeHeadRoute: true, config: { allow: 'GET, HEAD' } },
    async (request) => {
      const rc = request.rc;
      const id = parseId(request.params.id);
      const params = queryParams(request);
      for (const name of params.keys()) if (!ACCEPTED.has(name)) throw Errors.invalidFilter(name, 'Unknown filter.');
      const scope = await requirePermission(rc, customFieldChoiceSet, 'view');
      const row = await fetchOne(rc, customFieldChoiceSet, id, scope);
      const q = (params.get('q')?.[0] ?? '').toLowerCase();
      const pairs = ((row.extra_choices as string[][] | null) ?? []).filter(
        ([v, l]) => !q || v!.toLowerCase().includes(q) || l!.toLowerCase().includes(q),
      );
      const page = parsePage(ctx.config, params);
      const items = page.limit === null ? pairs.slice(page.offset) : pairs.slice(page.offset, page.offset + page.limit);
      const url = `${rc.baseUrl}/api/extras/custom-field-choice-sets/${row.id}/choices/`;
      return {
        count: pairs.length,
        ...pageLinks(url, params, page, pairs.length),
        results: items.map(([id, display]) => ({ id, display })),
      };
    },
  );
}

const CHOICES = {
  type: 'object',
  properties: {
    count: { type: 'integer' },
    next: { type: 'string', nullable: true },
    previous: { type: 'string', nullable: true },
    results: {
      type: 'array',
      items: { type: 'object', properties: { id: { type: 'string' }, display: { type: 'string' } } },
    },
  },
};

export const CHOICE_SET_DOCS: RouteDoc[] = [
  {
    path: '/api/extras/custom-field-choice-sets/{id}/choices/',
    method: 'get',
    operationId: 'extras_custom_field_choice_sets_choices_list',
    tag: 'extras',
    summary: "A choice set's choices, paginated, filtered by q.",
    parameters: [
      { name: 'id', in: 'path', required: true, schema: { type: 'integer' } },
      { name: 'q', in: 'query', required: false, schema: { type: 'string' } },
      { name: 'limit', in: 'query', required: false, schema: { type: 'integer' } },
      { name: 'offset', in: 'query', required: false, schema: { type: 'integer' } },
    ],
    responses: {
      200: CHOICES,
      403: { $ref: '#/components/schemas/Detail' },
      404: { $ref: '#/components/schemas/Detail' },
    },
  },
];
