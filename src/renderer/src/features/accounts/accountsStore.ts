import { createStore } from 'zustand/vanilla';
import { CallFailure } from '../../../../shared/ipc/api';
import type { Api } from '../../../../shared/ipc/contract';
import type { ServiceProfile } from '@portaldesk/portal-api/serviceProfile';
import type {
  AccountsState,
  AccountSummary,
  DemoChangeResult,
  ProfileSummary,
  SelfClientArgs,
  SignInArgs,
} from '../../../../shared/ipc/areas/accounts';

/** Which action is running, so only its button shows progress. */
export type AccountsBusy =
  | 'demo'
  | 'signIn'
  | 'selfClient'
  | 'demoCode'
  | 'profile'
  | `signOut:${string}`
  | `again:${string}`
  | null;

/** A refusal of a form's action, in the engine's words, for the form to place. */
export interface Refusal {
  message: string;
  /** The argument it is about (CallFailure.field), or null. */
  field: string | null;
}

/** What a form's action answers: its value, or why it was refused. */
export type Outcome<T> = { ok: true; value: T } | { ok: false; refusal: Refusal };

export interface AccountsStoreState {
  /** Null until the engine answered once (the first-run screen waits for it). */
  state: AccountsState | null;
  profiles: ProfileSummary[];
  busy: AccountsBusy;
  /**
   * The last failure of an action that has no form of its own (sign out, sign in again, switch),
   * in the engine's words. A form's actions answer their refusal to the form instead.
   */
  error: string | null;
  /** The last success worth telling, e.g. after a sign-out. */
  notice: string | null;
  load(): Promise<void>;
  changed(state: AccountsState): void;
  signInDemo(): Promise<Outcome<AccountSummary>>;
  signIn(args: SignInArgs): Promise<Outcome<AccountSummary>>;
  selfClient(args: SelfClientArgs): Promise<Outcome<AccountSummary>>;
  demoSelfClientCode(scopes: string): Promise<Outcome<string>>;
  /**
   * The demo portal's "Change this record on the server". Its answer or refusal goes to the
   * caller, which shows it beside its button, not to `error`.
   */
  demoChangeRecord(
    portalId: string,
    recordId: string,
  ): Promise<{ ok: true; result: DemoChangeResult } | { ok: false; error: string }>;
  signInAgain(accountId: string): Promise<void>;
  cancelSignIn(): Promise<void>;
  signOut(accountId: string, deleteLocalData: boolean): Promise<void>;
  setActive(accountId: string): Promise<void>;
  addProfile(profile: ServiceProfile): Promise<Outcome<true>>;
  dismiss(): void;
}

function describe(error: unknown): string {
  if (error instanceof CallFailure) return error.message;
  return error instanceof Error ? error.message : String(error);
}

function refusalOf(error: unknown): Refusal {
  return { message: describe(error), field: error instanceof CallFailure ? error.field : null };
}

export function createAccountsStore(api: Api) {
  return createStore<AccountsStoreState>()((set, get) => {
    /** Runs one action: marks it busy, keeps its error for the form that started it. */
    async function run<T>(busy: AccountsBusy, action: () => Promise<T>): Promise<T | null> {
      set({ busy, error: null, notice: null });
      try {
        return await action();
      } catch (error) {
        set({ error: describe(error) });
        return null;
      } finally {
        if (get().busy === busy) set({ busy: null });
      }
    }
    /** Runs a form's action: marks it busy and answers its refusal to the form. */
    async function attempt<T>(busy: AccountsBusy, action: () => Promise<T>): Promise<Outcome<T>> {
      set({ busy, error: null, notice: null });
      try {
        return { ok: true, value: await action() };
      } catch (error) {
        return { ok: false, refusal: refusalOf(error) };
      } finally {
        if (get().busy === busy) set({ busy: null });
      }
    }
    const refresh = async () => set({ state: await api.accounts.list() });

    return {
      state: null,
      profiles: [],
      busy: null,
      error: null,
      notice: null,
      load: async () => {
        try {
          const [state, profiles] = await Promise.all([
            api.accounts.list(),
            api.accounts.profiles(),
          ]);
          set({ state, profiles });
        } catch (error) {
          set({ error: describe(error) });
        }
      },
      changed: (state) => set({ state }),
      signInDemo: () =>
        attempt('demo', async () => {
          const account = await api.accounts.signInDemo();
          await refresh();
          return account;
        }),
      signIn: (args) =>
        attempt('signIn', async () => {
          const account = await api.accounts.signIn(args);
          await refresh();
          return account;
        }),
      selfClient: (args) =>
        attempt('selfClient', async () => {
          const account = await api.accounts.selfClient(args);
          await refresh();
          return account;
        }),
      demoSelfClientCode: (scopes) =>
        attempt('demoCode', async () => (await api.accounts.demoSelfClientCode({ scopes })).code),
      demoChangeRecord: async (portalId, recordId) => {
        try {
          return { ok: true, result: await api.accounts.demoChangeRecord({ portalId, recordId }) };
        } catch (error) {
          return { ok: false, error: describe(error) };
        }
      },
      signInAgain: async (accountId) => {
        await run(`again:${accountId}`, async () => {
          await api.accounts.signInAgain({ accountId });
          await refresh();
        });
      },
      cancelSignIn: async () => {
        await api.accounts.cancelSignIn().catch(() => undefined);
      },
      signOut: async (accountId, deleteLocalData) => {
        await run(`signOut:${accountId}`, async () => {
          const result = await api.accounts.signOut({ accountId, deleteLocalData });
          set({ state: result.state, notice: result.message });
        });
      },
      setActive: async (accountId) => {
        await run(null, async () => set({ state: await api.accounts.setActive({ accountId }) }));
      },
      addProfile: (profile) =>
        attempt('profile', async () => {
          set({ profiles: await api.accounts.addProfile({ profile }) });
          return true as const;
        }),
      dismiss: () => set({ error: null, notice: null }),
    };
  });
}

export type AccountsStore = ReturnType<typeof createAccountsStore>;
