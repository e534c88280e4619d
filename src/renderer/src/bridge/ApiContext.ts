import { createContext, useContext } from 'react';
import type { Api } from '../../../shared/ipc/contract';

/** The contract API for components that call the engine directly; main.tsx provides it. */
export const ApiContext = createContext<Api | null>(null);

export function useApi(): Api {
  const api = useContext(ApiContext);
  if (!api) throw new Error('useApi must be used inside <ApiContext.Provider>.');
  return api;
}
