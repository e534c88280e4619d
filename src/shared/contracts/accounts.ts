/** The accounts area's requests and pushed events; contract.ts composes every area's. */

export const accountsRequests = {} as const;

export const accountsEvents = {} as const;
