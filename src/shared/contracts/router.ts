/** The router area's requests and pushed events; contract.ts composes every area's. */

export const routerRequests = {} as const;

export const routerEvents = {} as const;
