import { describe, expect, it, vi } from 'vitest';
import { buildNamedCalls, CallFailure, createApi } from '../../../../src/shared/ipc/api';
import { requestNames, type Bridge } from '../../../../src/shared/ipc/contract';
import { contentSecurityPolicy, socketSources } from '../../../../src/main/csp';

describe('the derived client', () => {
  it('has one named function per contract request', () => {
    const seen: string[] = [];
    const tree = buildNamedCalls((name) => {
      seen.push(name);
      return async () => name;
    });
    expect(seen).toEqual(requestNames);
    const namespaces = [...new Set(requestNames.map((name) => name.split('.')[0]))].sort();
    expect(Object.keys(tree).sort()).toEqual(namespaces);
    expect(namespaces).toEqual(expect.arrayContaining(['app', 'settings', 'sync']));
    expect(Object.keys(tree.settings ?? {}).sort()).toEqual(['get', 'set']);
    expect(Object.keys(tree.sync ?? {}).sort()).toEqual(
      requestNames
        .filter((name) => name.startsWith('sync.'))
        .map((name) => name.slice(5))
        .sort(),
    );
  });

  it('resolves to the value of an ok outcome and rejects with a CallFailure otherwise', async () => {
    const on = vi.fn();
    const bridge = {
      ...buildNamedCalls(
        (name) => async (args) =>
          name === 'settings.set'
            ? {
                ok: false,
                error: { code: 'invalid_argument', message: 'bad theme', issues: ['theme: bad'] },
              }
            : { ok: true, value: { called: name, args } },
      ),
      on,
    } as unknown as Bridge;
    const api = createApi(bridge);

    await expect(api.app.info()).resolves.toEqual({ called: 'app.info', args: undefined });
    const failure = await api.settings.set({ theme: 'dark' }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(CallFailure);
    expect(failure).toMatchObject({
      message: 'bad theme',
      code: 'invalid_argument',
      request: 'settings.set',
      issues: ['theme: bad'],
    });
    expect(api.on).toBe(on);
  });
});

describe('content security policy', () => {
  it('allows only our own scripts and styles in production', () => {
    for (const mode of ['desktop', 'web'] as const) {
      const csp = contentSecurityPolicy({ mode });
      expect(csp).toContain("default-src 'none'");
      expect(csp).toContain("script-src 'self';");
      expect(csp).not.toContain('unsafe-inline');
      expect(csp).not.toContain('unsafe-eval');
      expect(csp).toContain("object-src 'none'");
    }
  });

  it('lets the desktop app open no socket at all: it talks to the engine over IPC', () => {
    expect(socketSources('desktop')).toEqual([]);
    expect(socketSources('desktop', 'ws://127.0.0.1:5000')).toEqual([]);
    const desktop = contentSecurityPolicy({ mode: 'desktop' });
    expect(desktop).toContain("connect-src 'self';");
    expect(desktop).not.toContain('ws:');
  });

  it('allows loopback sockets only in web mode, narrowed to the engine when its origin is known', () => {
    expect(socketSources('web')).toEqual(['ws://127.0.0.1:*', 'ws://localhost:*']);
    expect(socketSources('web', 'ws://127.0.0.1:5000')).toEqual(['ws://127.0.0.1:5000']);
    expect(contentSecurityPolicy({ mode: 'web', socketOrigin: 'ws://127.0.0.1:5000' })).toContain(
      "connect-src 'self' ws://127.0.0.1:5000;",
    );
  });

  it('loosens only for the dev server, and only towards it', () => {
    const dev = contentSecurityPolicy({
      mode: 'desktop',
      devServerOrigin: 'http://localhost:5173',
    });
    expect(dev).toContain("script-src 'self' 'unsafe-inline'");
    expect(dev).toContain("connect-src 'self' http://localhost:5173 ws://localhost:5173;");
  });
});
