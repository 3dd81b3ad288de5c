/**
 * The `module` of the modular components (NetBox 3.4 ModularComponentModel): the installed module
 * a console, console server or power port, power outlet, interface, front or rear port came with,
 * or null. Removing the module removes them (CASCADE, each deletion logged by the collector).
 * Filters `module` / `module_id` come with the field.
 */
import type { FieldDef } from '../../core/model/types.js';
import { fk } from '../fields.js';

export const moduleLink = (): FieldDef => fk('dcim.module', { onDelete: 'cascade', relatedName: '%(class)ss' });
