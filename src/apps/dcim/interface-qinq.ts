/**
 * Q-in-Q and VLAN translation on device and VM interfaces (NetBox 4.2, #9102), shown in the 4.4
 * dialect only:
 *
 * - mode `q-in-q` ("Q-in-Q (802.1ad)") and `qinq_svlan`, the service VLAN such an interface
 *   pushes. Only that mode takes one (NetBox's serializer: a 400). An update that takes an
 *   interface out of the mode without naming `qinq_svlan` clears it, as leaving tagged mode clears
 *   the tagged VLANs (NetBox refuses such an update; a 3.4 client, which cannot see the field,
 *   could not make it). The VLAN must be a service VLAN (ipam/vlan-qinq.ts).
 * - `vlan_translation_policy`, in any mode; a policy in use cannot be deleted (NetBox: PROTECT).
 */
import type { RequestContext } from '../../core/context.js';
import type { FieldDef, WriteHookArgs } from '../../core/model/types.js';
import { checkServiceVlan } from '../ipam/vlan-qinq.js';
import { fk } from '../fields.js';
import { modeOf } from './interface-vlans.js';

const QINQ_MODE = 'q-in-q';

/** the fields an interface gains, in NetBox 4.4's place (after `tagged_vlans`) */
export function interfaceQinQFields(): Record<string, FieldDef> {
  return {
    qinq_svlan: fk('ipam.vlan', { onDelete: 'set_null', label: 'Q-in-Q SVLAN', dialect: '4.4' }),
    vlan_translation_policy: fk('ipam.vlantranslationpolicy', {
      onDelete: 'protect',
      label: 'VLAN translation policy',
      dialect: '4.4',
    }),
  };
}

export async function validateInterfaceQinQ(
  rc: RequestContext,
  { data, sent }: Pick<WriteHookArgs, 'data' | 'sent'>,
): Promise<Record<string, string[]>> {
  if (!sent.has('qinq_svlan') || data.qinq_svlan_id == null) return {};
  if (data.mode !== QINQ_MODE) return { qinq_svlan: ['Interface mode does not support q-in-q service vlan'] };
  return checkServiceVlan(rc, data.qinq_svlan_id, 'qinq_svlan');
}

/** out of mode q-in-q, no service VLAN (prepare hook; validation refused one sent with another mode) */
export function dropSvlanWithoutQinQ({ data, before, sent }: Pick<WriteHookArgs, 'data' | 'before' | 'sent'>): void {
  if (!sent.has('qinq_svlan') && before?.qinq_svlan_id != null && modeOf(data, before) !== QINQ_MODE)
    data.qinq_svlan_id = null;
}
