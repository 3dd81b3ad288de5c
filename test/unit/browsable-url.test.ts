/**
 * The browsable API's URL rewrites: the form method override before routing (rewriteUrl) and the
 * tidy-up of a GET form submitted without JavaScript.
 */
import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { overrideFormMethod } from '../../src/web/browsable/method-override.js';
import { tidyQuery } from '../../src/web/browsable/query-string.js';

const FORM = 'application/x-www-form-urlencoded';

function req(method: string, url: string, type?: string): IncomingMessage {
  return { method, url, headers: type ? { 'content-type': type } : {} } as unknown as IncomingMessage;
}

describe('overrideFormMethod', () => {
  it.each(['PUT', 'PATCH', 'DELETE', 'patch'])(
    'turns a form POST with ?_method=%s into that method and drops the parameter',
    (m) => {
      const r = req('POST', `/api/dcim/sites/5/?_method=${m}`, `${FORM}; charset=UTF-8`);
      expect(overrideFormMethod(r)).toBe('/api/dcim/sites/5/');
      expect(r.method).toBe(m.toUpperCase());
    },
  );

  it('keeps the other parameters byte for byte', () => {
    const r = req('POST', '/api/ipam/prefixes/?a=%2F1&_method=PATCH&b=x+y', FORM);
    expect(overrideFormMethod(r)).toBe('/api/ipam/prefixes/?a=%2F1&b=x+y');
    expect(r.method).toBe('PATCH');
  });

  it.each([
    ['a JSON POST', 'POST', '/api/dcim/sites/?_method=DELETE', 'application/json'],
    ['a POST without a body type', 'POST', '/api/dcim/sites/?_method=DELETE', undefined],
    ['a GET', 'GET', '/api/dcim/sites/?_method=DELETE', FORM],
    ['a page outside the API', 'POST', '/login/?_method=DELETE', FORM],
    ['a method forms cannot stand for', 'POST', '/api/dcim/sites/?_method=OPTIONS', FORM],
    ['a malformed value', 'POST', '/api/dcim/sites/?_method=%E0%A4%A', FORM],
    ['a parameter only ending in _method', 'POST', '/api/dcim/sites/?x_method=DELETE', FORM],
  ])('leaves %s alone', (_label, method, url, type) => {
    const r = req(method, url, type);
    expect(overrideFormMethod(r)).toBe(url);
    expect(r.method).toBe(method);
  });
});

describe('tidyQuery', () => {
  it('drops empty fields and turns the add-a-filter pair into name=value', () => {
    expect(tidyQuery('/api/dcim/sites/?q=&status=&_filter_name=tenant_id&_filter_value=4&limit=50')).toBe(
      '/api/dcim/sites/?limit=50&tenant_id=4',
    );
    expect(tidyQuery('/api/dcim/sites/?q=&_filter_name=status&_filter_value=')).toBe('/api/dcim/sites/');
  });

  it('leaves a tidy URL alone (null), so a page never redirects to itself', () => {
    expect(tidyQuery('/api/dcim/sites/')).toBeNull();
    expect(tidyQuery('/api/dcim/sites/?status=active&status=planned&q=a%20b')).toBeNull();
  });
});
