import type { Route } from '../http/types';

export const backupRoutes: Route[] = [];
