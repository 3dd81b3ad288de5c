/**
 * A utilisation meter (a prefix's, an aggregate's, an IP range's): `role="meter"` with its value
 * and a label for assistive technology, the percentage always written out (never colour alone),
 * and a bar drawn in SVG whose width is a presentation attribute (the strict CSP forbids style
 * attributes; web/UI.md). The tones come from the stylesheet (`.meter-ok` ...), light and dark.
 * NetBox's utilisation graph turns amber at 75 % and red at 90 % (its default thresholds).
 */
import { html, type Html } from '../html.js';

const WARN_AT = 75;
const BAD_AT = 90;

/** a percentage as NetBox prints it: whole numbers plain, others to one decimal, never 100 before it is full */
function percentText(pct: number): string {
  const rounded = Math.floor(pct * 10) / 10;
  return `${Number.isInteger(rounded) ? rounded : rounded.toFixed(1)}%`;
}

/** `percent` of 0-100; `label` names what is measured ("Utilisation of 10.0.0.0/24") */
export function utilisationMeter(percent: number, label: string): Html {
  const pct = Number.isFinite(percent) ? Math.min(100, Math.max(0, percent)) : 0;
  const tone = pct >= BAD_AT ? 'bad' : pct >= WARN_AT ? 'warn' : 'ok';
  const text = percentText(pct);
  const width = Math.round(pct * 10) / 10;
  return html`<span class="meter meter-${tone}" role="meter" aria-label="${label}" aria-valuemin="0" aria-valuemax="100" aria-valuenow="${width}" aria-valuetext="${text}"><svg class="meter-bar" viewBox="0 0 100 8" preserveAspectRatio="none" aria-hidden="true" focusable="false"><rect class="meter-track" width="100" height="8" rx="2"/><rect class="meter-fill" width="${width}" height="8" rx="2"/></svg><span class="meter-text">${text}</span></span>`;
}
