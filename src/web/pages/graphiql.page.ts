/**
 * GraphiQL at `/graphql/` for a browser (Accept: text/html), served by the service itself from
 * the npm packages (graphiql's UMD build on React 18's), so it works offline and nothing comes
 * from a CDN. The page has no inline script: web/assets/graphiql-boot.js starts it, and the
 * Content-Security-Policy allows only this service's own files (and data: fonts and images,
 * which graphiql's stylesheet embeds). The page speaks the dialect of its own request and says so
 * in its title; the headers editor may ask for another (`Accept: application/json; version=4.4`).
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { csrfSecret } from '../../http/csrf.js';
import { html } from '../html.js';
import { PAGE_CSP } from '../layout.js';
import { addPackageAsset, assetUrl } from '../static-assets.js';

const require = createRequire(import.meta.url);

/** the package's own folder (its files are not exported, so they are found beside its entry point) */
function packageDir(name: string): string {
  let dir = dirname(require.resolve(name));
  while (!dir.endsWith(join('node_modules', name))) {
    const up = dirname(dir);
    if (up === dir) throw new Error(`cannot find the folder of package ${name}`);
    dir = up;
  }
  return dir;
}

/** served name -> [package, file inside it] */
const VENDOR: Record<string, [string, string]> = {
  'vendor-react.js': ['react', 'umd/react.production.min.js'],
  'vendor-react-dom.js': ['react-dom', 'umd/react-dom.production.min.js'],
  'vendor-graphiql.js': ['graphiql', 'graphiql.min.js'],
  'vendor-graphiql.css': ['graphiql', 'graphiql.min.css'],
};
for (const [name, [pkg, file]] of Object.entries(VENDOR)) addPackageAsset(name, join(packageDir(pkg), file));

const CSP = `${PAGE_CSP}; font-src 'self' data:`;

const DEFAULT_QUERY = `# Read-only. Every model has <name>(id:) and <name>_list(...);
# the list arguments are the REST filters. Ctrl+Space completes.
{
  site_list(pagination: {limit: 5}) {
    id
    name
    status
    devices {
      name
    }
  }
}
`;

export function sendGraphiql(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  // the cookie the fetcher sends back in X-CSRFToken when the browser is signed in
  csrfSecret(request, reply);
  // the page's dialect (a session's is the deployment's): its fetcher asks for it in every request,
  // so the documentation explorer and the answers are that dialect's schema
  const dialect = request.rc.dialect;
  const page = html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>GraphiQL · API ${dialect} · netinventory</title>
<link rel="stylesheet" href="${assetUrl('vendor-graphiql.css')}">
<link rel="stylesheet" href="${assetUrl('graphiql.css')}">
<script src="${assetUrl('vendor-react.js')}" defer></script>
<script src="${assetUrl('vendor-react-dom.js')}" defer></script>
<script src="${assetUrl('vendor-graphiql.js')}" defer></script>
<script src="${assetUrl('graphiql-boot.js')}" defer></script>
</head>
<body>
<div id="graphiql" data-endpoint="/graphql/" data-api-version="${dialect}" data-default-query="${DEFAULT_QUERY}">Loading GraphiQL…</div>
</body>
</html>
`;
  return reply
    .type('text/html; charset=utf-8')
    .header('Content-Security-Policy', CSP)
    .header('Cache-Control', 'no-store')
    .send(page.text);
}
