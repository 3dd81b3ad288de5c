/**
 * What a request's code may reach: the app-wide context (database, config, registry, caches) and
 * the per-request facts (executor, user, token, request id, base URL). Passed explicitly.
 */
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { Database, Kdb } from '../db/client.js';
import type { Registry } from './model/registry.js';
import type { ModelDef } from './model/types.js';
import type { CountCache } from './cache/count-cache.js';
import type { CustomFieldsOf } from './cache/custom-field-cache.js';
import type { Preloaded } from './cache/write-preload.js';
import type { ResponseCache } from './cache/response-cache.js';
import type { UploadedFile } from './media/uploaded-file.js';
import type { TemplatePool } from './templates/template-pool.js';
import type { Dialect } from './model/dialect.js';

export interface AuthUser {
  id: number;
  username: string;
  is_superuser: boolean;
  is_active: boolean;
  is_staff: boolean;
}

export interface AuthToken {
  id: number;
  write_enabled: boolean;
  /** the API dialect the token speaks when the request does not ask for one; null: the deployment's */
  api_dialect: Dialect | null;
}

/** A permission's constraints: null = every object; an object = ANDed lookups; a list = ORed objects. */
export type Constraints = null | Record<string, unknown> | Array<Record<string, unknown>>;

export interface CustomFieldDef {
  id: number;
  name: string;
  label: string;
  type: string;
  object_type: string | null;
  content_types: string[];
  required: boolean;
  filter_logic: string;
  default: unknown;
  validation_minimum: number | null;
  validation_maximum: number | null;
  validation_regex: string;
  choices: string[] | null;
  weight: number;
  /** NetBox 4.1: no two objects of a model may hold one value (empty values excepted) */
  unique: boolean;
}

/** Objects of one model written by one committed transaction, per action. */
export interface WriteCounts {
  create: number;
  update: number;
  delete: number;
}

/** Receives committed writes per model (the /metrics counters, http/metrics/). */
export interface ModelWriteCounter {
  written(model: ModelDef, counts: Readonly<WriteCounts>): void;
}

export interface AppContext {
  db: Database;
  config: Config;
  registry: Registry;
  log: Logger;
  /** custom fields per model identity (cache/custom-field-cache.ts) */
  customFields: CustomFieldsOf;
  /** totals of list queries (cache/count-cache.ts) */
  counts: CountCache;
  /** rendered GET responses (cache/response-cache.ts); null when RESPONSE_CACHE_MB=0 */
  responses: ResponseCache | null;
  /** counts committed writes per model for /metrics; null when METRICS_ENABLED=false */
  modelWrites: ModelWriteCounter | null;
  /** wakes this process's webhook worker after a commit that queued deliveries (events/worker.ts); none when no worker runs here */
  wakeEventWorker: (() => void) | null;
  /** request-time Jinja2 rendering: export and config templates, custom links (templates/template-pool.ts) */
  templates: TemplatePool;
}

export interface RequestContext {
  app: AppContext;
  /** the executor: the database, or the open transaction of a write */
  q: Kdb;
  user: AuthUser | null;
  token: AuthToken | null;
  /** true when the user was signed in by a browser session cookie (not a token) */
  viaSession: boolean;
  requestId: string;
  /** scheme://host[:port], for absolute URLs */
  baseUrl: string;
  /** the API dialect the request is answered in (http/dialect.ts); NetBox 3.4's unless chosen */
  dialect: Dialect;
  /** `app.action_model` -> list of constraints granted (loaded once per request) */
  permissions: Map<string, Constraints[]> | null;
  /** client address, after X-Real-IP / X-Forwarded-For */
  clientIp: string;
  /** a cached read's data version (db/client.ts), asked before its first statement; else null */
  dataVersion: string | null;
  /**
   * a web page's request (web/model-pages/index.ts): full representations show the fields of every
   * dialect under their keys (represent/plan.ts `every`), whatever `dialect` says
   */
  everyField?: boolean;
  /** a write sent from a web page's form (web/model-pages/page-writes.ts), not the REST API */
  viaPage?: boolean;
  /** inside a write transaction (crud/routes.ts inTransaction): effects to run once it commits */
  afterCommit?: Array<() => void | Promise<void>>;
  /** inside a write transaction: effects to undo if it rolls back (a file written for the row) */
  onRollback?: Array<() => Promise<void>>;
  /**
   * inside a write transaction: statements sent and not waited for (crud/deferred-write.ts deferWrite),
   * which the transaction's COMMIT follows on the connection
   */
  deferred?: Array<Promise<unknown>>;
  /**
   * inside a write transaction: `model:id` of the objects it created without tags, whose tags the
   * change log and the response then need not read (write-service.ts; load-related.ts fetchTags)
   */
  untagged?: Set<string>;
  /** while a write's items are validated (nothing written meanwhile): related rows read so far (crud/row-by-id.ts lookupOne) */
  lookups?: Map<string, Promise<Array<Record<string, unknown>>>>;
  /** a write's definitions read before its transaction opened (cache/write-preload.ts) */
  preloaded?: Preloaded;
  /**
   * a copy from another instance (src/import-netbox/): objects keep the ids they are given, and the
   * write records no change and announces no event (the target's history is the source's), nor does
   * it derive objects the copy brings itself (a device's components from its type's templates)
   */
  importing?: boolean;
  /** files of a multipart/form-data write, by field name (Django's request.FILES); else absent */
  files?: ReadonlyMap<string, UploadedFile>;
}
