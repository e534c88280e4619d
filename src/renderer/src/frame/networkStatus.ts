/**
 * What the status bar says about the network, from what the window knows: whether the engine
 * answers (web mode's connection; the desktop's is always there), the browser's network flag,
 * whether the service answered the last sync, and the "Work offline" switch. An engine that does
 * not answer comes first: nothing on screen can be newer than its last answer.
 */
export interface NetworkFacts {
  connection: 'connecting' | 'connected' | 'disconnected';
  /** navigator.onLine */
  online: boolean;
  /** The last sync's view of the service; null before any. */
  serviceAnswered: boolean | null;
  workOffline: boolean;
}

export function networkStatus(facts: NetworkFacts): { label: string; ok: boolean } {
  if (facts.connection === 'disconnected') {
    return { label: 'Engine unreachable: showing what was last read', ok: false };
  }
  if (facts.workOffline) return { label: 'Offline by choice: nothing is sent', ok: false };
  if (facts.online && facts.serviceAnswered !== false) return { label: 'Online', ok: true };
  return { label: 'Offline: working from the local mirror', ok: false };
}
