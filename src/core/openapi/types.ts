/**
 * How a route outside the generic model routes describes itself for the OpenAPI document. Shapes
 * may hold `{ $model: 'ipam.ipaddress', form: 'full' }` markers (form: full, brief, nested,
 * writable, patched, paginated; nested by default), resolved to component references.
 */
import type { Shape } from '../model/types.js';
import type { Dialect } from '../model/dialect.js';

type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete' | 'options';

export interface RouteDoc {
  /** OpenAPI path template (`/api/ipam/prefixes/{id}/available-ips/`) */
  path: string;
  method: HttpMethod;
  /** NetBox's style: `<app>_<segments>_<action>` */
  operationId: string;
  /** the app it belongs to (Swagger UI groups by it) */
  tag: string;
  summary?: string;
  description?: string;
  /** query or path parameters (OpenAPI parameter objects) */
  parameters?: Shape[];
  /** JSON request body */
  requestBody?: Shape;
  /** status -> JSON body (null: no body) */
  responses: Record<string, Shape | null>;
  /** answers without a token (the root, token provisioning) */
  public?: boolean;
  /** content type of the success body when it is not JSON */
  produces?: string;
  /** further content types of the success body besides JSON (a rack elevation drawn as SVG) */
  alsoProduces?: Record<string, Shape>;
  /** only this API dialect serves it (a route of a model only NetBox 4 has) */
  dialect?: Dialect;
}
