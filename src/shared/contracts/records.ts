/** The records area's requests and pushed events; contract.ts composes every area's. */

export const recordsRequests = {} as const;

export const recordsEvents = {} as const;
