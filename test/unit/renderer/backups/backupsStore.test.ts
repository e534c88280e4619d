/**
 * The Backups view's store reads the overview again when a change arrives while a read is in
 * flight: that read may have been answered before the change, and a row the engine removed (a
 * request the service answered with a known backup) must not stay on screen.
 */
import { describe, expect, it } from 'vitest';
import { createBackupsStore } from '../../../../src/renderer/src/features/backups/backupsStore';
import type { Api } from '../../../../src/shared/ipc/contract';
import type { BackupsOverview } from '../../../../src/shared/ipc/areas/backups';

function fakeApi() {
  const answers: ((overview: BackupsOverview) => void)[] = [];
  const listeners = new Map<string, (payload: unknown) => void>();
  const api = {
    backups: {
      overview: () => new Promise<BackupsOverview>((resolve) => answers.push(resolve)),
    },
    on: (event: string, listener: (payload: unknown) => void) => {
      listeners.set(event, listener);
      return () => listeners.delete(event);
    },
  } as unknown as Api;
  return {
    api,
    answers,
    emit: (event: string, payload: unknown) => listeners.get(event)?.(payload),
  };
}

const overview = (ids: string[]): BackupsOverview => ({
  folder: '/data/backups',
  portals: [],
  backups: ids.map((id) => ({ id }) as BackupsOverview['backups'][number]),
});

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('the backups store', () => {
  it('reads again after a read that was in flight when a change arrived', async () => {
    const { api, answers, emit } = fakeApi();
    const store = createBackupsStore(api);
    void store.getState().load();
    await settle();
    store.setState({ overview: overview(['1', '2']) });
    // A row went: the store reads; another change comes while that read is out.
    emit('backups.changed', { backup: null, portalId: '7' });
    await settle();
    expect(answers).toHaveLength(2);
    emit('backups.changed', { backup: null, portalId: '7' });
    await settle();
    // The read in flight answers with what it saw before the second change...
    answers[1]!(overview(['1', '2']));
    await settle();
    // ...and one more read follows, whose answer is what the view shows.
    expect(answers).toHaveLength(3);
    answers[2]!(overview(['1']));
    await settle();
    expect(store.getState().overview?.backups.map((b) => b.id)).toEqual(['1']);
  });
});
