import type { Handlers } from '../bridge/dispatcher';
import type { EventHub } from '../bridge/eventHub';
import type { AccountManager } from '../auth/accountManager';

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
  | 'accounts.signOut'
  | 'accounts.setActive';

/** Sign-in and accounts; every change reaches every window as `accounts.changed`. */
export function accountsHandlers(deps: {
  accounts: AccountManager;
  events: EventHub;
}): Pick<Handlers, AccountsRequest> {
  const { accounts, events } = deps;
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
    'accounts.signOut': ({ accountId, deleteLocalData }) =>
      accounts.signOut(accountId, deleteLocalData),
    'accounts.setActive': ({ accountId }) => accounts.setActive(accountId),
  };
}
