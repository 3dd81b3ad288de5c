/**
 * The import page of device types and module types also takes the community device-type library's
 * documents (NetBox 4.4 imports these types from YAML with their component lists): a JSON or YAML
 * import whose records hold a component list (`interfaces`, `console-ports`, ...) goes through
 * apps/dcim/type-library as one transaction, a dry run rolled back, and its errors come back per
 * document under the key that failed (`interfaces[3].type`).
 */
import type { RequestContext } from '../../core/context.js';
import type { ModelDef } from '../../core/model/types.js';
import { importTypeLibrary, isTypeLibraryModel } from '../../apps/dcim/type-library/import-types.js';
import { listsOf } from '../../apps/dcim/type-library/library-keys.js';
import type { ImportResult } from './run-import.js';

interface Parsed {
  numbering: ImportResult['numbering'];
  records: Array<{ row: number; values: Record<string, unknown> }>;
}

/** whether these records are library documents: a type model's, not CSV, one holding a component list */
export function isLibraryImport(model: ModelDef, parsed: Parsed): boolean {
  if (!isTypeLibraryModel(model) || parsed.numbering === 'row') return false;
  const keys = listsOf(model.name).map((l) => l.key);
  return parsed.records.some((r) => keys.some((k) => k in r.values));
}

export async function runLibraryImport(
  rc: RequestContext,
  model: ModelDef,
  parsed: Parsed,
  apply: boolean,
): Promise<ImportResult> {
  const docs = parsed.records.map((r) => r.values);
  const { rows, errors } = await importTypeLibrary(rc, model, docs, { dryRun: !apply });
  const outcomes: ImportResult['outcomes'] = parsed.records.map((r) => ({
    row: r.row,
    action: 'create',
    errors: new Map(),
  }));
  for (const [key, messages] of Object.entries(errors)) {
    // `[1].front-ports[0].rear_port` in a list of documents; `interfaces[3].type` in one
    const m = docs.length > 1 ? /^\[(\d+)\]\.?(.*)$/.exec(key) : null;
    const outcome = outcomes[m ? Number(m[1]) : 0]!;
    const column = (m ? m[2] : key) || '__all__';
    outcome.errors.set(column, [...(outcome.errors.get(column) ?? []), ...messages]);
    outcome.action = 'fail';
  }
  const written = apply && !Object.keys(errors).length;
  return {
    numbering: parsed.numbering,
    outcomes,
    written,
    created: written ? rows.map((r) => Number(r.id)) : [],
    updated: [],
  };
}
