/**
 * The pages' own stylesheets and scripts (web/assets/), and files of npm packages a page needs
 * (GraphiQL's, added by name with addPackageAsset), read once and served from memory at
 * `/static/<name>?v=<content hash>`: the hash in the URL lets browsers keep them for a year and
 * still fetch a changed file at once. Nothing comes from a CDN.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';

const ASSETS_DIR = join(dirname(fileURLToPath(import.meta.url)), 'assets');
const TYPES: Record<string, string> = { css: 'text/css; charset=utf-8', js: 'text/javascript; charset=utf-8' };

interface Asset {
  body: Buffer;
  hash: string;
  type: string;
}

const assets = new Map<string, Asset>();
/** served name -> file of a package */
const packageFiles = new Map<string, string>();

/** Serves `path` (a file of an installed package) as `/static/<name>`. */
export function addPackageAsset(name: string, path: string): void {
  packageFiles.set(name, path);
}

function load(name: string): Asset {
  let asset = assets.get(name);
  if (!asset) {
    const body = readFileSync(packageFiles.get(name) ?? join(ASSETS_DIR, name));
    asset = {
      body,
      hash: createHash('sha256').update(body).digest('hex').slice(0, 12),
      type: TYPES[name.split('.').pop()!]!,
    };
    assets.set(name, asset);
  }
  return asset;
}

/** The URL of an asset, versioned by its content. */
export function assetUrl(name: string): string {
  return `/static/${name}?v=${load(name).hash}`;
}

export function registerStaticAssets(app: FastifyInstance): void {
  app.get<{ Params: { name: string }; Querystring: { v?: string } }>(
    '/static/:name',
    { config: { public: true, noAuth: true }, exposeHeadRoute: true },
    async (request, reply) => {
      const { name } = request.params;
      if (!/^[a-z0-9-]+\.(css|js)$/.test(name)) return reply.code(404).send({ detail: 'Not found.' });
      let asset: Asset;
      try {
        asset = load(name);
      } catch {
        return reply.code(404).send({ detail: 'Not found.' });
      }
      const fresh = request.query.v === asset.hash;
      return reply
        .type(asset.type)
        .header('Cache-Control', fresh ? 'public, max-age=31536000, immutable' : 'no-cache')
        .header('ETag', `"${asset.hash}"`)
        .send(asset.body);
    },
  );
}
