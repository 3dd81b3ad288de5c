/**
 * The models only NetBox 4 has (served in the 4.4 dialect of the API) have their pages and their
 * place in the menu as NetBox 4.4's navigation/menu.py puts them, on a deployment speaking 3.4.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { signIn, type WebSession } from '../helpers/web-session.js';

let t: TestApp;
let admin: WebSession;
beforeAll(async () => {
  t = await makeTestApp();
  admin = await signIn(t, t.username, t.password);
});
afterAll(async () => t.close());

/** menu group heading -> the 4.4-only lists NetBox 4.4 places in it */
const PLACES: Array<[string, string[]]> = [
  ['Rack Types', ['/dcim/rack-types/']],
  ['Device Types', ['/dcim/module-type-profiles/']],
  ['Addressing', ['/dcim/mac-addresses/']],
  ['VLANs', ['/ipam/vlan-translation-policies/', '/ipam/vlan-translation-rules/']],
  [
    'Virtual Circuits',
    ['/circuits/virtual-circuits/', '/circuits/virtual-circuit-types/', '/circuits/virtual-circuit-terminations/'],
  ],
  ['Groups', ['/circuits/circuit-groups/', '/circuits/circuit-group-assignments/']],
  ['Configurations', ['/extras/config-context-profiles/']],
  ['Customization', ['/extras/table-configs/']],
  ['Logging', ['/extras/notification-groups/']],
];

it('lists each in its menu group, and each list answers', async () => {
  const home = await admin.request('GET', '/');
  expect(home.statusCode).toBe(200);
  for (const [group, paths] of PLACES) {
    const section = new RegExp(`<h2>${group}</h2><ul>(.*?)</ul>`, 's').exec(home.body)?.[1] ?? '';
    for (const path of paths) {
      expect(section, `${group}: ${path}`).toContain(`href="${path}"`);
      const list = await admin.request('GET', path);
      expect(list.statusCode, path).toBe(200);
      expect(list.headers['content-type']).toMatch(/^text\/html/);
    }
  }
});
