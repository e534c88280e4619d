import { createStore } from 'zustand/vanilla';
import { CallFailure } from '../../../../shared/ipc/api';
import type { Api } from '../../../../shared/ipc/contract';
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

export interface AccountsStoreState {
  /** Null until the engine answered once (the first-run screen waits for it). */
  state: AccountsState | null;
  profiles: ProfileSummary[];
  busy: AccountsBusy;
  /** The last failure, in the engine's words (what happened, what was kept, what to do). */
  error: string | null;
  /** The last success worth telling, e.g. after a sign-out. */
  notice: string | null;
  load(): Promise<void>;
  changed(state: AccountsState): void;
  signInDemo(): Promise<AccountSummary | null>;
  signIn(args: SignInArgs): Promise<AccountSummary | null>;
  selfClient(args: SelfClientArgs): Promise<AccountSummary | null>;
  demoSelfClientCode(scopes: string): Promise<string | null>;
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
  addProfile(json: string): Promise<boolean>;
  dismiss(): void;
}

function describe(error: unknown): string {
  if (error instanceof CallFailure) return error.message;
  return error instanceof Error ? error.message : String(error);
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
        run('demo', async () => {
          const account = await api.accounts.signInDemo();
          await refresh();
          return account;
        }),
      signIn: (args) =>
        run('signIn', async () => {
          const account = await api.accounts.signIn(args);
          await refresh();
          return account;
        }),
      selfClient: (args) =>
        run('selfClient', async () => {
          const account = await api.accounts.selfClient(args);
          await refresh();
          return account;
        }),
      demoSelfClientCode: (scopes) =>
        run('demoCode', async () => (await api.accounts.demoSelfClientCode({ scopes })).code),
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
      addProfile: async (json) => {
        const result = await run('profile', async () => {
          let profile: unknown;
          try {
            profile = JSON.parse(json);
          } catch {
            throw new Error(
              'The service profile is not valid JSON; nothing was saved. Paste the whole file.',
            );
          }
          set({ profiles: await api.accounts.addProfile({ profile: profile as never }) });
          return true;
        });
        return result === true;
      },
      dismiss: () => set({ error: null, notice: null }),
    };
  });
}

export type AccountsStore = ReturnType<typeof createAccountsStore>;
