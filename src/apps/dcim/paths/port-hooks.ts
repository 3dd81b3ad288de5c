/**
 * Path upkeep for the pass-through ports (front and rear ports): spread into their model hooks.
 * A front port written (new, or mapped to another rear port or position) or a rear port written
 * (its positions) changes the paths through it and through the rear ports involved; a deleted
 * port drops out of every path through it.
 */
import type { ModelHooks } from '../../../core/model/types.js';
import { FRONT_PORT, nodeOf, REAR_PORT } from './nodes.js';
import { retraceAfterDelete, retracePaths } from './upkeep.js';

export const frontPortPathHooks: Pick<ModelHooks, 'afterWrite' | 'afterDelete'> = {
  async afterWrite({ rc, row, before, sent }) {
    if (before && !sent.has('rear_port') && !sent.has('rear_port_position')) return;
    const rears = new Set(
      [row.rear_port_id, before?.rear_port_id].filter((id) => id != null).map((id) => nodeOf(REAR_PORT, id)),
    );
    await retracePaths(rc, [nodeOf(FRONT_PORT, row.id), ...rears]);
  },
  afterDelete: retraceAfterDelete(FRONT_PORT),
};

export const rearPortPathHooks: Pick<ModelHooks, 'afterWrite' | 'afterDelete'> = {
  async afterWrite({ rc, row, before, sent }) {
    if (before && sent.has('positions')) await retracePaths(rc, [nodeOf(REAR_PORT, row.id)]);
  },
  afterDelete: retraceAfterDelete(REAR_PORT),
};
