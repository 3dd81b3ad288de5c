/**
 * OPTIONS and the OpenAPI document call a field required as NetBox's serializer does, also where
 * this service fills it in or checks it itself (FieldDef.requiredIn): a device's role under the
 * dialect's name, a token's and a bookmark's user, an event rule's action object type in 4.4.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, makeTestApp } from '../../helpers/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(() => t.close());

const V44 = { accept: 'application/json; version=4.4' };

async function postFields(path: string, headers: Record<string, string> = {}) {
  const res = await t.request('OPTIONS', path, { headers });
  expect(res.statusCode).toBe(200);
  return res.json().actions.POST as Record<string, { required: boolean }>;
}

describe('required as NetBox describes it', () => {
  it('a device: device_role in 3.4, role in 4.4', async () => {
    expect((await postFields('/api/dcim/devices/')).device_role!.required).toBe(true);
    const v44 = await postFields('/api/dcim/devices/', V44);
    expect(v44.role!.required).toBe(true);
    expect(v44.device_role).toBeUndefined();
  });

  it("a token's and a bookmark's user, an event rule's action object type, in both dialects", async () => {
    for (const headers of [{}, V44]) {
      expect((await postFields('/api/users/tokens/', headers)).user!.required).toBe(true);
      expect((await postFields('/api/extras/bookmarks/', headers)).user!.required).toBe(true);
    }
    // NetBox 3.7 and 4.4 alike: action_object_type has no model default; action_type has one
    for (const headers of [V44, undefined]) {
      const rule = await postFields('/api/extras/event-rules/', headers);
      expect(rule.action_object_type!.required).toBe(true);
      expect(rule.action_type!.required).toBe(false);
    }
  });

  it("the OpenAPI document lists them among the request bodies' required keys", async () => {
    const doc3 = (await t.get('/api/schema/?format=json')).json();
    expect(doc3.components.schemas.WritableDeviceRequest.required).toContain('device_role');
    expect(doc3.components.schemas.WritableTokenRequest.required).toContain('user');
    // still written without them: the caller's user, the role under its other name
    const token = await t.post('/api/users/tokens/', {});
    expect(token.statusCode).toBe(201);
  });
});
