import type { Route } from '../http/types';

export const integrationRoutes: Route[] = [];
