/**
 * What a queued change of a module the service no longer lists says (pure). A sync that finds a
 * module gone from the service's list (trashed there by another admin, or deleted for good: the
 * list cannot tell which) takes it out of the mirror; its changes queued here are kept and stop
 * with these words instead of being sent again and again, until the user restores the module
 * (then syncs and retries) or discards them. Used by the record replay (editCatalogCache.ts) and
 * by the configuration's (src/main/configure/settingsReplay.ts, sendModuleOp.ts).
 */

/** A module as the sync last mirrored it before finding it gone (store: modules_gone). */
export interface GoneModule {
  pluralName: string;
}

export function moduleGoneMessage(moduleId: string, gone: GoneModule | undefined): string {
  const what = gone
    ? `“${gone.pluralName}” was trashed on the service (or deleted there for good): the last sync no longer found it among the portal's modules`
    : `Module ${moduleId} is no longer in the local mirror (trashed or deleted on the service)`;
  return `${what}, so this change cannot be sent. It is kept: restore the module from the recycle bin on the service, sync, then retry it; or discard it.`;
}
