/** Builders of the extras app: tags, custom fields and their choice sets, config contexts. */
import type { TestApp } from '../helpers/app.js';
import { type Json, make, named, uniq } from './make.js';

export const makeTag = (t: TestApp, extra: Json = {}) => make(t, '/api/extras/tags/', { ...named('tag'), ...extra });

/** a custom field on `content_types` (sites unless given); names are identifiers, so no dashes */
export const makeCustomField = (t: TestApp, extra: Json = {}) =>
  make(t, '/api/extras/custom-fields/', {
    name: uniq('cf').replaceAll('-', '_'),
    type: 'text',
    content_types: ['dcim.site'],
    ...extra,
  });

export const makeChoiceSet = (t: TestApp, extra: Json = {}) =>
  make(t, '/api/extras/custom-field-choice-sets/', {
    name: uniq('choices'),
    extra_choices: [
      ['a', 'A'],
      ['b', 'B'],
    ],
    ...extra,
  });

/** a config context (it matches every device until assigned to something) */
export const makeConfigContext = (t: TestApp, extra: Json = {}) =>
  make(t, '/api/extras/config-contexts/', { name: uniq('cc'), data: {}, ...extra });
