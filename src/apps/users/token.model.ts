/**
 * API tokens (spec: API token; Authentication 3-9). The key is 40 hex characters, generated when
 * left empty; it is shown only on creation when ALLOW_TOKEN_RETRIEVAL is off. Creating a token for
 * another user needs users.grant_token.
 */
import { randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import { sql } from 'kysely';
import { hasPermission } from '../../core/auth/permissions.js';
import { Errors } from '../../core/errors.js';
import { defineModel } from '../../core/model/define-model.js';
import type { CustomFilter } from '../../core/model/types.js';
import { STRING_LOOKUPS } from '../../core/query/lookups.js';
import { defineChoices } from '../../core/model/choices.js';
import { DIALECTS } from '../../core/model/dialect.js';

/** the API dialects a token may speak (core/model/dialect.ts); blank follows the deployment */
const ApiDialect = defineChoices(DIALECTS.map((d) => [d, `NetBox ${d}`] as const));

function generateKey(): string {
  return randomBytes(20).toString('hex');
}

function validPrefixes(v: unknown): string | undefined {
  for (const entry of v as string[]) {
    const [addr, mask, extra] = entry.split('/');
    const family = isIP(addr ?? '');
    const max = family === 6 ? 128 : 32;
    if (!family || extra !== undefined || (mask !== undefined && (!/^\d+$/.test(mask) || Number(mask) > max))) {
      return `Enter a valid IPv4 or IPv6 address or prefix: ${entry}`;
    }
  }
  return undefined;
}

const PARTIAL_LOOKUPS = new Set(['ic', 'nic', 'isw', 'nisw', 'iew', 'niew']);

/**
 * The `key` filter. With ALLOW_TOKEN_RETRIEVAL off, partial matches would give back what the
 * setting hides (`key__isw=a`, `ab`, ... recovers a key one character at a time), so they are
 * ignored then (spec: Authentication 8).
 */
const keyFilter: CustomFilter = {
  lookups: ['n', 'ie', 'nie', ...PARTIAL_LOOKUPS],
  type: 'string',
  async build(values, lookup, { rc, alias }) {
    if (PARTIAL_LOOKUPS.has(lookup) && !rc.app.config.allowTokenRetrieval) return null;
    return STRING_LOOKUPS[lookup]!(sql.ref(`${alias}.key`), values, false);
  },
};

function masked(key: string): string {
  return `${'*'.repeat(34)}${key.slice(-6)}`;
}

export const token = defineModel({
  name: 'users.token',
  path: 'tokens',
  verboseName: 'token',
  table: 'users_token',
  fields: {
    user: { kind: 'fk', to: 'users.user', onDelete: 'cascade' },
    created: { kind: 'datetime', readOnly: true },
    expires: { kind: 'datetime', nullable: true },
    last_used: { kind: 'datetime', readOnly: true, nullable: true },
    key: {
      // left out once ALLOW_TOKEN_RETRIEVAL is off (represent below)
      kind: 'string',
      maxLength: 40,
      unique: true,
      noChangelog: true,
      omittable: true,
      pattern: { regex: /^[0-9a-zA-Z]{40}$/, message: 'Ensure this field has exactly 40 characters (hexadecimal).' },
    },
    write_enabled: { kind: 'boolean', default: true },
    description: { kind: 'string', maxLength: 200 },
    allowed_ips: {
      kind: 'strings',
      validate: validPrefixes,
      help: 'Allowed IPv4/IPv6 networks from where the token can be used. Leave blank for no restrictions.',
    },
    api_dialect: {
      kind: 'choice',
      choices: ApiDialect,
      blank: true,
      label: 'API dialect',
      help: 'The NetBox API version this token speaks unless a request asks for another; blank follows the server',
    },
    // spec: a token's last-use time is also exposed as last_updated
    last_updated: {
      kind: 'computed',
      column: 'last_used',
      shape: { type: 'string', format: 'date-time', nullable: true },
    },
  },
  tags: false,
  customFields: false,
  timestamps: false,
  // The stored form (change-log object_repr, delete messages) is always masked: the change log is
  // readable by others, and with ALLOW_TOKEN_RETRIEVAL off it must not leak the key (spec:
  // Authentication 8). The API's `display` shows the key where retrieval is allowed (represent).
  display: (row) => masked(String(row.key)),
  filters: { key: keyFilter },
  hooks: {
    async validate({ data, before }) {
      // chosen once, at creation: a client configured against it must not change under it
      if (before && 'api_dialect' in data && (data.api_dialect ?? '') !== (before.api_dialect ?? ''))
        return { api_dialect: ['The API dialect of a token cannot be changed once it is created.'] };
      return undefined;
    },
    async prepare({ rc, data, before }) {
      if (!before) {
        if (data.user_id == null) data.user_id = rc.user?.id ?? null;
        if (!data.key) data.key = generateKey();
      }
      const owner = data.user_id ?? before?.user_id;
      if (owner != null && Number(owner) !== rc.user?.id && !rc.user?.is_superuser) {
        const model = rc.app.registry.get('users.token');
        // spec: Authentication 9
        if (!(await hasPermission(rc, model, 'grant'))) {
          throw Errors.permissionDenied('This user does not have permission to create tokens for other users.');
        }
      }
    },
    represent(rc, rows, out, { mode, created }) {
      // A nested token appears only inside other objects (a change record's changed_object), which
      // readers see without any permission on tokens (EXEMPT_VIEW_PERMISSIONS='*' even anonymously):
      // never put the key there.
      const reveal = mode !== 'nested' && (rc.app.config.allowTokenRetrieval || created);
      rows.forEach((row, i) => {
        const o = out[i]!;
        // NetBox 3.7: str(token) is the key when retrieval is allowed, else the masked form
        if (reveal) o.display = String(row.key);
        else if ('key' in o) delete o.key;
      });
    },
  },
  ui: {
    columns: ['id', 'key', 'user', 'description', 'write_enabled', 'created', 'expires', 'last_used', 'allowed_ips'],
    groups: [
      { title: '', fields: ['user', 'key', 'write_enabled', 'api_dialect', 'expires', 'description', 'allowed_ips'] },
    ],
  },
  brief: ['key', 'write_enabled'],
  nested: ['key', 'write_enabled'],
  ordering: ['-created', '-id'],
  search: ['description'],
});
