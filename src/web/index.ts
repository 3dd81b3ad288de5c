/**
 * The web interface: pages for people, made from the registry and calling core/ as the REST
 * routes do (web/README.md). Registered after the API so that API routes keep their paths.
 */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../core/context.js';
import { registerTokenPages } from './pages/api-tokens.page.js';
import { registerPasswordPage } from './pages/password.page.js';
import { registerPreferencesPage } from './pages/preferences.page.js';
import { registerBackgroundTaskPages } from './pages/background-tasks.page.js';
import { registerCableConnectPage } from './pages/cable-connect.page.js';
import { registerDashboardPage } from './dashboard/dashboard.page.js';
import { registerWidgetPages } from './dashboard/widget-pages.js';
import { registerTopologyPage } from './object-views/site-topology.view.js';
import { registerRackElevationsPage } from './pages/rack-elevations.page.js';
import { registerSearchPage } from './pages/search.page.js';
import { registerSignInPages } from './pages/sign-in.page.js';
import { registerModelPages } from './model-pages/index.js';
import { registerObjectChangePage } from './pages/object-change.page.js';
import { registerSystemPage } from './pages/system.page.js';
import { registerMarkPages } from './own/marks.page.js';
import { registerNotificationPages } from './own/notifications.page.js';
import { registerStaticAssets } from './static-assets.js';

export function registerWeb(app: FastifyInstance, ctx: AppContext): void {
  registerStaticAssets(app);
  registerSignInPages(app, ctx);
  registerDashboardPage(app, { graphiql: () => app.hasRoute({ method: 'GET', url: '/graphql/' }) });
  registerWidgetPages(app);
  registerSearchPage(app, ctx);
  registerTokenPages(app, ctx);
  registerPreferencesPage(app);
  registerPasswordPage(app, ctx);
  registerMarkPages(app, ctx);
  registerNotificationPages(app, ctx);
  registerBackgroundTaskPages(app);
  registerCableConnectPage(app, ctx);
  registerTopologyPage(app, ctx);
  registerRackElevationsPage(app, ctx);
  registerObjectChangePage(app, ctx);
  registerSystemPage(app, ctx);
  registerModelPages(app, ctx);
}
