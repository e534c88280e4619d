/**
 * The accounts area: sign-in (the browser flow, a Self Client code, the embedded demo), the
 * accounts side by side with one active, and sign-out. No secret ever travels to the renderer:
 * client secrets go from the form to the engine (and on to the OS keychain), never back.
 * contract.ts composes these with every other area's.
 */
import { z } from 'zod';
import { NoArgs, request } from '../contractSpec';
import { boundedRecord } from '@portaldesk/portal-api/json/boundedRecord';
import {
  DataCenterKey,
  MAX_DATA_CENTERS,
  ServiceProfile,
} from '@portaldesk/portal-api/serviceProfile';

const AccountId = z.string().min(1).max(200);
const ProfileId = z.string().min(1).max(64);
const ClientId = z.string().trim().min(1, 'enter the client id').max(200);
const ClientSecret = z.string().trim().min(1, 'enter the client secret').max(500);
const PortalId = z.string().regex(/^\d{1,20}$/, 'a portal id (digits)');
/** Records created offline carry the outbox's temporary ids (the engine refuses those in words). */
const RecordId = z.string().regex(/^[A-Za-z0-9_:-]{1,64}$/, 'a record id');
/** As typed: comma-separated; the engine checks each ("Enter a valid scope"). */
const ScopesText = z.string().max(2000);

/** What the account page shows about the account's tokens (never a token). */
export const TokenStatus = z.object({
  /** Epoch ms the access token held in memory expires; null when none is held. */
  validUntil: z.number().nullable(),
  /** Access tokens asked for from this refresh token in the last 10 minutes. */
  refreshesInWindow: z.number().int().nonnegative(),
  /** "max 10 access tokens from one refresh token per 10 minutes". */
  refreshLimit: z.number().int().positive(),
  /** While the next refresh waits for the window to allow it: when it will go. */
  waitingUntil: z.number().nullable(),
});
export type TokenStatus = z.infer<typeof TokenStatus>;

export const AccountPortal = z.object({
  portalId: z.string(),
  name: z.string(),
  isDefault: z.boolean(),
});

export const AccountSummary = z.object({
  accountId: z.string(),
  /** The default portal's name, else the first portal's, else profile and data center. */
  label: z.string(),
  profileId: z.string(),
  profileName: z.string(),
  kind: z.enum(['browser', 'self_client', 'demo']),
  dataCenter: z.string(),
  dataCenterLabel: z.string(),
  /** Where every API call of this account goes (the token response's api_domain). */
  apiDomain: z.string(),
  accountsUrl: z.string(),
  clientId: z.string(),
  redirectUri: z.string().nullable(),
  scopes: z.array(z.string()),
  portals: z.array(AccountPortal),
  /** `signed_out`: its refresh token is gone or refused; local data and edits are kept. */
  status: z.enum(['signed_in', 'signed_out']),
  /** Why it is signed out, or a problem to know about, in words for the user. */
  statusMessage: z.string().nullable(),
  active: z.boolean(),
  /** Null when signed out, or while the demo portal is still starting. */
  tokens: TokenStatus.nullable(),
});
export type AccountSummary = z.infer<typeof AccountSummary>;

export const PendingSignIn = z.object({
  profileName: z.string(),
  dataCenter: z.string(),
  /**
   * The accounts page the browser was sent to, to open it again or copy it. It holds the
   * sign-in's state: shown to this window only, never put on a command line (auth/signInPage.ts).
   */
  authUrl: z.string().nullable(),
  /** Epoch ms the loopback listener gives up. */
  deadline: z.number().nullable(),
});
export type PendingSignIn = z.infer<typeof PendingSignIn>;

export const AccountsState = z.object({
  accounts: z.array(AccountSummary),
  activeAccountId: z.string().nullable(),
  /** The sign-in waiting for the browser, if any (one at a time). */
  pendingSignIn: PendingSignIn.nullable(),
});
export type AccountsState = z.infer<typeof AccountsState>;

export const ProfileSummary = z.object({
  id: z.string(),
  name: z.string(),
  isDemo: z.boolean(),
  multiDc: z.boolean(),
  dataCenters: z.array(z.object({ key: z.string(), label: z.string(), hasAccounts: z.boolean() })),
  /** Sensible defaults for the scope box: what reading needs, and reading and writing. */
  defaultScopes: z.object({ read: z.array(z.string()), write: z.array(z.string()) }),
  /** A redirect URI that works for this profile's usual client, or null. */
  suggestedRedirectUri: z.string().nullable(),
});
export type ProfileSummary = z.infer<typeof ProfileSummary>;

export const SignInArgs = z
  .object({
    profileId: ProfileId,
    dataCenter: DataCenterKey,
    clientId: ClientId,
    /** The secret of the picked data center (or the only one). */
    clientSecret: ClientSecret,
    /** Multi-DC: each other data center's own secret, by key. */
    otherSecrets: boundedRecord(
      DataCenterKey,
      ClientSecret,
      MAX_DATA_CENTERS,
      `at most ${MAX_DATA_CENTERS} data centers`,
    ).optional(),
    redirectUri: z.string().trim().min(1, 'enter the redirect URI').max(500),
    scopes: ScopesText,
  })
  .strict();
export type SignInArgs = z.infer<typeof SignInArgs>;

export const SelfClientArgs = z
  .object({
    profileId: ProfileId,
    dataCenter: DataCenterKey,
    /** Left out for the demo portal, whose client the engine knows. */
    clientId: ClientId.optional(),
    clientSecret: ClientSecret.optional(),
    code: z.string().trim().min(1, 'paste the grant code').max(500),
    /** The scopes the code was generated with, checked before anything is sent. */
    scopes: ScopesText,
  })
  .strict();
export type SelfClientArgs = z.infer<typeof SelfClientArgs>;

const AccountRef = z.object({ accountId: AccountId }).strict();

/** "Change this record on the server" (demo portal only): what was changed, by whom, what next. */
export const DemoChangeResult = z.object({
  /** In words: who changed which fields, and how to see the conflict. */
  message: z.string(),
  fields: z.array(z.enum(['name', 'description'])),
  /** The demo member who made the change. */
  changedBy: z.string(),
});
export type DemoChangeResult = z.infer<typeof DemoChangeResult>;

export const accountsRequests = {
  'accounts.list': request(
    NoArgs,
    AccountsState,
    'Every account, the active one, a pending sign-in.',
  ),
  'accounts.profiles': request(
    NoArgs,
    z.array(ProfileSummary),
    'Service profiles to sign in to: the demo portal and those added.',
  ),
  'accounts.addProfile': request(
    z.object({ profile: ServiceProfile }).strict(),
    z.array(ProfileSummary),
    'Add or replace a service profile (addresses per data center, scope prefixes).',
  ),
  'accounts.signIn': request(
    SignInArgs,
    AccountSummary,
    'Sign in through the system browser; resolves when the sign-in is complete.',
  ),
  'accounts.signInDemo': request(
    NoArgs,
    AccountSummary,
    'Start the embedded demo portal and sign in to it through the same flow.',
  ),
  'accounts.signInAgain': request(
    AccountRef,
    AccountSummary,
    'Sign a signed-out account in again with its stored registration.',
  ),
  'accounts.cancelSignIn': request(
    NoArgs,
    z.object({ cancelled: z.boolean() }),
    'Stop the sign-in waiting for the browser.',
  ),
  'accounts.selfClient': request(
    SelfClientArgs,
    AccountSummary,
    'Exchange a Self Client grant code pasted from the developer console.',
  ),
  'accounts.demoSelfClientCode': request(
    z.object({ scopes: ScopesText }).strict(),
    z.object({ code: z.string(), expiresInSec: z.number() }),
    "The demo portal's developer console: a Self Client code for these scopes.",
  ),
  'accounts.demoChangeRecord': request(
    z.object({ portalId: PortalId, recordId: RecordId }).strict(),
    DemoChangeResult,
    'The demo portal only: change a record on the demo service as another member would, to try a conflict.',
  ),
  'accounts.signOut': request(
    z.object({ accountId: AccountId, deleteLocalData: z.boolean() }).strict(),
    z.object({ state: AccountsState, message: z.string() }),
    'Revoke the refresh token, remove keychain entries; keep or delete local data.',
  ),
  'accounts.setActive': request(AccountRef, AccountsState, 'Make an account the active one.'),
} as const;

export const accountsEvents = {
  /** After any change of accounts, the active one, a pending sign-in or a token's status. */
  'accounts.changed': AccountsState,
} as const;
