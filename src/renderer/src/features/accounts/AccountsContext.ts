import { createContext, useContext } from 'react';
import { useStore } from 'zustand';
import type { AccountsStore, AccountsStoreState } from './accountsStore';

export const AccountsContext = createContext<AccountsStore | null>(null);

export function useAccounts<T>(selector: (state: AccountsStoreState) => T): T {
  const store = useContext(AccountsContext);
  if (!store) throw new Error('useAccounts must be used inside <AccountsContext.Provider>.');
  return useStore(store, selector);
}
