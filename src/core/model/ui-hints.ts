/**
 * What a model's web pages show differently from the defaults (web/model-ui.ts derives them when a
 * hint is absent). Declaration data only: core reads none of it, web/ reads all of it. Names are the
 * model's representation keys, so a hint can never name a column the API does not have
 * (test/unit/ui-hints.test.ts checks every model's).
 */
export interface ModelUi {
  /**
   * list columns shown until a user chooses their own, in order (NetBox: the table's
   * Meta.default_columns). Keys are the full representation's: field keys, count keys
   * (`device_count`), `display`, `id`, `created`, `last_updated`.
   */
  columns?: string[];
  /**
   * the object page's attribute panels and the edit form's fieldsets, in order (NetBox: the model
   * form's fieldsets). Fields not named in any group follow in a last, untitled group.
   */
  groups?: UiGroup[];
  /** fields the Clone button copies into the add form (NetBox: the model's clone_fields) */
  clone?: string[];
  /**
   * an fk or m2m picker's REST filters taken from other fields of the same form: `{ rack: { site_id:
   * 'site' } }` offers only racks of the chosen site (NetBox: DynamicModelChoiceField query_params)
   */
  pickerFilters?: Record<string, Record<string, string>>;
  /**
   * the object page's related-object counts, each linking to the filtered list; absent: every model
   * with an fk to this one, by that fk's `<field>_id` filter
   */
  related?: UiRelated[];
  /** fields left off the add and edit forms although writable (set by other pages or derived) */
  formExclude?: string[];
  /**
   * the component models the list's "Add components" makes on each selected object, by identity
   * (NetBox: the device list's bulk add views, `/dcim/devices/interfaces/add/`)
   */
  components?: string[];
  /**
   * how an import names the object of an fk or m2m column when not by the target's `name` (else
   * `slug`, else its id): `{ device_type: 'model', untagged_vlan: 'vid' }`; `id` = by id only
   * (NetBox: the bulk import form's `to_field_name`)
   */
  importRefs?: Record<string, string>;
  /**
   * the object page's tabs listing related objects, each a paginated, filterable table at
   * `<object>/<slug>/` (NetBox: a device's Interfaces, Front ports... tabs). A tab with nothing to
   * list is not shown.
   */
  tabs?: UiTab[];
  /**
   * text columns shown as a link to the object another key of the row holds while it exists:
   * `{ object_repr: 'changed_object' }` (a change names its object even once it is deleted)
   */
  linkColumns?: Record<string, string>;
  /**
   * the list's UI path when it is not the REST path without `/api` (`/core/changelog/`: NetBox 4.1
   * moved the change log's pages there while its API kept `/api/extras/object-changes/`)
   */
  path?: string;
  /** earlier UI paths of the pages, answered with a permanent redirect to `path` (ids and query kept) */
  formerPaths?: string[];
  /**
   * the filter form's inputs for REST filters that are no field's (NetBox: the filter form's
   * DateTimeField and similar); field filters (choices, fks, booleans, object types) come by themselves
   */
  filters?: UiFilter[];
}

export interface UiFilter {
  /** the REST filter's name (`time_after`) */
  name: string;
  label: string;
  /**
   * `datetime`: a date and time input; `text`: free text (a request id); `objecttype`: a select of
   * the registered models by identity (`dcim.site`), as NetBox's object type choice
   */
  input: 'datetime' | 'text' | 'objecttype';
}

export interface UiTab {
  /** the tab's URL segment under the object's page (`interfaces`) */
  slug: string;
  /** the listed model's identity (`dcim.interface`) */
  model: string;
  /** the REST filter of that model's list naming this object's id (`device_id`) */
  param: string;
  /** the tab's text when not the listed model's plural name */
  label?: string;
  /** the table's columns when not the listed model's list columns (representation keys) */
  columns?: string[];
  /** a count key of this object's representation that says how many there are (`interface_count`), saving a count statement */
  countKey?: string;
  /**
   * fixed REST filters of the listed model, applied after the object's `param` and kept whatever
   * the URL says (a rack's non-racked devices: `{ position__empty: 'true' }`)
   */
  filters?: Record<string, string>;
}

export interface UiGroup {
  /** the panel's and fieldset's title; '' for an untitled group */
  title: string;
  fields: string[];
}

export interface UiRelated {
  /** the related model's identity (`dcim.rack`) */
  model: string;
  /** the REST filter of that model's list naming this object's id (`site_id`) */
  param: string;
  /** the link's text when not the related model's plural name */
  label?: string;
}
