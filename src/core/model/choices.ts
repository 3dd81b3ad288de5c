/** A choice set: ordered values with labels, rendered `{value, label}` (NetBox ChoiceSet). */
interface Choice {
  value: string | number;
  label: string;
}

export interface ChoiceSet {
  readonly choices: readonly Choice[];
  readonly labels: ReadonlyMap<string | number, string>;
  /** true when values are integers (RackWidth, IP family) */
  readonly numeric: boolean;
}

export function defineChoices(pairs: ReadonlyArray<readonly [string | number, string]>): ChoiceSet {
  const choices = pairs.map(([value, label]) => Object.freeze({ value, label }));
  return Object.freeze({
    choices: Object.freeze(choices),
    labels: new Map(choices.map((c) => [c.value, c.label])),
    numeric: choices.every((c) => typeof c.value === 'number'),
  });
}
