import type { Route } from '../http/types';

export const optionRoutes: Route[] = [];
