/**
 * GraphQL names, derived from the declarations as NetBox 3.4 (graphene) names them: a model's
 * object type is its component name plus `Type` (`IPAddressType`, and `DeviceTypeType` for device
 * types), its fields are the snake_case component name (`ip_address`, `ip_address_list`,
 * `vm_interface_list`), and a relation seen from the other side takes the REST path of the
 * pointing model (`site { devices }`, `interface { ip_addresses }`).
 */
import type { ModelDef } from '../model/types.js';
import { componentName } from '../openapi/shapes.js';

/** `IPAddress` -> `ip_address`, `VLANGroup` -> `vlan_group`, `L2VPN` -> `l2vpn` */
export function snakeName(model: ModelDef): string {
  return componentName(model)
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .replace(/([a-z])([A-Z])/g, '$1_$2')
    .toLowerCase();
}

export function typeName(model: ModelDef): string {
  return `${componentName(model)}Type`;
}

/** the input type of the NetBox 4 style `filters: {...}` argument */
export function filterTypeName(model: ModelDef): string {
  return `${componentName(model)}Filter`;
}

/** `ip-addresses` -> `ip_addresses`: the REST path is the plural written out in the declaration */
export function pluralName(model: ModelDef): string {
  return model.path.replace(/-/g, '_');
}

/** the union type of a generic relation: `IPAddressAssignedObjectType` */
export function unionName(model: ModelDef, key: string): string {
  const pascal = key
    .split('_')
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('');
  return `${componentName(model)}${pascal}Type`;
}
