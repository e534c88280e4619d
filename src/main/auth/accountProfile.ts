/**
 * The profile an account's API client uses: "use api_domain from the token response for every
 * API call". When the service names another API address than the profile has for the data
 * center, the account gets a copy of the profile with that address. Pure.
 */
import { ServiceProfile } from '@portaldesk/portal-api/serviceProfile';

export function accountProfile(
  profile: ServiceProfile,
  dataCenter: string,
  apiDomain: string | null,
): ServiceProfile {
  const addresses = Object.hasOwn(profile.dataCenters, dataCenter)
    ? profile.dataCenters[dataCenter]
    : undefined;
  if (apiDomain === null && addresses) return profile;
  const api = apiDomain?.replace(/\/+$/, '') ?? addresses?.api;
  if (api === undefined) {
    throw new Error(
      `The service profile "${profile.name}" has no API address for data center "${dataCenter}", and the sign-in named none.`,
    );
  }
  if (addresses?.api === api) return profile;
  return ServiceProfile.parse({
    ...profile,
    dataCenters: { ...profile.dataCenters, [dataCenter]: { ...addresses, api } },
  });
}
