import { adminRoutes } from './admin';
import { accountsRoutes } from './accounts/routes';
import { backupRoutes } from './api/backup';
import { binRoutes } from './api/bin';
import { commentRoutes } from './api/comments';
import { entityRoutes } from './api/entities';
import { fieldRoutes } from './api/fields';
import { integrationRoutes } from './api/integration';
import { layoutRoutes } from './api/layouts';
import { moduleRoutes } from './api/modules';
import { optionRoutes } from './api/options';
import { portalRoutes } from './api/portals';
import { recordChangeRoute } from './api/recordChange';
import { Router } from './http/router';
import type { Route } from './http/types';

/** Every route of the emulator; the comment segment comes from the configuration. */
export function buildRouter(commentSegment: string): Router<Route> {
  const router = new Router<Route>();
  const groups: Route[][] = [
    portalRoutes,
    backupRoutes,
    binRoutes,
    moduleRoutes,
    layoutRoutes,
    fieldRoutes,
    optionRoutes,
    integrationRoutes,
    entityRoutes,
    commentRoutes(commentSegment),
    accountsRoutes,
    adminRoutes,
    [recordChangeRoute],
  ];
  for (const group of groups) for (const route of group) router.add(route);
  return router;
}
