/** Values of fields NetBox 4.1 added to core models (shown in the 4.4 dialect only). */

/**
 * NetBox 4.1: how often a data source syncs, in minutes. NetBox shows the bare number (its
 * serializer declares no choice field for it), so it is an integer limited to these values.
 */
export const SYNC_INTERVALS: readonly number[] = [1, 60, 720, 1440, 10080, 43200];
