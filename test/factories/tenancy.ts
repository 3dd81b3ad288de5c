/** Builders of the tenancy app: tenants and their groups, contacts, their groups, roles and assignments. */
import type { TestApp } from '../helpers/app.js';
import { type Json, make, named, uniq } from './make.js';

export const makeTenantGroup = (t: TestApp, extra: Json = {}) =>
  make(t, '/api/tenancy/tenant-groups/', { ...named('tgroup'), ...extra });
export const makeTenant = (t: TestApp, extra: Json = {}) =>
  make(t, '/api/tenancy/tenants/', { ...named('tenant'), ...extra });

export const makeContactGroup = (t: TestApp, extra: Json = {}) =>
  make(t, '/api/tenancy/contact-groups/', { ...named('cgroup'), ...extra });
export const makeContactRole = (t: TestApp, extra: Json = {}) =>
  make(t, '/api/tenancy/contact-roles/', { ...named('crole'), ...extra });
export const makeContact = (t: TestApp, extra: Json = {}) =>
  make(t, '/api/tenancy/contacts/', { name: uniq('contact'), ...extra });

/** `contact` (a new one unless given) in a new role on `object` of `contentType` ('dcim.site') */
export async function makeContactAssignment(
  t: TestApp,
  contentType: string,
  object: Json,
  extra: Json = {},
): Promise<Json> {
  const contact = extra.contact ?? (await makeContact(t)).id;
  const role = extra.role ?? (await makeContactRole(t)).id;
  return make(t, '/api/tenancy/contact-assignments/', {
    content_type: contentType,
    object_id: object.id,
    ...extra,
    contact,
    role,
  });
}
