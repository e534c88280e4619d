/** Through the contract, as the renderer calls it: no secret in any reply, event or app file. */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { MemorySecretStore } from '../../../src/main/auth/memorySecretStore';
import { SIGN_IN_PAGE_FILE } from '../../../src/main/auth/signInPage';
import { testEngine } from '../../support/engine';
import { tempDir } from '../../support/tempDir';

test('a demo sign-in over the contract sends no secret to the renderer and writes none to the app database', async () => {
  const engine = testEngine({ secrets: new MemorySecretStore(), autoSync: false });
  const payloads: string[] = [];
  engine.events.subscribe((event, payload) => {
    if (event.startsWith('accounts.')) payloads.push(JSON.stringify(payload));
  });
  const origin = { transport: 'internal' as const, trusted: true, description: 'test' };
  const reply = await engine.dispatcher.dispatch('accounts.signInDemo', undefined, origin);
  expect(reply).toMatchObject({ ok: true, value: { status: 'signed_in', label: 'northwind' } });
  payloads.push(JSON.stringify(reply));
  payloads.push(
    JSON.stringify(await engine.dispatcher.dispatch('accounts.list', undefined, origin)),
  );
  expect(payloads.some((p) => p.includes('"pendingSignIn":{'))).toBe(true);

  const dataDir = engine.info().dataDir;
  const secrets = Object.values(
    JSON.parse(readFileSync(path.join(dataDir, 'demo', 'demo-secrets.json'), 'utf8')) as Record<
      string,
      string
    >,
  );
  expect(secrets).toHaveLength(2);
  engine.store.db.pragma('wal_checkpoint(TRUNCATE)');
  const database = readFileSync(path.join(dataDir, 'portaldesk.sqlite')).toString('latin1');
  for (const secret of secrets) {
    for (const payload of payloads) expect(payload).not.toContain(secret);
    expect(database).not.toContain(secret);
  }
  // The engine's access token is not in a payload either.
  const token = await engine.accounts.signedIn()[0]!.tokens.accessToken();
  for (const payload of payloads) expect(payload).not.toContain(token);
});

test("a Self Client refusal names the argument it is about: the contract's, the scopes', the code's", async () => {
  const engine = testEngine({ secrets: new MemorySecretStore(), autoSync: false });
  const origin = { transport: 'internal' as const, trusted: true, description: 'test' };
  const exchange = (args: Record<string, unknown>) =>
    engine.dispatcher.dispatch(
      'accounts.selfClient',
      { profileId: 'demo', dataCenter: 'us', scopes: 'PMS.portals.READ', code: '1000.x', ...args },
      origin,
    );
  expect(await exchange({ code: '' })).toMatchObject({
    ok: false,
    error: { code: 'invalid_argument', field: 'code' },
  });
  expect(await exchange({ scopes: 'PMS.portals' })).toMatchObject({
    ok: false,
    error: {
      code: 'failed',
      field: 'scopes',
      message: expect.stringMatching(/^Enter a valid scope/),
    },
  });
  // The demo service refuses a code it never issued: invalid_code, about the code.
  expect(await exchange({ code: '1000.never-issued' })).toMatchObject({
    ok: false,
    error: { code: 'failed', field: 'code', message: expect.stringMatching(/invalid_code/) },
  });
  expect(
    await engine.dispatcher.dispatch(
      'accounts.selfClient',
      { profileId: 'nope', dataCenter: 'us', scopes: 'PMS.portals.READ', code: '1000.x' },
      origin,
    ),
  ).toMatchObject({ ok: false, error: { code: 'failed', field: 'profileId' } });
});

test('a sign-in page a crash left in the data directory is removed when the engine starts', () => {
  const dataDir = tempDir();
  const page = path.join(dataDir, SIGN_IN_PAGE_FILE);
  writeFileSync(page, '<meta http-equiv="refresh" content="0;url=https://x/?state=s">', {
    mode: 0o600,
  });
  testEngine({ dataDir, secrets: new MemorySecretStore(), autoSync: false });
  expect(existsSync(page)).toBe(false);
});
