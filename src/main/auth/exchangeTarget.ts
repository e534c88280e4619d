/**
 * Where a code is exchanged: "take location and accounts-server from the redirect and exchange
 * the code there". The redirect is only as trustworthy as the browser's address bar, so an
 * accounts server the profile does not list is refused: the client secret is never sent to an
 * address the redirect made up. Pure.
 */
import type { ServiceProfile } from '@portaldesk/portal-api/serviceProfile';

export type ExchangeTarget =
  { ok: true; dataCenter: string; accountsUrl: string } | { ok: false; error: string };

const trimSlash = (text: string) => text.replace(/\/+$/, '');

export function exchangeTarget(
  profile: ServiceProfile,
  answer: { location: string | null; accountsServer: string | null },
  requestedDc: string,
): ExchangeTarget {
  const known = Object.entries(profile.dataCenters).filter(
    (entry): entry is [string, (typeof entry)[1] & { accounts: string }] =>
      entry[1].accounts !== undefined,
  );
  const location = answer.location?.toLowerCase() ?? null;
  if (answer.accountsServer !== null) {
    const server = trimSlash(answer.accountsServer);
    const matches = known.filter(([, addresses]) => addresses.accounts === server);
    const match = matches.find(([dc]) => dc === location) ?? matches[0];
    if (!match) {
      return {
        ok: false,
        error: `The sign-in came back naming the accounts server ${server}, which the service profile "${profile.name}" does not list; the code was not sent there and nothing was stored. If your account lives in a data center the profile lacks, add it to the profile and sign in again.`,
      };
    }
    return { ok: true, dataCenter: match[0], accountsUrl: match[1].accounts };
  }
  const dc = location ?? requestedDc;
  const addresses = Object.hasOwn(profile.dataCenters, dc) ? profile.dataCenters[dc] : undefined;
  if (!addresses?.accounts) {
    return {
      ok: false,
      error: `The sign-in came back for data center "${dc}", which the service profile "${profile.name}" does not list with an accounts server; nothing was stored. Add that data center to the profile and sign in again.`,
    };
  }
  return { ok: true, dataCenter: dc, accountsUrl: addresses.accounts };
}
