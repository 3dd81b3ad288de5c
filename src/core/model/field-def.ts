/**
 * A model's field, declared once (FieldDef): its kind, the rules its values follow, how it is
 * filtered, shown and written in each API dialect. Part of the model declaration (types.ts).
 */
import type { ChoiceSet } from './choices.js';
import type { Dialect } from './dialect.js';
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
  /**
   * described as required (OPTIONS, the OpenAPI document) in these dialects, as NetBox describes
   * it, while the write path fills it in or checks it itself: a device's role under either name, a
   * token's user (the caller's when left out)
   */
  requiredIn?: readonly Dialect[];
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
  /**
   * a foreign key's or many-to-many's `related_name` in NetBox 4.4 (`%(class)s` stands for the
   * pointing model, as in Django): 4.4's GraphQL also offers the list of objects pointing here
   * through it under this name (an interface's `bridge_interfaces`), beside the name derived from
   * the REST path (core/graphql/relations.ts)
   */
  relatedName?: string;
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
