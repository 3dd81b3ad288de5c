/**
 * API tokens (spec: API token; Authentication 3-9). The key is 40 hex characters, generated when
 * left empty; it is shown only on creation when ALLOW_TOKEN_RETRIEVAL is off. Creating a token for
 * another user needs users.grant_token.
 */
import { randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import { hasPermission } from '../../core/auth/permissions.js';
import { Errors } from '../../core/errors.js';
import { defineModel } from '../../core/model/define-model.js';

export function generateKey(): string {
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
      kind: 'string', maxLength: 40, unique: true, noChangelog: true,
      pattern: { regex: /^[0-9a-zA-Z]{40}$/, message: 'Ensure this field has exactly 40 characters (hexadecimal).' },
    },
    write_enabled: { kind: 'boolean', default: true },
    description: { kind: 'string', maxLength: 200 },
    allowed_ips: { kind: 'strings', validate: validPrefixes, help: 'Allowed IPv4/IPv6 networks from where the token can be used. Leave blank for no restrictions.' },
    // spec: a token's last-use time is also exposed as last_updated
    last_updated: { kind: 'computed', column: 'last_used' },
  },
  tags: false,
  customFields: false,
  timestamps: false,
  display: (row) => String(row.key),
  hooks: {
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
    represent(rc, rows, out, { created }) {
      if (rc.app.config.allowTokenRetrieval || created) return;
      rows.forEach((row, i) => {
        const o = out[i]!;
        o.display = masked(String(row.key));
        if ('key' in o) delete o.key;
      });
    },
  },
  brief: ['key', 'write_enabled'],
  nested: ['key', 'write_enabled'],
  ordering: ['-created', '-id'],
  search: ['description'],
});
