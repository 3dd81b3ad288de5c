/**
 * The model declaration: what a model is, said once. Everything else (routes, filters,
 * representations, validation, OPTIONS, change logging) is derived from it by core/.
 */
import type { RawBuilder } from 'kysely';
import type { ChoiceSet } from './choices.js';
import type { RequestContext } from '../context.js';

export type FieldKind =
  | 'string' // bounded text (maxLength)
  | 'text' // unbounded text (comments)
  | 'slug'
  | 'integer'
  | 'decimal'
  | 'boolean'
  | 'date'
  | 'datetime'
  | 'choice'
  | 'fk'
  | 'm2m'
  | 'json'
  | 'strings' // list of strings stored as text[]
  | 'integers' // list of integers stored as integer[] (min/max apply to each member)
  | 'password' // write-only, stored hashed
  | 'ipaddress' // inet: an address with its mask ("10.0.0.1/24")
  | 'ipprefix' // cidr: a network ("10.0.0.0/24"); host bits set is an error
  | 'mac' // MAC address, stored as "00:1A:2B:3C:4D:5E"
  | 'contenttype' // "app.model" of a registered model (the type half of a generic relation)
  | 'generic' // read-only: the object a contenttype + id pair points at, nested
  | 'computed'; // read-only, produced by the model (counts, derived values)

/** `keep`, for a generic relation only: the row outlives its object (Django: a GenericForeignKey no model names in a GenericRelation) */
export type OnDelete = 'protect' | 'cascade' | 'set_null' | 'keep';

export interface FieldDef {
  kind: FieldKind;
  label?: string;
  /** required when creating (and on PUT) */
  required?: boolean;
  nullable?: boolean;
  readOnly?: boolean;
  /**
   * 'superuser': read-only through the API (both dialects), yet a superuser may set it from the web
   * pages (a user's is_superuser: NetBox's API cannot make superusers, its admin pages can)
   */
  pageWrite?: 'superuser';
  /**
   * a `strings` field's values to choose from on a page's form (a multiple select; values stored
   * but not offered stay choosable): a permission's object types and actions
   */
  formOptions?: (rc: RequestContext) => Array<[value: string, label: string]>;
  writeOnly?: boolean;
  /** value used on create when the field is omitted */
  default?: unknown;
  /** single-field uniqueness; ci = compared case-insensitively */
  unique?: boolean | { ci?: boolean };
  /** the uniqueness error when the model words it itself (Django's User.username) */
  uniqueMessage?: string;
  maxLength?: number;
  min?: number;
  max?: number;
  /** decimal: digits after the point */
  decimalPlaces?: number;
  pattern?: { regex: RegExp; message: string };
  choices?: ChoiceSet;
  /** choice: '' is stored (and rendered null) when the value is blank or null */
  blank?: boolean;
  /** fk, m2m: target model identity (`dcim.region`) */
  to?: string;
  onDelete?: OnDelete;
  /**
   * fk: the `<name>` filter matches descendants too (NetBox TreeNodeMultipleChoiceFilter); a
   * dialect: only in that one (a device's role and platform, trees since NetBox 4.3)
   */
  treeFilter?: boolean | Dialect;
  /** m2m: join table and its two columns */
  through?: { table: string; from: string; to: string };
  /**
   * m2m: members are written as this attribute of the target instead of ids (DRF
   * SlugRelatedField: NetBox 3.4 ConfigContext.tags is a list of tag slugs both ways), and rendered
   * as that attribute too.
   */
  slugField?: string;
  /** computed: how to read it (column already selected, or produced by the model's represent hook) */
  column?: string;
  /** contenttype: the model identities allowed (any registered model when absent) */
  types?: string[];
  /** generic: the contenttype and integer fields that hold the reference */
  generic?: { type: string; id: string };
  /** extra validation; returns an error message */
  validate?: (value: unknown) => string | undefined;
  /**
   * write-only input that only the model's hooks read and no column stores (a module's
   * `replicate_components`): parsed and defaulted like any field, dropped before the row is written
   */
  notStored?: boolean;
  /** left out of change-log snapshots (secrets such as token keys) */
  noChangelog?: boolean;
  /** excluded from generated filters */
  noFilter?: boolean;
  /** ordered naturally: digit runs compare as numbers (NetBox NaturalOrderingField) */
  natural?: boolean;
  /** excluded from ordering */
  noOrdering?: boolean;
  help?: string;
  /**
   * The rendered value's JSON Schema (OpenAPI 3.0 dialect) where the kind does not say it: computed
   * fields, and fields a represent hook renders otherwise. `{ $model: 'ipam.vrf' }` inside it stands
   * for that model's nested form (core/openapi/shapes.ts).
   */
  shape?: Shape;
  /** the shape in the brief or nested form, where it differs from `shape` there */
  shapeIn?: Partial<Record<'brief' | 'nested', Shape>>;
  /** the full form's shape in a dialect whose hook renders it otherwise (4.4's list of NAT outside addresses) */
  shapeInDialect?: Partial<Record<Dialect, Shape>>;
  /** the representation may leave the key out (a token key once retrieval is off) */
  omittable?: boolean;
  /** `?exclude=<key>` leaves it out (NetBox 3.4 honours exclude for config_context only) */
  excludable?: boolean;
  /**
   * the API dialect whose representations and documents show the field (a field NetBox 4 added,
   * such as a rack's `airflow`, is `'4.4'`); absent: every dialect. Writes and filters take it in
   * every dialect (core/model/dialect.ts).
   */
  dialect?: Dialect;
  /**
   * an integer stored in one unit and shown in a larger one by some dialect: that dialect's value
   * is the stored one divided by this (NetBox 4.1 counts a VM's disk in MB, 3.4 in GB: `{ '3.4':
   * 1000 }`), in reads, writes, filters and GraphQL (core/model/dialect.ts inUnitOf)
   */
  scaleIn?: Partial<Record<Dialect, number>>;
}

/** A JSON Schema fragment describing a rendered value (see FieldDef.shape). */
export type Shape = { readonly [key: string]: unknown };

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
  tags: boolean;
  customFields: boolean;
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
