/**
 * The base of every builder: unique values, and one object made through the API as the test
 * app's superuser (a POST that must answer 201, so a builder that breaks says which path and why).
 */
import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import type { TestApp } from '../helpers/app.js';

// biome-ignore lint/suspicious/noExplicitAny: an API representation is read field by field in tests
export type Json = Record<string, any>;

let counter = 0;
/** a unique, lower-case value usable as a name or slug: prefix, process, counter and a random tail */
export function uniq(prefix: string): string {
  counter += 1;
  return `${prefix}-${process.pid}-${counter}-${randomBytes(2).toString('hex')}`;
}

/** a unique name with the same value as slug (organisational models take both) */
export function named(prefix: string): { name: string; slug: string } {
  const n = uniq(prefix);
  return { name: n, slug: n };
}

/** POSTs `data` to `path` and returns the created representation; fails the test unless 201 */
export async function make(t: TestApp, path: string, data: Json): Promise<Json> {
  const res = await t.post(path, data);
  expect(res.statusCode, `${path}: ${res.body}`).toBe(201);
  return res.json();
}

/** the ids of a list answer, in its order */
export const ids = (body: Json): number[] => (body.results as Json[]).map((r) => r.id);

/** the ids a list URL answers, in its order; fails the test unless 200 */
export async function idsAt(t: TestApp, url: string): Promise<number[]> {
  const res = await t.get(url);
  expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
  return ids(res.json());
}
