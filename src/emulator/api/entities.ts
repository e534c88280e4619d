import type { Route } from '../http/types';

export const entityRoutes: Route[] = [];
