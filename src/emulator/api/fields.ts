import type { Route } from '../http/types';

export const fieldRoutes: Route[] = [];
