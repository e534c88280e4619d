import type { Route } from '../http/types';

export const portalRoutes: Route[] = [];
