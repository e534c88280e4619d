import { createContext, useContext } from 'react';
import { useStore } from 'zustand';
import type { RouterState, RouterStore } from './routerStore';

export const RouterStoreContext = createContext<RouterStore | null>(null);

export function useRouter<T>(selector: (state: RouterState) => T): T {
  const store = useContext(RouterStoreContext);
  if (!store) throw new Error('useRouter must be used inside <RouterView>.');
  return useStore(store, selector);
}
