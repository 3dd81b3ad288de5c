/** represent/columns.ts: the columns a brief or nested form selects instead of `*`. */
import { describe, expect, it } from 'vitest';
import { defineModel } from '../../src/core/model/define-model.js';
import { columnsFor } from '../../src/core/represent/columns.js';
import { planRender } from '../../src/core/represent/plan.js';
import { device } from '../../src/apps/dcim/device.model.js';
import { iface } from '../../src/apps/dcim/interface.model.js';
import { region } from '../../src/apps/dcim/region.model.js';
import { site } from '../../src/apps/dcim/site.model.js';
import { prefix } from '../../src/apps/ipam/prefix.model.js';

const base = { verboseName: 'gadget', ordering: ['id'] };
const name = { kind: 'string' as const, required: true, maxLength: 10 };

describe('columnsFor', () => {
  it('selects everything for the full form', () => {
    expect(columnsFor(site, planRender(site, 'full'))).toBeNull();
  });

  it('selects the shown fields and what display reads', () => {
    expect(columnsFor(site, planRender(site, 'brief'))?.sort()).toEqual(['id', 'name', 'slug']);
    // a tree model's _depth comes from its own aggregate, its parent is not shown nested
    expect(columnsFor(region, planRender(region, 'nested'))?.sort()).toEqual(['id', 'name', 'slug']);
  });

  it('selects only id and prefix for the prefix brief form, whose hook declares what it reads', () => {
    expect(columnsFor(prefix, planRender(prefix, 'brief'))?.sort()).toEqual(['id', 'prefix']);
  });

  it('keeps * for a model whose represent hook declares nothing', () => {
    const gadget = defineModel({
      ...base,
      name: 'shop.gadget',
      path: 'gadgets',
      brief: ['name'],
      fields: { name },
      hooks: { represent: async () => undefined },
    });
    expect(columnsFor(gadget, planRender(gadget, 'brief'))).toBeNull();
  });

  it('selects what a hook declares it reads, and no column for the keys the hook adds', () => {
    // display_name is added by the device's hook; the display reads name and asset_tag
    expect(columnsFor(device, planRender(device, 'brief'))?.sort()).toEqual(['asset_tag', 'id', 'name']);
    // connection_status is added by the interface's hook, from the cable; the label goes into the display
    expect(columnsFor(iface, planRender(iface, 'nested'))?.sort()).toEqual([
      'cable_id',
      'device_id',
      'id',
      'label',
      'mark_connected',
      'name',
      'wireless_link_id',
    ]);
  });

  it('traces both sides of a conditional display', () => {
    const gadget = defineModel({
      ...base,
      name: 'shop.gadget',
      path: 'gadgets',
      brief: ['name'],
      fields: { name, label: { ...name, required: false }, serial: { ...name, required: false } },
      display: (row) => (row.label ? `${String(row.label)} (${String(row.serial)})` : String(row.name)),
    });
    expect(columnsFor(gadget, planRender(gadget, 'brief'))?.sort()).toEqual(['id', 'label', 'name', 'serial']);
  });

  it('keeps * when display reads a name that is not a declared column, or enumerates the row', () => {
    const reading = defineModel({
      ...base,
      name: 'shop.a',
      path: 'a',
      brief: ['name'],
      fields: { name },
      display: (row) => String(row.elsewhere),
    });
    const enumerating = defineModel({
      ...base,
      name: 'shop.b',
      path: 'b',
      brief: ['name'],
      fields: { name },
      display: (row) => Object.keys(row).join(),
    });
    const throwing = defineModel({
      ...base,
      name: 'shop.c',
      path: 'c',
      brief: ['name'],
      fields: { name },
      display: (row) => (row.name as string).toUpperCase(),
    });
    expect(columnsFor(reading, planRender(reading, 'brief'))).toBeNull();
    expect(columnsFor(enumerating, planRender(enumerating, 'brief'))).toBeNull();
    expect(columnsFor(throwing, planRender(throwing, 'brief'))).toBeNull();
  });
});
