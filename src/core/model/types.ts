/**
 * The model declaration: what a model is, said once. Everything else (routes, filters,
 * representations, validation, OPTIONS, change logging) is derived from it by core/.
 */
import type { RawBuilder } from 'kysely';
import type { RequestContext } from '../context.js';

export type { FieldDef, FieldKind, OnDelete, Shape } from './field-def.js';
import type { FieldDef, Shape } from './field-def.js';

/** A database row or a representation being built: column or field name to value. */
export type Row = Record<string, unknown>;

export interface CountDef {
  /** model identity whose rows are counted */
  model?: string;
  /** fk field on that model pointing here */
  via?: string;
  /** or: the generic relation field on that model pointing here (addresses assigned to an interface) */
  generic?: string;
  /** or: rows of a join table whose `column` points here (group members, tagged items) */
  through?: { table: string; column: string };
  /** tree models: count rows of descendants too */
  cumulative?: boolean;
  /**
   * the counted table keeps this count per owner (migrations 0148 and 0149 list its column): read, not
   * counted, for owners with many rows (a site's devices)
   */
  kept?: boolean;
}

export interface UniqueTogether {
  fields: string[];
  /** compare these string fields case-insensitively */
  ci?: boolean;
  /**
   * error text (key `__all__`) when NetBox words it itself (a constraint's violation_error_message,
   * or a field whose Django verbose name differs from our label); otherwise Django's
   * unique_error_message is derived: `<Model> with this <Label>, <Label> and <Label> already exists.`
   */
  message?: string;
  /** only when all of these fields are null (NetBox conditional constraints) */
  whenNull?: string[];
}

/** A filter the model declares by hand (beyond those generated from its fields). */
export interface CustomFilter {
  /** lookup suffixes it accepts besides exact */
  lookups?: string[];
  /** builds a SQL condition from the values of one parameter; values are raw strings */
  build(
    values: string[],
    lookup: string,
    ctx: FilterBuildContext,
  ): Promise<import('kysely').RawBuilder<unknown> | null>;
  /** documented type for OPTIONS/OpenAPI */
  type?: 'string' | 'integer' | 'boolean';
}

export interface FilterBuildContext {
  rc: RequestContext;
  /** the query parameter as given (`region__n`), for error bodies: a 400 names it */
  param: string;
  model: ModelDef;
  /** qualified reference to this model's table alias */
  alias: string;
}

export type { ModelHooks, WriteHookArgs } from './hooks.js';
import type { Dialect, Netbox44 } from './dialect.js';
import type { ModelHooks } from './hooks.js';
export type { UiFilter, UiGroup, UiRelated, UiTab } from './ui-hints.js';
import type { ModelUi } from './ui-hints.js';

export interface ModelDef {
  /** identity `app.model` */
  name: string;
  app: string;
  model: string;
  /** URL segment under /api/<app>/ */
  path: string;
  /**
   * Other apps that also serve this model at `/api/<app>/<path>/` (L2VPNs: NetBox 3.4 has them in
   * ipam, 3.7 moved them to vpn). One model, one table, one identity: the extra path answers the
   * same operations and lists the same objects; objects' `url`s name the model's own app.
   */
  alsoAt?: string[];
  table: string;
  verboseName: string;
  verboseNamePlural: string;
  fields: Record<string, FieldDef>;
  /** fields of the brief form besides id, url, display */
  brief: string[];
  /** fields of the nested form besides id, url, display; defaults to brief without counts */
  nested?: string[];
  /** default order; names may be prefixed with '-' */
  ordering: string[];
  /** fields searched by q (case-insensitive contains) */
  search: string[];
  /** display string of a stored row */
  display(row: Record<string, unknown>): string;
  /** field used by the `<fk>` filter of models pointing here (slug when present, else name) */
  naturalKey?: string;
  /**
   * has tags / custom fields; a dialect: shown only in that dialect's representations, documents
   * and GraphQL (NetBox 4 gave contact assignments both), though written and filtered in both, as
   * every field is (dialect.ts hasIn)
   */
  tags: boolean | Dialect;
  customFields: boolean | Dialect;
  changelog: boolean;
  /** has created / last_updated columns */
  timestamps: boolean;
  /** self-referencing tree via this fk; adds _depth and descendant filters */
  treeParent?: string;
  /**
   * the only dialect whose representations show the tree's `_depth` (a model NetBox 4 made a tree:
   * device roles in 4.3, platforms in 4.4; its `parent` field carries the same dialect)
   */
  treeIn?: Dialect;
  counts: Record<string, CountDef>;
  uniqueTogether: UniqueTogether[];
  readOnly: boolean;
  /** allowed methods of the list view when not the full set (e.g. tokens provisioning) */
  hooks: ModelHooks;
  filters: Record<string, CustomFilter>;
  /** docstring shown by OPTIONS */
  description?: string;
  /** fk or generic field whose target is the change log's related object (a device for its interfaces, an image attachment's parent) */
  relatedObject?: string;
  /** name of its OpenAPI component schemas (`IPAddress`); defaults to the verbose name in PascalCase */
  schemaName?: string;
  /** keys a represent hook adds to a form that are not fields (the nested interface's connection_status) */
  represented?: Record<string, Shape>;
  /**
   * the stored columns the represent hook reads in the brief and nested forms beyond the fields
   * those forms show; declaring it (even empty) lets those forms select only the columns they
   * read (core/represent/columns.ts). A model with a hook that declares nothing reads `*`.
   */
  representReads?: string[];
  /**
   * rows the represent hook reads for the full form, by key: rows of `model`, selected by a query of
   * the rows' ids (a sub-select, without parameters, inside the page's own statement when it is
   * prefetched: core/represent/prefetch.ts; else a list, in a statement of its own). The hook gets
   * them from `info.readRows(key)`, converted as the driver parses that model's rows. A device's
   * bay holding it was a statement of its own per page, an address's NAT outside another. Each
   * selects rows that point at the objects, so an object just created has none of them until
   * something else is written (render-written.ts).
   */
  representRows?: Record<
    string,
    { model: string; select: (ids: RawBuilder<unknown> | number[]) => RawBuilder<unknown> }
  >;
  /**
   * 3.4's brief form carries no `display` (spec: the prefix brief form is exactly id, url, family,
   * prefix); NetBox 4's always does
   */
  briefWithoutDisplay?: boolean;
  /**
   * single-object writes may also come as multipart/form-data (http/multipart-body.ts): text parts
   * are the fields, file parts reach the hooks as rc.files (image attachments)
   */
  uploads?: boolean;
  /** what its web pages show beyond the defaults (ui-hints.ts) */
  ui?: ModelUi;
  /** how NetBox 4.4's API shows it where that differs from 3.4 (core/model/dialect.ts) */
  netbox44?: Netbox44;
  /** served only in this API dialect (a model NetBox 4 added): elsewhere its paths answer 404 */
  dialect?: Dialect;
}

export type ModelInput = Omit<
  ModelDef,
  | 'app'
  | 'model'
  | 'tags'
  | 'customFields'
  | 'changelog'
  | 'timestamps'
  | 'counts'
  | 'uniqueTogether'
  | 'readOnly'
  | 'hooks'
  | 'filters'
  | 'search'
  | 'display'
  | 'verboseNamePlural'
  | 'table'
> &
  Partial<
    Pick<
      ModelDef,
      | 'tags'
      | 'customFields'
      | 'changelog'
      | 'timestamps'
      | 'counts'
      | 'uniqueTogether'
      | 'readOnly'
      | 'hooks'
      | 'filters'
      | 'search'
      | 'display'
      | 'verboseNamePlural'
      | 'table'
    >
  >;
