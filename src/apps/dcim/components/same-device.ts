/** Checks that a component points at another component of its own device (NetBox clean() rules). */
import type { Row } from '../../../core/model/types.js';

/** the device of a stored or written component, whichever the write gives */
export const deviceIdOf = (data: Row, before: Row | null | undefined) => Number(data.device_id ?? before?.device_id);
