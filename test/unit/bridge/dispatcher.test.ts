import { describe, expect, it, vi } from 'vitest';
import {
  ContractDispatcher,
  UserFacingError,
  type CallOrigin,
  type Handlers,
} from '../../../src/main/bridge/dispatcher';
import type { AppInfo } from '../../../src/shared/ipc/contract';
import { DEFAULT_SETTINGS } from '../../../src/shared/ipc/settings';

const trusted: CallOrigin = { transport: 'internal', trusted: true, description: 'test' };
const info: AppInfo = {
  name: 'PortalDesk',
  version: '1.2.3',
  mode: 'web',
  dataDir: '/tmp/x',
  schemaVersion: 1,
  platform: 'linux',
};

function spyHandlers() {
  const handlers = {
    'app.info': vi.fn(() => info),
    'settings.get': vi.fn(() => ({ ...DEFAULT_SETTINGS, theme: 'system' as const })),
    'settings.set': vi.fn((patch: { theme?: 'system' | 'light' | 'dark' }) => ({
      ...DEFAULT_SETTINGS,
      theme: patch.theme ?? 'system',
    })),
  } satisfies Partial<Handlers>;
  const quiet = { warn: vi.fn(), error: vi.fn() };
  // The dispatcher's checks do not depend on which requests exist; these three stand for all.
  const all = handlers as Partial<Handlers> as Handlers;
  return { handlers, quiet, dispatcher: new ContractDispatcher(all, quiet) };
}

function noHandlerRan(handlers: ReturnType<typeof spyHandlers>['handlers']) {
  for (const handler of Object.values(handlers)) expect(handler).not.toHaveBeenCalled();
}

describe('ContractDispatcher', () => {
  it('runs the handler of a known request with the parsed argument', async () => {
    const { dispatcher, handlers } = spyHandlers();
    await expect(dispatcher.dispatch('app.info', undefined, trusted)).resolves.toEqual({
      ok: true,
      value: info,
    });
    await expect(dispatcher.dispatch('settings.set', { theme: 'dark' }, trusted)).resolves.toEqual({
      ok: true,
      value: { ...DEFAULT_SETTINGS, theme: 'dark' },
    });
    expect(handlers['settings.set']).toHaveBeenCalledWith({ theme: 'dark' });
  });

  it('refuses an unknown request name, naming it, and runs no handler', async () => {
    const { dispatcher, handlers } = spyHandlers();
    for (const name of ['app.delete', 'constructor', '__proto__', 42, null]) {
      const outcome = await dispatcher.dispatch(name, undefined, trusted);
      expect(outcome).toMatchObject({ ok: false, error: { code: 'unknown_request' } });
    }
    const outcome = await dispatcher.dispatch('app.delete', undefined, trusted);
    expect(!outcome.ok && outcome.error.message).toContain('"app.delete"');
    noHandlerRan(handlers);
  });

  it('refuses a bad argument with one issue per problem, and runs no handler', async () => {
    const { dispatcher, handlers } = spyHandlers();
    const wrongValue = await dispatcher.dispatch('settings.set', { theme: 'blue' }, trusted);
    expect(wrongValue).toMatchObject({ ok: false, error: { code: 'invalid_argument' } });
    expect(!wrongValue.ok && wrongValue.error.issues?.[0]).toMatch(/^theme: /);
    expect(!wrongValue.ok && wrongValue.error.message).toContain('Nothing was changed');

    const unknownKey = await dispatcher.dispatch('settings.set', { colour: 'red' }, trusted);
    expect(unknownKey).toMatchObject({ ok: false, error: { code: 'invalid_argument' } });

    const unexpectedArgument = await dispatcher.dispatch('app.info', { all: true }, trusted);
    expect(unexpectedArgument).toMatchObject({ ok: false, error: { code: 'invalid_argument' } });
    noHandlerRan(handlers);
  });

  it('refuses any call from an untrusted sender before looking at it, and runs no handler', async () => {
    const { dispatcher, handlers, quiet } = spyHandlers();
    const origin: CallOrigin = {
      transport: 'ipc',
      trusted: false,
      description: 'webContents 7 is not a PortalDesk window',
    };
    const outcome = await dispatcher.dispatch('settings.set', { theme: 'dark' }, origin);
    expect(outcome).toMatchObject({ ok: false, error: { code: 'forbidden_sender' } });
    expect(!outcome.ok && outcome.error.message).toContain('webContents 7');
    expect(quiet.warn).toHaveBeenCalledOnce();
    noHandlerRan(handlers);
  });

  it("passes a handler's user-facing refusal through as written", async () => {
    const { handlers, quiet } = spyHandlers();
    handlers['settings.get'].mockImplementation(() => {
      throw new UserFacingError('The settings table is locked by another process.');
    });
    const dispatcher = new ContractDispatcher(handlers as Partial<Handlers> as Handlers, quiet);
    await expect(dispatcher.dispatch('settings.get', undefined, trusted)).resolves.toEqual({
      ok: false,
      error: { code: 'failed', message: 'The settings table is locked by another process.' },
    });
    expect(quiet.error).not.toHaveBeenCalled();
  });

  it('names the argument a refusal is about, so a form shows it beside that control', async () => {
    const { handlers, quiet } = spyHandlers();
    handlers['settings.set'].mockImplementation(() => {
      throw new UserFacingError('That theme cannot be used here.', { field: 'theme' });
    });
    const dispatcher = new ContractDispatcher(handlers as Partial<Handlers> as Handlers, quiet);
    await expect(dispatcher.dispatch('settings.set', { theme: 'dark' }, trusted)).resolves.toEqual({
      ok: false,
      error: { code: 'failed', message: 'That theme cannot be used here.', field: 'theme' },
    });
    // The gate's own refusal names the first argument it complains about.
    const refused = await dispatcher.dispatch('settings.set', { theme: 'sepia' }, trusted);
    expect(refused).toMatchObject({
      ok: false,
      error: { code: 'invalid_argument', field: 'theme' },
    });
  });

  it('reports an unexpected handler error with the request name and logs it', async () => {
    const { handlers, quiet } = spyHandlers();
    handlers['app.info'].mockImplementation(() => {
      throw new TypeError('boom');
    });
    const dispatcher = new ContractDispatcher(handlers as Partial<Handlers> as Handlers, quiet);
    const outcome = await dispatcher.dispatch('app.info', undefined, trusted);
    expect(outcome).toEqual({
      ok: false,
      error: { code: 'failed', message: 'app.info failed unexpectedly: boom' },
    });
    expect(quiet.error).toHaveBeenCalledOnce();
  });

  it('answers an argument too deeply nested to check, instead of throwing past the gate', async () => {
    const { dispatcher, handlers } = spyHandlers();
    // A rule filter 20,000 groups deep: checking it recursively exhausts the stack.
    let filter: unknown = { path: 'a', type: 'string', comparator: 'is', value: 'x' };
    for (let i = 0; i < 20_000; i++) filter = { operator: 'AND', conditions: [filter] };
    const rule = { name: 'deep', eventConfigIds: ['1'], targetIds: ['2'], filter };
    const outcome = await dispatcher.dispatch('router.saveRule', rule, trusted);
    expect(outcome).toEqual({
      ok: false,
      error: {
        code: 'invalid_argument',
        message:
          'Invalid argument for router.saveRule: it could not be checked (Maximum call stack size exceeded); it is probably nested far too deeply. Nothing was changed.',
        issues: ['(argument): could not be checked (Maximum call stack size exceeded)'],
      },
    });
    noHandlerRan(handlers);
  });
});
