/** The sync area's requests and pushed events; contract.ts composes every area's. */

export const syncRequests = {} as const;

export const syncEvents = {} as const;
