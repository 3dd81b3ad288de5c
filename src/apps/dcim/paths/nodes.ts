/**
 * Path nodes: each object on a stored path is written "app.model:id" (dcim_cablepath.path holds
 * hops, each a list of nodes; `_nodes` flattens them). Path endpoints are the kinds a path starts
 * from and that point back at it with `_path_id` (NetBox 3.4 PathEndpoint).
 */
export interface Ref {
  type: string;
  id: number;
}

export const nodeOf = (type: string, id: unknown): string => `${type}:${Number(id)}`;

export function parseNode(node: string): Ref {
  const i = node.lastIndexOf(':');
  return { type: node.slice(0, i), id: Number(node.slice(i + 1)) };
}

/** the table of a model identity (the cable-termination trigger uses the same rule) */
export const tableOf = (type: string): string => type.replace('.', '_');

/** NetBox 3.4 PathEndpoint kinds: a path is traced from each of them; circuit terminations are not one */
export const PATH_ENDPOINTS: ReadonlySet<string> = new Set([
  'dcim.interface',
  'dcim.consoleport',
  'dcim.consoleserverport',
  'dcim.powerport',
  'dcim.poweroutlet',
  'dcim.powerfeed',
]);

export const FRONT_PORT = 'dcim.frontport';
export const REAR_PORT = 'dcim.rearport';
export const CIRCUIT_TERMINATION = 'circuits.circuittermination';
export const CABLE = 'dcim.cable';
export const INTERFACE = 'dcim.interface';
/** NetBox 3.4: an interface's wireless link is a link on its path, as a cable is */
export const WIRELESS_LINK = 'wireless.wirelesslink';
