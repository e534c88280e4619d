/**
 * Accounts, their portals and the profiles the user added, in SQLite (queries/accounts.sql).
 * Nothing secret: the refresh token and the client secret are in the keychain, named by the
 * account id.
 */
import type Database from 'better-sqlite3';
import { ServiceProfile } from '@portaldesk/portal-api/serviceProfile';
import { parseNamedQueries, requireQueries } from '../store/sqlFile';
import accountsSql from './queries/accounts.sql?raw';
import { namedStatements } from '../store/namedStatements';

const queries = requireQueries(
  parseNamedQueries(accountsSql, 'accounts.sql'),
  [
    'allAccounts',
    'insertAccount',
    'updateSignIn',
    'markSignedOut',
    'deleteAccount',
    'clearActive',
    'setActive',
    'portalsOf',
    'deletePortalsOf',
    'insertPortal',
    'allProfiles',
    'upsertProfile',
  ] as const,
  'accounts.sql',
);

export type AccountKind = 'browser' | 'self_client' | 'demo';

export interface AccountPortal {
  portalId: string;
  name: string;
  isDefault: boolean;
}

/** Who an account is and where it signs in: what a sign-in writes and every account has. */
interface AccountRegistration {
  id: string;
  profileId: string;
  dc: string;
  apiDomain: string;
  accountsUrl: string;
  clientId: string;
  redirectUri: string | null;
  kind: AccountKind;
  scopes: string[];
  label: string;
  portals: AccountPortal[];
}

export interface AccountRecord extends AccountRegistration {
  status: 'signed_in' | 'signed_out';
  statusMessage: string | null;
  refreshTokenId: string | null;
  active: boolean;
  createdAt: string;
  updatedAt: string;
}

/** What a sign-in writes: the account's registration, its grant and its portals. */
export interface SignInRecord extends AccountRegistration {
  refreshTokenId: string;
}

interface AccountRow extends Omit<AccountRecord, 'scopes' | 'active' | 'portals'> {
  scopes: string;
  active: number;
}

export class AccountRepository {
  private readonly statement: (name: keyof typeof queries) => Database.Statement;

  constructor(
    private readonly db: Database.Database,
    private readonly now: () => string = () => new Date().toISOString(),
  ) {
    this.statement = namedStatements(db, queries);
  }

  all(): AccountRecord[] {
    const rows = this.statement('allAccounts').all() as AccountRow[];
    return rows.map((row) => ({
      ...row,
      scopes: JSON.parse(row.scopes) as string[],
      active: row.active === 1,
      portals: (
        this.statement('portalsOf').all({ accountId: row.id }) as {
          portalId: string;
          name: string;
          isDefault: number;
        }[]
      ).map((portal) => ({ ...portal, isDefault: portal.isDefault === 1 })),
    }));
  }

  get(id: string): AccountRecord | undefined {
    return this.all().find((account) => account.id === id);
  }

  /** Inserts a new account or replaces an existing one's grant, portals included, at once. */
  saveSignIn(record: SignInRecord): void {
    const params = {
      ...record,
      scopes: JSON.stringify(record.scopes),
      now: this.now(),
    };
    delete (params as Partial<typeof params>).portals;
    this.db
      .transaction(() => {
        const updated = this.statement('updateSignIn').run(params);
        if (updated.changes === 0) this.statement('insertAccount').run(params);
        this.statement('deletePortalsOf').run({ accountId: record.id });
        record.portals.forEach((portal, position) =>
          this.statement('insertPortal').run({
            accountId: record.id,
            portalId: portal.portalId,
            name: portal.name,
            isDefault: portal.isDefault ? 1 : 0,
            position,
          }),
        );
      })
      .immediate();
  }

  markSignedOut(id: string, message: string): void {
    this.statement('markSignedOut').run({ id, message, now: this.now() });
  }

  /** Forgets the account; with `withMirror` also every portal the mirror holds for it. */
  /** Deletes the account; `forgetMirror` deletes what is mirrored for it in the same transaction. */
  delete(id: string, forgetMirror?: () => void): void {
    this.db
      .transaction(() => {
        forgetMirror?.();
        this.statement('deleteAccount').run({ id });
      })
      .immediate();
  }

  setActive(id: string | null): void {
    this.db
      .transaction(() => {
        this.statement('clearActive').run();
        if (id !== null) this.statement('setActive').run({ id });
      })
      .immediate();
  }

  /** Profiles the user added; one this version cannot read is left out (and named in `broken`). */
  profiles(): { profiles: ServiceProfile[]; broken: string[] } {
    const profiles: ServiceProfile[] = [];
    const broken: string[] = [];
    for (const row of this.statement('allProfiles').all() as { id: string; profile: string }[]) {
      const parsed = ServiceProfile.safeParse(JSON.parse(row.profile));
      if (parsed.success) profiles.push(parsed.data);
      else broken.push(row.id);
    }
    return { profiles, broken };
  }

  saveProfile(profile: ServiceProfile): void {
    this.statement('upsertProfile').run({
      id: profile.id,
      profile: JSON.stringify(profile),
      now: this.now(),
    });
  }
}
