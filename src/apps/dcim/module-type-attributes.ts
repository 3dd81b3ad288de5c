/**
 * A module type's profile and attributes (NetBox 4.3, shown in the 4.4 dialect): the attributes
 * must satisfy the profile's schema, and without a profile with a schema there are none (NetBox
 * 4.4 ModuleType.clean). As NetBox's AttributesField, a written object updates the stored
 * attributes key by key rather than replacing them.
 */
import type { RequestContext } from '../../core/context.js';
import type { Row } from '../../core/model/types.js';
import { profileSchema, schemaViolation } from '../json-schema.js';

const isObject = (v: unknown): v is Row => typeof v === 'object' && v !== null && !Array.isArray(v);

/** the attributes a write leaves: the written object over the stored one */
function attributesOf(data: Row, before: Row | null, sent: Set<string>): unknown {
  if (!sent.has('attributes')) return data.attributes ?? null;
  const stored = before?.attributes;
  return isObject(stored) && isObject(data.attributes) ? { ...stored, ...data.attributes } : data.attributes;
}

export async function attributeErrors(rc: RequestContext, data: Row, before: Row | null, sent: Set<string>) {
  const schema = await profileSchema(rc, 'dcim_moduletypeprofile', data.profile_id);
  if (schema == null) return undefined;
  const problem = schemaViolation(attributesOf(data, before, sent), schema);
  return problem ? { __all__: [`Invalid schema: ${problem}`] } : undefined;
}

/** the prepare hook's part: the merged attributes stored, none without a profile schema */
export async function prepareAttributes(rc: RequestContext, data: Row, before: Row | null, sent: Set<string>) {
  if (!sent.has('attributes') && !sent.has('profile')) return;
  const profile = 'profile_id' in data ? data.profile_id : before?.profile_id;
  const schema = await profileSchema(rc, 'dcim_moduletypeprofile', profile);
  data.attributes = schema == null ? null : attributesOf(data, before, sent);
}
