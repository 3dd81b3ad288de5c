/**
 * Which object types may face each other across a cable (NetBox 3.4 COMPATIBLE_TERMINATION_TYPES,
 * dcim/constants.py), keyed by model name as NetBox's error names them.
 */
const COMPATIBLE: Record<string, readonly string[]> = {
  circuittermination: ['interface', 'frontport', 'rearport', 'circuittermination'],
  consoleport: ['consoleserverport', 'frontport', 'rearport'],
  consoleserverport: ['consoleport', 'frontport', 'rearport'],
  interface: ['interface', 'circuittermination', 'frontport', 'rearport'],
  frontport: ['consoleport', 'consoleserverport', 'interface', 'frontport', 'rearport', 'circuittermination'],
  powerfeed: ['powerport'],
  poweroutlet: ['powerport'],
  powerport: ['poweroutlet', 'powerfeed'],
  rearport: ['consoleport', 'consoleserverport', 'interface', 'frontport', 'rearport', 'circuittermination'],
};

const modelName = (type: string) => type.slice(type.indexOf('.') + 1);

/** NetBox 3.4 Cable.clean(): the error for two end types that cannot meet, else undefined */
export function incompatibility(aType: string, bType: string): string | undefined {
  const a = modelName(aType);
  const b = modelName(bType);
  return COMPATIBLE[a]?.includes(b) ? undefined : `Incompatible termination types: ${a} and ${b}`;
}

const identity = (m: string) => (m === 'circuittermination' ? `circuits.${m}` : `dcim.${m}`);

/** the identities of every type a cable may end on */
export const CABLE_END_TYPES: readonly string[] = Object.keys(COMPATIBLE).map(identity);

/** the identities of the types that may face `type` across a cable (`dcim.interface` -> dcim.interface, circuits.circuittermination...) */
export function compatibleTypes(type: string): string[] {
  return (COMPATIBLE[modelName(type)] ?? []).map(identity);
}
