/**
 * API tokens (spec: API token; Authentication 3-9), in NetBox 4.5's two versions (#20210):
 *
 * - v1, the default: the key is the 40-character secret, generated when left empty; it is shown
 *   only on creation when ALLOW_TOKEN_RETRIEVAL is off.
 * - v2 (`"version": 2`): the key is a public 12-character id, and the 40-character secret is
 *   stored only as an HMAC under a pepper (core/auth/token-secret.ts). The secret is returned once,
 *   in `token`, by the write that creates it; clients send `Bearer nbt_<key>.<secret>`.
 *
 * v1 stays the default in both dialects: 3.4 scripts read the new key back as their credential, and
 * so does pynetbox before 7.7 from `/provision/` in any dialect (its create_token read `key` until
 * 7.7.0, #756), which a v2 key would silently break. Creating a token for another user needs
 * users.grant_token. How each dialect shows a token: docs/api-dialects.md, "Tokens".
 */
import { randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import { sql } from 'kysely';
import { hasPermission } from '../../core/auth/permissions.js';
import {
  currentPepper,
  randomToken,
  TOKEN_KEY_LENGTH,
  TOKEN_SECRET_LENGTH,
  tokenDigest,
} from '../../core/auth/token-secret.js';
import { Errors } from '../../core/errors.js';
import { defineModel } from '../../core/model/define-model.js';
import type { CustomFilter } from '../../core/model/types.js';
import { STRING_LOOKUPS } from '../../core/query/lookups.js';
import { defineChoices } from '../../core/model/choices.js';
import { DIALECTS } from '../../core/model/dialect.js';

/** the API dialects a token may speak (core/model/dialect.ts); blank follows the deployment */
const ApiDialect = defineChoices(DIALECTS.map((d) => [d, `NetBox ${d}`] as const));

const V1_KEY_MESSAGE = 'Ensure this field has exactly 40 characters (hexadecimal).';

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

/** NetBox 4.5: a v2 token is named by its public key, a v1 token by its masked secret */
function displayOf(row: Record<string, unknown>): string {
  return Number(row.version) === 2 ? String(row.key) : masked(String(row.key));
}

/**
 * The plaintext a create returns once, in `token` (NetBox 4.5 TokenSerializer): the prepare hook
 * puts it in the written data, afterWrite on the returned row, where the represent hook finds it.
 * It is no column: reads never have it.
 */
const PLAINTEXT = 'token';

export const token = defineModel({
  name: 'users.token',
  path: 'tokens',
  verboseName: 'token',
  table: 'users_token',
  fields: {
    // NetBox 4.5: 1 or 2, chosen at creation (validate below)
    version: { kind: 'integer', min: 1, max: 2, default: 1, dialect: '4.4' },
    // NetBox's serializer requires it; left out here, the caller's
    user: { kind: 'fk', to: 'users.user', onDelete: 'cascade', requiredIn: ['3.4', '4.4'] },
    created: { kind: 'datetime', readOnly: true },
    expires: { kind: 'datetime', nullable: true },
    last_used: { kind: 'datetime', readOnly: true, nullable: true },
    key: {
      // a v1 key is left out once ALLOW_TOKEN_RETRIEVAL is off (represent below); a v2 key is public
      kind: 'string',
      maxLength: 40,
      unique: true,
      noChangelog: true,
      omittable: true,
      // 40 for a v1 secret; 12 is a v2 token's own key sent back (ignored: read-only, as NetBox's), and
      // refused for a v1 token by validate below
      pattern: { regex: /^(?:[0-9a-zA-Z]{40}|[0-9a-zA-Z]{12})$/, message: V1_KEY_MESSAGE },
    },
    enabled: {
      kind: 'boolean',
      default: true,
      dialect: '4.4',
      help: 'Disable to temporarily revoke this token without deleting it.',
    },
    write_enabled: { kind: 'boolean', default: true },
    description: { kind: 'string', maxLength: 200 },
    allowed_ips: {
      kind: 'strings',
      validate: validPrefixes,
      help: 'Allowed IPv4/IPv6 networks from where the token can be used. Leave blank for no restrictions.',
    },
    // NetBox 4.5: the pepper that hashed a v2 token's secret (set by the server)
    pepper_id: { kind: 'integer', readOnly: true, nullable: true, dialect: '4.4' },
    // NetBox 4.5-4.6: the plaintext, written (or generated) on creation only and shown only then
    token: {
      kind: 'string',
      notStored: true,
      nullable: true,
      omittable: true,
      noChangelog: true,
      maxLength: 40,
      pattern: { regex: /^[0-9a-zA-Z]{40}$/, message: 'Ensure this field has exactly 40 letters and digits.' },
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
  // The stored form (change-log object_repr, delete messages) of a v1 token is always masked: the
  // change log is readable by others, and with ALLOW_TOKEN_RETRIEVAL off it must not leak the key
  // (spec: Authentication 8). A v2 token's key is public, its name (NetBox 4.5). The API's `display`
  // shows a v1 key where retrieval is allowed (represent).
  display: displayOf,
  filters: { key: keyFilter },
  hooks: {
    async validate({ rc, data, before }): Promise<Record<string, string[]> | undefined> {
      // chosen once, at creation: a client configured against it must not change under it
      if (before && 'api_dialect' in data && (data.api_dialect ?? '') !== (before.api_dialect ?? ''))
        return { api_dialect: ['The API dialect of a token cannot be changed once it is created.'] };
      if (before && 'version' in data && Number(data.version) !== Number(before.version))
        return { version: ['The version of a token cannot be changed once it is created.'] };
      // NetBox 4.5: the plaintext is set once (Token.token refuses a new value for a stored token)
      if (before && data.token != null)
        return { token: ['Cannot assign a new plaintext value for an existing token.'] };
      const version = Number(before?.version ?? data.version);
      if (version === 1) {
        if (data.key && String(data.key).length !== 40) return { key: [V1_KEY_MESSAGE] };
        if (data.token != null && data.key && data.key !== data.token)
          return { token: ['A v1 token is its key: send the key or the token, not two different values.'] };
      } else if (!before && !currentPepper(rc.app.config.apiTokenPeppers)) {
        // NetBox 4.5 Token.clean(); there is no pepper to fall back on (docs/configuration.md)
        return { non_field_errors: ['Unable to save v2 tokens: API_TOKEN_PEPPERS is not defined.'] };
      }
      return undefined;
    },
    async prepare({ rc, data, before }) {
      if (!before) {
        if (data.user_id == null) data.user_id = rc.user?.id ?? null;
        if (Number(data.version) === 2) {
          // the key is read-only (generated), the secret kept only as its digest: hmac_digest, a column
          // no field declares, so no representation, filter or change record can show it (migration 0195)
          const { id, pepper } = currentPepper(rc.app.config.apiTokenPeppers)!;
          const secret = typeof data.token === 'string' ? data.token : randomToken(TOKEN_SECRET_LENGTH);
          data.key = randomToken(TOKEN_KEY_LENGTH);
          data.pepper_id = id;
          data.hmac_digest = tokenDigest(pepper, secret);
          data.token = secret;
        } else {
          data.key = data.key || data.token || generateKey();
          data.token = data.key;
        }
      } else if (Number(before.version) === 2) delete data.key;
      const owner = data.user_id ?? before?.user_id;
      if (owner != null && Number(owner) !== rc.user?.id && !rc.user?.is_superuser) {
        const model = rc.app.registry.get('users.token');
        // spec: Authentication 9
        if (!(await hasPermission(rc, model, 'grant'))) {
          throw Errors.permissionDenied('This user does not have permission to create tokens for other users.');
        }
      }
    },
    afterWrite({ data, before, row }) {
      if (!before) row[PLAINTEXT] = data.token;
    },
    represent(rc, rows, out, { mode, created }) {
      // A nested token appears only inside other objects (a change record's changed_object), which
      // readers see without any permission on tokens (EXEMPT_VIEW_PERMISSIONS='*' even anonymously):
      // never put a v1 key there.
      const reveal = mode !== 'nested' && (rc.app.config.allowTokenRetrieval || created);
      rows.forEach((row, i) => {
        const o = out[i]!;
        const v2 = Number(row.version) === 2;
        // NetBox 3.7: str(token) is the key when retrieval is allowed, else the masked form
        if (v2 || reveal) o.display = String(row.key);
        else if ('key' in o) delete o.key;
        if (!('token' in o)) return;
        // 4.4 shows `token` on every full form, null but in the answer to the create; 3.4 only in
        // that answer, and only for a v2 token (a v1 token's is its key, which 3.4 shows already)
        const plaintext = created ? row[PLAINTEXT] : undefined;
        if (rc.dialect === '3.4' && !(v2 && plaintext)) delete o.token;
        else o.token = plaintext ?? null;
      });
    },
  },
  ui: {
    columns: [
      'id',
      'key',
      'user',
      'description',
      'enabled',
      'write_enabled',
      'created',
      'expires',
      'last_used',
      'allowed_ips',
    ],
    groups: [
      {
        title: '',
        fields: ['user', 'key', 'enabled', 'write_enabled', 'api_dialect', 'expires', 'description', 'allowed_ips'],
      },
    ],
  },
  brief: ['key', 'write_enabled'],
  // NetBox 4.5's brief_fields
  netbox44: { brief: ['version', 'key', 'enabled', 'write_enabled', 'description'] },
  nested: ['key', 'write_enabled'],
  ordering: ['-created', '-id'],
  search: ['description'],
});
