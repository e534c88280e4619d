import type { Handlers } from '../bridge/dispatcher';
import type { EventHub } from '../bridge/eventHub';
import type { AccountManager } from '../auth/accountManager';
import { changeDemoRecord, type DemoRecordChangeDeps } from '../auth/demoRecordChange';

type AccountsRequest =
  | 'accounts.list'
  | 'accounts.profiles'
  | 'accounts.addProfile'
  | 'accounts.signIn'
  | 'accounts.signInDemo'
  | 'accounts.signInAgain'
  | 'accounts.cancelSignIn'
  | 'accounts.selfClient'
  | 'accounts.demoSelfClientCode'
  | 'accounts.demoChangeRecord'
  | 'accounts.signOut'
  | 'accounts.setActive';

/** Sign-in and accounts; every change reaches every window as `accounts.changed`. */
export function accountsHandlers(deps: {
  accounts: AccountManager;
  events: EventHub;
  /** What "Change this record on the server" reads and reaches (demo portal only). */
  demoChanges: DemoRecordChangeDeps;
}): Pick<Handlers, AccountsRequest> {
  const { accounts, events, demoChanges } = deps;
  accounts.onChanged((state) => events.emit('accounts.changed', state));
  return {
    'accounts.list': () => accounts.state(),
    'accounts.profiles': () => accounts.profiles(),
    'accounts.addProfile': ({ profile }) => accounts.addProfile(profile),
    'accounts.signIn': (args) => accounts.signIn(args),
    'accounts.signInDemo': () => accounts.signInDemo(),
    'accounts.signInAgain': ({ accountId }) => accounts.signInAgain(accountId),
    'accounts.cancelSignIn': () => accounts.cancelSignIn(),
    'accounts.selfClient': (args) => accounts.selfClient(args),
    'accounts.demoSelfClientCode': ({ scopes }) => accounts.demoSelfClientCode(scopes),
    'accounts.demoChangeRecord': ({ portalId, recordId }) =>
      changeDemoRecord(demoChanges, portalId, recordId),
    'accounts.signOut': ({ accountId, deleteLocalData }) =>
      accounts.signOut(accountId, deleteLocalData),
    'accounts.setActive': ({ accountId }) => accounts.setActive(accountId),
  };
}
