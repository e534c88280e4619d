import { createContext, useContext } from 'react';
import { useStore } from 'zustand';
import type { ConfigureState, ConfigureStore } from './configureStore';

export const ConfigureContext = createContext<ConfigureStore | null>(null);

export function useConfigure<T>(selector: (state: ConfigureState) => T): T {
  const store = useContext(ConfigureContext);
  if (!store) throw new Error('useConfigure must be used inside <ConfigureContext.Provider>.');
  return useStore(store, selector);
}
