import type Database from 'better-sqlite3';
import { parseNamedQueries, requireQueries } from '../store/sqlFile';
import { UserFacingError, type Handlers } from '../bridge/dispatcher';
import { mayOpenExternally } from '../security/externalUrl';
import linksSql from '../store/queries/links.sql?raw';

const queries = requireQueries(
  parseNamedQueries(linksSql, 'links.sql'),
  ['mirroredLink'] as const,
  'links.sql',
);

/**
 * Record URL fields open in the system browser, never in the app's window, and only when the URL
 * is an http(s) address without credentials that the given mirrored record really holds: a page
 * cannot use this to open an address of its choosing.
 */
export function linkHandlers(deps: {
  db: Database.Database;
  /** Resolves to false when no browser could be started (web mode on a machine without one). */
  openExternal: (url: string) => Promise<unknown> | unknown;
}): Pick<Handlers, 'app.openLink'> {
  const mirrored = deps.db.prepare(queries.mirroredLink).pluck();
  return {
    'app.openLink': async ({ portalId, recordId, url }) => {
      let origin: string;
      let href: string;
      try {
        ({ origin, href } = new URL(url));
      } catch {
        throw new UserFacingError(`"${url}" is not a web address, so it was not opened.`);
      }
      if (!mayOpenExternally(url, [origin])) {
        throw new UserFacingError(
          `Only http and https addresses without a user name or password are opened; "${url}" was not.`,
        );
      }
      if (mirrored.get(portalId, recordId, JSON.stringify(url)) !== 1) {
        throw new UserFacingError(
          `"${url}" is not a value of record ${recordId} in this portal's mirror, so PortalDesk did not open it.`,
        );
      }
      // Checked as the record holds it, opened in its standard form (as the link's href shows it).
      if ((await deps.openExternal(href)) === false) {
        throw new UserFacingError(
          `No browser could be started on this machine; open ${url} yourself.`,
        );
      }
      return { opened: true };
    },
  };
}
