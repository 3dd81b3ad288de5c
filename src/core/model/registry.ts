/**
 * The registry of declared models, frozen once the app has started. core/ finds models here by
 * identity (`dcim.site`) or by URL (`dcim`, `sites`); it never imports apps/ by name.
 */
import { genericTargets } from './define-model.js';
import type { ModelDef } from './types.js';

export class Registry {
  private readonly byName = new Map<string, ModelDef>();
  private readonly apps = new Map<string, ModelDef[]>();
  /** models served under an app besides its own (ModelDef.alsoAt) */
  private readonly mounted = new Map<string, ModelDef[]>();
  private frozen = false;

  register(...models: ModelDef[]): void {
    if (this.frozen) throw new Error('registry is frozen');
    for (const m of models) {
      if (this.byName.has(m.name)) throw new Error(`model ${m.name} registered twice`);
      this.byName.set(m.name, m);
      const list = this.apps.get(m.app) ?? [];
      list.push(m);
      this.apps.set(m.app, list);
      for (const other of m.alsoAt ?? []) this.mounted.set(other, [...(this.mounted.get(other) ?? []), m]);
    }
  }

  /** Checks references between models and freezes the registry. */
  freeze(): this {
    for (const m of this.byName.values()) {
      for (const [key, f] of Object.entries(m.fields)) {
        if (f.to && !this.byName.has(f.to)) throw new Error(`${m.name}.${key} points at unknown model ${f.to}`);
      }
      for (const [key, c] of Object.entries(m.counts)) {
        if (c.model && !this.byName.has(c.model)) throw new Error(`${m.name}.${key} counts unknown model ${c.model}`);
        if (c.generic && this.byName.get(c.model!)?.fields[c.generic]?.kind !== 'generic')
          throw new Error(`${m.name}.${key}: ${c.model}.${c.generic} is not a generic relation`);
      }
    }
    this.frozen = true;
    return this;
  }

  get(name: string): ModelDef {
    const m = this.byName.get(name);
    if (!m) throw new Error(`unknown model ${name}`);
    return m;
  }

  find(name: string): ModelDef | undefined {
    return this.byName.get(name);
  }

  all(): ModelDef[] {
    return [...this.byName.values()];
  }

  /** the models an app declares */
  appModels(app: string): ModelDef[] {
    return this.apps.get(app) ?? [];
  }

  /** the models served under `/api/<app>/`: its own and those mounted there too (ModelDef.alsoAt) */
  servedAt(app: string): ModelDef[] {
    const extra = this.mounted.get(app);
    return extra ? [...this.appModels(app), ...extra] : this.appModels(app);
  }

  /** the apps whose API serves a model: its own first */
  static appsOf(model: ModelDef): string[] {
    return [model.app, ...(model.alsoAt ?? [])];
  }

  /** Generic relations that may point at `target`: [model, generic field key]. */
  genericReferencesTo(target: string): Array<[ModelDef, string]> {
    const out: Array<[ModelDef, string]> = [];
    for (const m of this.byName.values()) {
      for (const [key, f] of Object.entries(m.fields)) {
        if (f.kind !== 'generic') continue;
        const types = genericTargets(m, f);
        if (!types || types.includes(target)) out.push([m, key]);
      }
    }
    return out;
  }

  /** Models whose fk or m2m fields point at `target`: [model, field key]. */
  referencesTo(target: string): Array<[ModelDef, string]> {
    const out: Array<[ModelDef, string]> = [];
    for (const m of this.byName.values()) {
      for (const [key, f] of Object.entries(m.fields)) {
        if ((f.kind === 'fk' || f.kind === 'm2m') && f.to === target) out.push([m, key]);
      }
    }
    return out;
  }
}
