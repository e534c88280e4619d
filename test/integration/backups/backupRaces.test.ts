/**
 * Backups acted on twice at once: a ready backup deleted while it is being verified again. The
 * file being read must not be taken from under the check, and a backup deleted here must not come
 * back as "failed" or "verified".
 */
import { describe, expect, it } from 'vitest';
import type { BackupView } from '../../../src/shared/ipc/areas/backups';
import { backUp, CODE, filesUnder, setup } from './backupSession';

const internal = { transport: 'internal', trusted: true, description: 'test' } as const;

describe('backups acted on at once', () => {
  it('refuses to delete a ready backup while it is verified again, and the check ends as it began', async () => {
    const { engine, portalId, dataDir } = await setup();
    const backup = await backUp(engine, portalId);
    expect(backup.stage).toBe('ready');
    const verifying = engine.dispatcher.dispatch(
      'backups.verify',
      { id: backup.id, accessCode: CODE },
      internal,
    );
    const deleting = await engine.dispatcher.dispatch(
      'backups.delete',
      { id: backup.id },
      internal,
    );
    const verified = await verifying;
    // delete's own words: a backup being verified is not deleted from under the check.
    expect(deleting.ok ? 'deleted' : deleting.error.message).toMatch(/wait for it to finish/);
    expect(verified.ok).toBe(true);
    expect((verified as { value: BackupView }).value).toMatchObject({
      stage: 'ready',
      problem: null,
    });
    expect(filesUnder(dataDir)).toEqual([expect.stringMatching(/\.zip$/)]);
  });
});
