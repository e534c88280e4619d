import type { Route } from '../http/types';

export const layoutRoutes: Route[] = [];
