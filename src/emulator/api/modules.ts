import type { Route } from '../http/types';

export const moduleRoutes: Route[] = [];
