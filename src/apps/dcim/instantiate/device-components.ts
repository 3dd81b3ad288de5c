/** NetBox Device.save() on create: every component its device type's templates describe. */
import type { RequestContext } from '../../../core/context.js';
import { instantiateComponents } from './instantiate.js';
import type { Row } from '../../../core/model/types.js';

export async function instantiateDeviceComponents({
  rc,
  created,
}: {
  rc: RequestContext;
  created: Array<{ row: Row }>;
}): Promise<void> {
  // a copy (import-netbox/) brings the source's components with their own ids
  if (rc.importing) return;
  const owners = created.map(({ row }) => ({
    typeId: Number(row.device_type_id),
    deviceId: Number(row.id),
    moduleId: null,
    position: '',
    replicate: true,
    adopt: false,
  }));
  await instantiateComponents(rc, owners, 'device_type_id');
}
