/**
 * Tunnel terminations (NetBox 3.7 vpn.TunnelTermination): one end of a tunnel on a device or VM
 * interface (the generic `termination`), with its role and the outside IP address. NetBox's rule:
 * an interface is terminated to one tunnel at a time (clean(), and a unique constraint behind it).
 */
import { sql } from 'kysely';
import { defineModel } from '../../core/model/define-model.js';
import { searchTerm } from '../../core/query/filter-conditions.js';
import { likeEscape, likeFor } from '../../core/query/lookups.js';
import { fk } from '../fields.js';
import { TunnelTerminationRole } from './choices.js';
import { displayNames } from './display-names.js';
import { genericTargetPair } from './filters.js';

/** the models a tunnel can end on (NetBox's forms offer device and VM interfaces) */
const TUNNEL_TERMINATION_TYPES = ['dcim.interface', 'virtualization.vminterface'];
const COLUMNS = { type: 'termination_type', id: 'termination_id' };
const same = (a: Record<string, unknown>, b: Record<string, unknown>) =>
  a.termination_type === b.termination_type &&
  a.termination_id != null &&
  Number(a.termination_id) === Number(b.termination_id);

export const tunnelTermination = defineModel({
  name: 'vpn.tunneltermination',
  path: 'tunnel-terminations',
  verboseName: 'tunnel termination',
  fields: {
    tunnel: fk('vpn.tunnel', { required: true, nullable: false, onDelete: 'cascade', relatedName: 'terminations' }),
    role: { kind: 'choice', choices: TunnelTerminationRole, default: 'peer' },
    termination_type: { kind: 'contenttype', required: true, types: TUNNEL_TERMINATION_TYPES },
    termination_id: { kind: 'integer', nullable: true, min: 0 },
    termination: { kind: 'generic', generic: { type: 'termination_type', id: 'termination_id' } },
    outside_ip: fk('ipam.ipaddress', { onDelete: 'protect', label: 'outside IP' }),
  },
  relatedObject: 'tunnel',
  filters: {
    ...genericTargetPair('interface', 'dcim.interface', COLUMNS),
    ...genericTargetPair('vminterface', 'virtualization.vminterface', COLUMNS),
    // NetBox 3.7 has no search here (q matches everything); the tunnel's name is what a reader looks for
    q: {
      async build(values, _lookup, { alias }) {
        const q = searchTerm(values);
        if (!q) return null;
        return sql`${sql.ref(`${alias}.tunnel_id`)} in (select id from vpn_tunnel where name ${likeFor(q)} ${`%${likeEscape(q)}%`})`;
      },
    },
  },
  hooks: {
    async validate({ rc, data, earlier }) {
      // NetBox 3.7 TunnelTermination.clean(): "<interface> is already attached to a tunnel (<tunnel>)."
      if (data.termination_type == null || data.termination_id == null) return;
      const twin = earlier.find((e) => same(e, data));
      let tunnelId: unknown = twin?.tunnel_id;
      if (!twin) {
        const stored = await sql<{
          tunnel_id: number;
        }>`select tunnel_id from vpn_tunneltermination where termination_type = ${data.termination_type}
          and termination_id = ${data.termination_id}::bigint and id is distinct from ${data.id ?? null}::bigint`.execute(
          rc.q,
        );
        tunnelId = stored.rows[0]?.tunnel_id;
      }
      if (tunnelId == null) return;
      const names = await displayNames(rc, [
        [data.termination_type as string, data.termination_id],
        ['vpn.tunnel', tunnelId],
      ]);
      const what = names.get(`${data.termination_type}:${data.termination_id}`) ?? `#${data.termination_id}`;
      return {
        termination: [`${what} is already attached to a tunnel (${names.get(`vpn.tunnel:${tunnelId}`) ?? tunnelId}).`],
      };
    },
    async represent(rc, rows, out) {
      // NetBox 3.7: "<tunnel>: Termination <id>"; the brief form carries no tunnel, so names are loaded
      const names = await displayNames(
        rc,
        rows.map((r) => ['vpn.tunnel', r.tunnel_id]),
      );
      rows.forEach((r, i) => {
        out[i]!.display = `${names.get(`vpn.tunnel:${r.tunnel_id}`) ?? ''}: Termination ${r.id}`;
      });
    },
  },
  display: (row) => `Termination ${row.id}`,
  ui: {
    // NetBox 4.4's import form names these by another attribute than the name
    importRefs: { outside_ip: 'address' },
    columns: ['id', 'tunnel', 'role', 'termination', 'outside_ip'],
    groups: [
      { title: '', fields: ['tunnel', 'role', 'termination_type', 'termination_id', 'termination', 'outside_ip'] },
    ],
  },
  // NetBox 3.7 NestedTunnelTerminationSerializer: id, url, display
  brief: [],
  ordering: ['tunnel', 'role', 'id'],
  search: [],
});
