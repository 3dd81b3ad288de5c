/**
 * Contract: every create, update and delete of a writable model writes a change record of its
 * request (reference 11), readable at /api/extras/object-changes/?request_id=, and the model's list
 * finds the objects by created_by_request / updated_by_request / modified_by_request.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import type { TestApp } from '../helpers/app.js';
import {
  dataFor,
  defOf,
  detailPath,
  expectSnapshot,
  getJson,
  idsOf,
  makeContractApp,
  resolve,
  secretFields,
} from './harness.js';
import { type ContractCase, type Json, WRITABLE } from './models.js';

let t: TestApp;
beforeAll(async () => {
  t = await makeContractApp();
});
afterAll(async () => t.close());

const requestIdOf = (res: LightMyRequestResponse) => String(res.headers['x-request-id']);

/** The change records of one request for one model, oldest object first. */
async function changesOf(c: ContractCase, requestId: string): Promise<Json[]> {
  const body = await getJson(t, `/api/extras/object-changes/?request_id=${requestId}&limit=0`);
  const mine = (body.results as Json[]).filter((r) => r.changed_object_type === c.model);
  for (const r of mine) expect(r.request_id).toBe(requestId);
  return mine.sort((x, y) => Number(x.changed_object_id) - Number(y.changed_object_id));
}

const ACTIONS = { create: 'Created', update: 'Updated', delete: 'Deleted' } as const;

function expectRecord(c: ContractCase, r: Json, action: keyof typeof ACTIONS, id: unknown) {
  expect(r.action).toEqual({ value: action, label: ACTIONS[action] });
  expect(r.changed_object_type).toBe(c.model);
  expect(r.changed_object_id).toBe(id);
  expect(r.time).toMatch(/Z$/);
  expect(r.user_name).toMatch(/^admin-/);
  expect(r.user).toMatchObject({ username: r.user_name, url: expect.stringMatching(/\/api\/users\/users\/\d+\/$/) });
  // NetBox: str(ObjectChange) = "<app_label> | <verbose name> <object repr> <action> by <user>"
  const def = defOf(c);
  expect(r.display).toBe(
    `${def.app} | ${def.verboseName} ${r.object_repr} ${ACTIONS[action].toLowerCase()} by ${r.user_name}`,
  );
  const hidden = secretFields(defOf(c));
  for (const data of [r.prechange_data, r.postchange_data]) {
    if (data) for (const k of hidden) expect(data, `${k} kept out of the change log`).not.toHaveProperty(k);
  }
}

// models NetBox does not log (bookmarks) are left out, as in events.test.ts
describe.each(WRITABLE.filter((c) => defOf(c).changelog))('$model change log', (c) => {
  const def = defOf(c);

  it('records each created object (prechange null, postchange the stored data)', async () => {
    const data = await dataFor(t, c, 2);
    const res = await t.post(c.path, data);
    expect(res.statusCode, res.body).toBe(201);
    const created = res.json() as Json[];
    const records = await changesOf(c, requestIdOf(res));
    expect(records).toHaveLength(2);
    records.forEach((r, i) => {
      expectRecord(c, r, 'create', created[i]!.id);
      expect(r.prechange_data).toBeNull();
      expectSnapshot(def, r.postchange_data as Json, data[i]!);
      expect(r.changed_object).toMatchObject({ id: created[i]!.id, url: created[i]!.url });
    });
  });

  it('records an update with prechange and postchange data', async () => {
    const [data] = await dataFor(t, c);
    const obj = (await t.post(c.path, data)).json();
    const patch = resolve(c.update);
    const res = await t.patch(detailPath(c, obj.id), patch);
    expect(res.statusCode, res.body).toBe(200);
    const [r, ...rest] = await changesOf(c, requestIdOf(res));
    expect(rest).toEqual([]);
    expectRecord(c, r!, 'update', obj.id);
    expectSnapshot(def, r!.prechange_data as Json, data!);
    expectSnapshot(def, r!.postchange_data as Json, patch);
  });

  it('records a bulk update per object', async () => {
    const objs = (await t.post(c.path, await dataFor(t, c, 2))).json() as Json[];
    const res = await t.patch(c.path, [
      { id: objs[0]!.id, ...resolve(c.update) },
      { id: objs[1]!.id, ...resolve(c.altUpdate) },
    ]);
    expect(res.statusCode, res.body).toBe(200);
    const records = await changesOf(c, requestIdOf(res));
    expect(records.map((r) => r.changed_object_id)).toEqual(objs.map((o) => o.id));
    for (const r of records) expect(r.action).toEqual({ value: 'update', label: 'Updated' });
  });

  it('records a deletion with postchange null', async () => {
    const [data] = await dataFor(t, c);
    const obj = (await t.post(c.path, data)).json();
    const res = await t.del(detailPath(c, obj.id));
    expect(res.statusCode).toBe(204);
    const [r, ...rest] = await changesOf(c, requestIdOf(res));
    expect(rest).toEqual([]);
    expectRecord(c, r!, 'delete', obj.id);
    expectSnapshot(def, r!.prechange_data as Json, data!);
    expect(r!.postchange_data).toBeNull();
    expect(r!.changed_object).toBeNull();
  });

  it('records a bulk deletion per object', async () => {
    const objs = (await t.post(c.path, await dataFor(t, c, 2))).json() as Json[];
    const res = await t.del(
      c.path,
      objs.map((o) => ({ id: o.id })),
    );
    expect(res.statusCode).toBe(204);
    const records = await changesOf(c, requestIdOf(res));
    expect(records.map((r) => r.changed_object_id)).toEqual(objs.map((o) => o.id));
    for (const r of records) expect(r.action).toEqual({ value: 'delete', label: 'Deleted' });
  });

  it('writes no change record for a rejected write', async () => {
    const [field, value] = Object.entries(c.invalid!)[0]!;
    const res = await t.post(c.path, [...(await dataFor(t, c)), { ...(await dataFor(t, c))[0], [field]: value }]);
    expect(res.statusCode).toBe(400);
    expect(await changesOf(c, requestIdOf(res))).toEqual([]);
  });

  it('finds objects by created_by_request, updated_by_request and modified_by_request', async () => {
    const created = await t.post(c.path, await dataFor(t, c, 2));
    const [a, b] = created.json() as Json[];
    const createId = requestIdOf(created);
    const updated = await t.patch(detailPath(c, a!.id), resolve(c.update));
    const updateId = requestIdOf(updated);
    const find = async (param: string, rid: string) => idsOf(await getJson(t, `${c.path}?${param}=${rid}&ordering=id`));
    expect(await find('created_by_request', createId)).toEqual([a!.id, b!.id]);
    // spec: created_by_request matches objects created or updated by the request
    expect(await find('created_by_request', updateId)).toEqual([a!.id]);
    expect(await find('updated_by_request', updateId)).toEqual([a!.id]);
    expect(await find('updated_by_request', createId)).toEqual([]);
    expect(await find('modified_by_request', createId)).toEqual([a!.id, b!.id]);
    expect(await find('modified_by_request', updateId)).toEqual([a!.id]);
  });

  it('rejects a by-request filter that is not a UUID with 400 naming the parameter', async () => {
    const res = await t.get(`${c.path}?created_by_request=nope`);
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json())).toEqual(['created_by_request']);
  });
});
