/** Types of evaluate-conditions.mjs. */
export function valueAt(data: unknown, path: string): unknown;
export function evaluateConditions(ruleset: unknown, data: unknown): boolean;
