import type { Route } from '../http/types';

export const binRoutes: Route[] = [];
