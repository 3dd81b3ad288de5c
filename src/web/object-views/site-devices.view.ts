/**
 * A site's page shows its devices by role: each role with its count, a link to the device list
 * filtered by the site and the role (NetBox's site page lists the related objects; this answers
 * "what is here" at a glance). Two statements: the grouped count and the roles' names.
 */
import { hasPermission } from '../../core/auth/permissions.js';
import { countsBy } from '../../core/crud/count-by.js';
import { listObjects } from '../../core/crud/read.js';
import type { Represented } from '../components/cells.js';
import { panel } from '../components/panels.js';
import { html } from '../html.js';
import { listPath } from '../navigation/menu.js';
import type { ObjectView } from './index.js';

export const SITE_VIEW: ObjectView = {
  panels: [
    {
      async render({ request, obj }) {
        const rc = request.rc;
        const devices = rc.app.registry.find('dcim.device');
        const roles = rc.app.registry.find('dcim.devicerole');
        if (!devices || !roles) return '';
        const counts = await countsBy(rc, devices, 'role', new Map([['site_id', [String(obj.id)]]]));
        if (!counts?.size) return '';
        const ids = [...counts.keys()].filter((k): k is number => k !== null);
        // a user who may not see roles gets them by number
        const named =
          ids.length && (await hasPermission(rc, roles, 'view'))
            ? ((
                await listObjects(
                  rc,
                  roles,
                  new Map([
                    ['id', ids.map(String)],
                    ['brief', ['true']],
                    ['limit', [String(ids.length)]],
                  ]),
                )
              ).results as Represented[])
            : [];
        const rows = [...counts]
          .map(([id, n]) => ({ id, n, name: named.find((r) => Number(r.id) === id)?.display as string | undefined }))
          .sort((a, b) => b.n - a.n || String(a.name).localeCompare(String(b.name)));
        const href = (id: number | null) =>
          `${listPath(devices)}?site_id=${Number(obj.id)}${id === null ? '' : `&role_id=${id}`}`;
        return panel(
          'Devices by role',
          html`<table class="attrs"><tbody>${rows.map(
            (r) =>
              html`<tr><th scope="row">${r.name ?? (r.id === null ? 'No role' : `Role ${r.id}`)}</th><td><a href="${href(r.id)}">${r.n.toLocaleString('en')}</a></td></tr>`,
          )}</tbody></table>`,
        );
      },
    },
  ],
};
