/** Checks that a component points at another component of its own device (NetBox clean() rules). */
import type { Row } from '../../../core/represent/load-related.js';

/** the display of a component row as NetBox's str() gives it: its name */
export const componentName = (row: Row) => String(row.name);

/** the device of a stored or written component, whichever the write gives */
export const deviceIdOf = (data: Row, before: Row | null | undefined) => Number(data.device_id ?? before?.device_id);
