/**
 * Custom links (NetBox 3.7): the browsable API's detail page of an object shows the enabled links
 * for its type, rendered with the object; an empty text hides a link; a failing template shows as
 * an error for that link only; URLs are encoded and unsafe schemes dropped; groups form menus.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { uniq, type Json, make, makeSite } from '../../factories/index.js';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => t.close());

const HTML = { accept: 'text/html' };
const link = (extra: Json) =>
  make(t, '/api/extras/custom-links/', {
    name: uniq('link'),
    content_types: ['dcim.rack'],
    link_text: 'x',
    link_url: 'https://example.com/',
    ...extra,
  });
const page = async (path: string) => {
  const res = await t.request('GET', path, { headers: HTML });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toContain('text/html');
  return res.body;
};
/** the custom links nav of a page, or '' */
const linksOf = (body: string) => /<nav class="custom-links[^]*?<\/nav>/.exec(body)?.[0] ?? '';

describe('custom links on the browsable detail page', () => {
  it('renders text and URL with the object, hides empty and disabled links and other types', async () => {
    const site = await makeSite(t);
    const rack = await make(t, '/api/dcim/racks/', { name: uniq('rack'), site: site.id });
    const tag = uniq('l');
    await link({
      name: `${tag}-a`,
      link_text: 'Ticket for {{ object.name }} at {{ object.site.name }}',
      link_url: 'https://tickets.example.com/find?rack={{ object.id }}&site={{ object.site.slug }}',
      new_window: true,
    });
    await link({ name: `${tag}-empty`, link_text: '{% if object.id < 0 %}never{% endif %}  ' });
    await link({ name: `${tag}-off`, link_text: 'disabled link', enabled: false });
    await link({ name: `${tag}-site`, link_text: 'site only link', content_types: ['dcim.site'] });
    const nav = linksOf(await page(`/api/dcim/racks/${rack.id}/`));
    expect(nav).toContain(`>Ticket for ${rack.name} at ${site.name}</a>`);
    expect(nav).toContain(`href="https://tickets.example.com/find?rack=${rack.id}&amp;site=${site.slug}"`);
    expect(nav).toContain('target="_blank"');
    expect(nav).not.toContain('never');
    expect(nav).not.toContain('disabled link');
    expect(nav).not.toContain('site only link');
    // the site's page has its own link only
    expect(linksOf(await page(`/api/dcim/sites/${site.id}/`))).toContain('site only link');
  });

  it('shows a failing template as an error of that link, the other links and the page intact', async () => {
    const site = await makeSite(t);
    await link({ name: 'zz-broken-link', link_text: '{{ object.name ', content_types: ['dcim.site'] });
    await link({ name: 'zz-good-link', link_text: 'good {{ object.slug }}', content_types: ['dcim.site'] });
    const body = await page(`/api/dcim/sites/${site.id}/`);
    const nav = linksOf(body);
    expect(nav).toMatch(/custom-link-error[^>]*>⚠ zz-broken-link: /);
    expect(nav).toContain(`>good ${site.slug}</a>`);
    // the JSON of the object is still on the page
    expect(body).toContain(site.name);
    await t.del(
      '/api/extras/custom-links/',
      (await t.get('/api/extras/custom-links/?name=zz-broken-link')).json().results.map((r: Json) => ({ id: r.id })),
    );
  });

  it('escapes the text, encodes the URL and drops a scheme that is not allowed', async () => {
    const rack = await make(t, '/api/dcim/racks/', { name: uniq('rack'), site: (await makeSite(t)).id });
    await link({
      name: uniq('esc'),
      link_text: '<b>{{ object.name }}</b>',
      link_url: 'https://example.com/a b?q="{{ object.id }}"',
    });
    await link({ name: uniq('js'), link_text: 'scripted', link_url: 'javascript:alert(1)' });
    const nav = linksOf(await page(`/api/dcim/racks/${rack.id}/`));
    expect(nav).toContain(`&lt;b&gt;${rack.name}&lt;/b&gt;`);
    expect(nav).toContain(`href="https://example.com/a%20b?q=%22${rack.id}%22"`);
    expect(nav).toMatch(/href=""[^>]*>scripted</);
    expect(nav).not.toContain('javascript:');
  });

  it('groups links with a group name into one menu', async () => {
    const vrf = await make(t, '/api/ipam/vrfs/', { name: uniq('vrf') });
    // the group's first link renders nothing, yet gives the menu its class (NetBox)
    await make(t, '/api/extras/custom-links/', {
      name: uniq('g0'),
      content_types: ['ipam.vrf'],
      link_text: '{{ "" }}',
      link_url: '/0',
      group_name: 'Tools',
      weight: 0,
      button_class: 'red',
    });
    await make(t, '/api/extras/custom-links/', {
      name: uniq('g1'),
      content_types: ['ipam.vrf'],
      link_text: 'first in group',
      link_url: '/a',
      group_name: 'Tools',
      weight: 1,
    });
    await make(t, '/api/extras/custom-links/', {
      name: uniq('g2'),
      content_types: ['ipam.vrf'],
      link_text: 'second in group',
      link_url: '/b',
      group_name: 'Tools',
      weight: 2,
    });
    const nav = linksOf(await page(`/api/ipam/vrfs/${vrf.id}/`));
    expect(nav).toMatch(
      /<details class="custom-link-group btn-red"><summary>Tools<\/summary><ul><li>[^]*first in group[^]*second in group[^]*<\/ul><\/details>/,
    );
  });

  it('shows nothing on a list page, and JSON clients get plain JSON', async () => {
    const site = await makeSite(t);
    await link({ name: uniq('l'), link_text: 'on sites', content_types: ['dcim.site'] });
    expect(linksOf(await page('/api/dcim/sites/'))).toBe('');
    const json = await t.get(`/api/dcim/sites/${site.id}/`);
    expect(json.headers['content-type']).toContain('application/json');
    expect(json.body).not.toContain('on sites');
  });
});

describe('custom link fields', () => {
  it('validates content types and the button class; filters by content type and text', async () => {
    const empty = await t.post('/api/extras/custom-links/', {
      name: uniq('l'),
      content_types: [],
      link_text: 'x',
      link_url: 'y',
    });
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toEqual({ content_types: ['This list may not be empty.'] });
    const colour = await t.post('/api/extras/custom-links/', {
      name: uniq('l'),
      content_types: ['dcim.site'],
      link_text: 'x',
      link_url: 'y',
      button_class: 'rainbow',
    });
    expect(colour.statusCode).toBe(400);
    expect(Object.keys(colour.json())).toEqual(['button_class']);
    const l = await link({ content_types: ['circuits.circuit'], link_text: uniq('needle') });
    const found = await t.get(
      `/api/extras/custom-links/?content_types=circuits.circuit&link_text__ic=${l.link_text.slice(0, 12)}`,
    );
    expect(found.json().results.map((r: Json) => r.id)).toContain(l.id);
  });
});
