/**
 * The elevation's query parameters, read as NetBox 3.4's RackElevationDetailFilterSerializer does
 * (dcim/api/serializers.py): a bad value is a 400 keyed by the parameter, in DRF's words.
 */
import { Errors } from '../../../core/errors.js';

export type Face = 'front' | 'rear';

export interface ElevationParams {
  q: string | null;
  face: Face;
  render: 'json' | 'svg';
  unitWidth: number;
  unitHeight: number;
  legendWidth: number;
  marginWidth: number;
  exclude: number | null;
  expandDevices: boolean;
  includeImages: boolean;
}

// NetBox 3.4: RACK_ELEVATION_DEFAULT_UNIT_WIDTH/HEIGHT (config parameters, 220 and 22) and
// dcim/constants.py RACK_ELEVATION_DEFAULT_LEGEND_WIDTH / _MARGIN_WIDTH (30 and 15)
export const DEFAULTS = { unitWidth: 220, unitHeight: 22, legendWidth: 30, marginWidth: 15 } as const;
// not in NetBox (a DRF IntegerField without bounds); a drawing a million pixels wide helps nobody
const MAX_PIXELS = 10_000;

const TRUE = new Set(['true', 'True', '1', 'yes', 'on', 't', 'y']);
const FALSE = new Set(['false', 'False', '0', 'no', 'off', 'f', 'n']);

type Params = Map<string, string[]>;
type Errs = Record<string, string[]>;

/**
 * DRF reads the last value of a repeated query parameter (QueryDict.get), and an empty value of an
 * optional field as absent (Field.get_value), so it takes the default.
 */
function last(params: Params, key: string): string | undefined {
  const v = params.get(key)?.at(-1);
  return v === '' ? undefined : v;
}

function choice<T extends string>(params: Params, key: string, allowed: readonly T[], fallback: T, errors: Errs): T {
  const v = last(params, key);
  if (v === undefined) return fallback;
  if ((allowed as readonly string[]).includes(v)) return v as T;
  errors[key] = [`"${v}" is not a valid choice.`];
  return fallback;
}

function integer(
  params: Params,
  key: string,
  fallback: number | null,
  errors: Errs,
  bounds?: { min: number; max: number },
): number | null {
  const raw = last(params, key);
  if (raw === undefined) return fallback;
  const s = raw.trim();
  // DRF IntegerField: digits with an optional sign, or a float string with a zero fraction ("5.0")
  if (!/^[-+]?\d+(\.0*)?$/.test(s) || !Number.isSafeInteger(Math.trunc(Number(s)))) {
    errors[key] = ['A valid integer is required.'];
    return fallback;
  }
  const n = Math.trunc(Number(s));
  if (bounds && n < bounds.min) errors[key] = [`Ensure this value is greater than or equal to ${bounds.min}.`];
  else if (bounds && n > bounds.max) errors[key] = [`Ensure this value is less than or equal to ${bounds.max}.`];
  return n;
}

function boolean(params: Params, key: string, fallback: boolean, errors: Errs): boolean {
  const v = last(params, key);
  if (v === undefined) return fallback;
  if (TRUE.has(v)) return true;
  if (FALSE.has(v)) return false;
  errors[key] = ['Must be a valid boolean.'];
  return fallback;
}

/** Reads and checks every parameter; throws one 400 naming all the bad ones. */
export function parseElevationParams(params: Params): ElevationParams {
  const errors: Errs = {};
  // NetBox 3.4: 0 (like absent) means the default size (RackElevationSVG uses `x or default`)
  const px = (key: string, fallback: number) =>
    integer(params, key, fallback, errors, { min: 0, max: MAX_PIXELS }) || fallback;
  const out: ElevationParams = {
    q: last(params, 'q') ?? null,
    face: choice(params, 'face', ['front', 'rear'] as const, 'front', errors),
    render: choice(params, 'render', ['json', 'svg'] as const, 'json', errors),
    unitWidth: px('unit_width', DEFAULTS.unitWidth),
    unitHeight: px('unit_height', DEFAULTS.unitHeight),
    legendWidth: px('legend_width', DEFAULTS.legendWidth),
    marginWidth: px('margin_width', DEFAULTS.marginWidth),
    exclude: integer(params, 'exclude', null, errors),
    expandDevices: boolean(params, 'expand_devices', true, errors),
    includeImages: boolean(params, 'include_images', true, errors),
  };
  if (Object.keys(errors).length) throw Errors.validation(errors);
  return out;
}
