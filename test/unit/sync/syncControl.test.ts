import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/main/api/client/apiError';
import { MirrorWriteError } from '../../../src/main/store/mirror/recordRepository';
import { classifySyncFailure } from '../../../src/main/sync/classifySyncFailure';
import { UnsettledPullError } from '../../../src/main/sync/settlePull';
import { SyncControl, SyncStopped } from '../../../src/main/sync/syncControl';

const endpoint = { name: 'listEntities', label: 'GET /entities' };
const apiError = (kind: ApiError['kind'], status: number | null) =>
  new ApiError({ kind, status, errorCode: 'X', message: 'm', endpoint });

describe('sync control', () => {
  it('holds checkpoints while paused and lets them through on resume', async () => {
    const changes: boolean[] = [];
    const control = new SyncControl((paused) => changes.push(paused));
    control.pause();
    let passed = false;
    const waiting = control.checkpoint().then(() => (passed = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(passed).toBe(false);
    control.resume();
    await waiting;
    expect(passed).toBe(true);
    expect(changes).toEqual([true, false]);
  });

  it('rejects waiting and later checkpoints with the first stop, and aborts its signal', async () => {
    const control = new SyncControl();
    control.pause();
    const waiting = control.checkpoint();
    control.stop('offline', 'no network');
    control.stop('cancelled', 'too late');
    await expect(waiting).rejects.toMatchObject({ reason: 'offline', message: 'no network' });
    await expect(control.checkpoint()).rejects.toBeInstanceOf(SyncStopped);
    expect(control.signal.aborted).toBe(true);
    expect(control.stopped?.reason).toBe('offline');
  });

  it('tells what a failure means for the sync', () => {
    expect(classifySyncFailure(new SyncStopped('cancelled', 'x'))).toBe('stopped');
    expect(classifySyncFailure(new DOMException('closed', 'AbortError'))).toBe('stopped');
    expect(classifySyncFailure(apiError('transient', null))).toBe('offline');
    expect(classifySyncFailure(apiError('transient', 503))).toBe('retry');
    expect(classifySyncFailure(apiError('auth', 401))).toBe('signedOut');
    expect(classifySyncFailure(apiError('permanent', 404))).toBe('skip');
    expect(classifySyncFailure(apiError('rate', 429))).toBe('skip');
    expect(classifySyncFailure(new MirrorWriteError('no module'))).toBe('skip');
    // Records that changed while they were compared: another go may find them still.
    expect(classifySyncFailure(new UnsettledPullError('counts differ'))).toBe('retry');
  });
});
