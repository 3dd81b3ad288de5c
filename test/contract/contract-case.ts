/**
 * The shape of one row of the contract table (models.ts) and small helpers for writing rows.
 */
import { make } from '../factories/make.js';
import type { TestApp } from '../helpers/app.js';

export { named } from '../factories/make.js';

export type Json = Record<string, unknown>;
export type Patch = Json | (() => Json);

export interface ContractContext {
  t: TestApp;
}

export interface ContractCase {
  /** model identity `app.model` */
  model: string;
  /** list path */
  path: string;
  /**
   * the API dialect the model is served in when not every one (a model NetBox 4 added): the suite
   * asks in that dialect (`Accept: application/json; version=4.4`)
   */
  dialect?: '4.4';
  /** read-only models (GET/HEAD/OPTIONS only): the suite checks reads and a 405 on writes */
  readOnly?: true;
  /**
   * the writable fields NetBox's serializer requires (OPTIONS `required: true`, "This field is
   * required." when missing), written from the reference (`*` fields) and NetBox's serializers,
   * never read from the model declarations; read-only rows list none
   */
  required?: string[];
  /**
   * what a bulk create listing the row's `create` data twice gets: `refused` where a NetBox unique
   * field or unique constraint covers the values the data sets, or a rule forbids overlap
   * (aggregates, IP ranges), held between the items of one request too; else `allowed` (Django
   * skips a unique_together check when one of its fields is null)
   */
  sameTwice?: 'refused' | 'allowed';
  /** data for one valid new object; may create prerequisites through the API; unique per call */
  create?: (ctx: ContractContext) => Promise<Json>;
  /** a valid PATCH */
  update?: Patch;
  /** a second valid PATCH touching other attributes than `update` (bulk PATCH sends both) */
  altUpdate?: Patch;
  /** one attribute invalid on create and on update; the 400 names its field */
  invalid?: Json;
  /** fields of the brief form besides id, url, display (NetBox 3.4 nested serializer) */
  briefFields: string[];
  /** the spec fixes a brief form without `display` (prefixes: exactly id, url, family, prefix) */
  briefWithoutDisplay?: true;
  /** brief fields rendered unlike the full form (`family`: an integer there, {value, label} in full) */
  briefOwnForm?: string[];
  /** a `q=` value that finds the object created from `data` (default: its name) */
  search?: (data: Json, created: Json) => string;
  /** read-only models whose objects come from other endpoints: creates a few before the reads */
  seed?: (ctx: ContractContext) => Promise<void>;
  /** contract checks known to fail, with the reason; run as expected failures until fixed */
  knownBugs?: {
    brief?: string;
  };
}

export const resolve = (p: Patch | undefined): Json => (typeof p === 'function' ? p() : { ...(p ?? {}) });

/** Creates a prerequisite through the API (test/factories) and returns its representation. */
export const created = (ctx: ContractContext, path: string, data: Json): Promise<Json> => make(ctx.t, path, data);

/** The id of the user the suite signs in as: NetBox requires a token's and a bookmark's `user`. */
export async function suiteUserId(ctx: ContractContext): Promise<number> {
  const res = await ctx.t.get(`/api/users/users/?username=${encodeURIComponent(ctx.t.username)}`);
  return (res.json() as { results: Array<{ id: number }> }).results[0]!.id;
}
