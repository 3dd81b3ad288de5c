/**
 * Pieces shared by services and service templates (NetBox 3.4 ServiceBase): the protocol choices,
 * the port list field, its `port` filter and the display "<name> (<PROTOCOL>/<ports>)".
 */
import { sql } from 'kysely';
import { defineChoices } from '../../core/model/choices.js';
import type { CustomFilter, FieldDef } from '../../core/model/types.js';
import { parseIds } from '../../core/query/filter-blocks.js';

// NetBox 3.4 ServiceProtocolChoices
export const ServiceProtocol = defineChoices([
  ['tcp', 'TCP'],
  ['udp', 'UDP'],
  ['sctp', 'SCTP'],
]);

/** NetBox 3.4: ports are 1-65535 (SERVICE_PORT_MIN/MAX); `port` filters them, `ports` is no filter */
export const portsField = (): FieldDef => ({
  kind: 'integers',
  required: true,
  min: 1,
  max: 65535,
  label: 'port numbers',
  noFilter: true,
});

/** "22", "80-81, 443": sorted, runs of consecutive ports collapsed (NetBox array_to_string) */
function portList(ports: unknown): string {
  const sorted = [...new Set((Array.isArray(ports) ? ports : []).map(Number))].sort((a, b) => a - b);
  const runs: number[][] = [];
  for (const p of sorted) {
    const last = runs.at(-1);
    if (last && p === last.at(-1)! + 1) last.push(p);
    else runs.push([p]);
  }
  return runs.map((r) => (r.length > 1 ? `${r[0]}-${r.at(-1)}` : String(r[0]))).join(', ');
}

export const serviceDisplay = (row: Record<string, unknown>): string =>
  `${String(row.name)} (${ServiceProtocol.labels.get(String(row.protocol)) ?? String(row.protocol)}/${portList(row.ports)})`;

/** NetBox 3.4 `port`: objects listening on any of the given ports (ports contains the value) */
export const portFilter: CustomFilter = {
  type: 'integer',
  async build(values, _lookup, { alias }) {
    const ports = parseIds('port', values);
    if (!ports.length) return null;
    // compared as bigint: a number past the integer range matches nothing rather than failing
    return sql`${sql.ref(`${alias}.ports`)}::bigint[] && ${ports}::bigint[]`;
  },
};
