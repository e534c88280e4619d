import type { Route } from '../http/types';

export const accountsRoutes: Route[] = [];
