/** Choice sets of fields NetBox 4.2 added to circuits (shown in the 4.4 dialect only). */
import { defineChoices } from '../../core/model/choices.js';

/** NetBox 4.2: the unit of a circuit's distance */
export const DistanceUnit = defineChoices([
  ['km', 'Kilometers'],
  ['m', 'Meters'],
  ['mi', 'Miles'],
  ['ft', 'Feet'],
]);
