import { createContext, useContext } from 'react';
import { useStore } from 'zustand';
import type { ShellState, ShellStore } from './shellStore';

export const ShellContext = createContext<ShellStore | null>(null);

export function useShell<T>(selector: (state: ShellState) => T): T {
  const store = useContext(ShellContext);
  if (!store) throw new Error('useShell must be used inside <ShellContext.Provider>.');
  return useStore(store, selector);
}
