import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { applyHeadlessConfig } from './applyHeadlessConfig';
import type { HeadlessArgs } from './headlessArgs';
import { parseHeadlessConfig, shortKeyWarnings } from './headlessConfig';
import { openRouterDatabase } from '../store/openRouterDatabase';
import { RouterAdminApi } from './routerAdminApi';
import { RouterEngine } from '../engine/routerEngine';
import type { CommitSink } from '../store/groupCommit';
import { RouterIngress } from '../routerIngress';
import { ROUTER_WRITER_SCRIPT } from '../store/routerWriterScript';
import { RouterWriterThread } from '../store/routerWriterThread';
import { VirtualClock } from '../engine/virtualClock';

export interface HeadlessRouter {
  ingress: string;
  admin: string;
  adminToken: string;
  engine: RouterEngine;
  /** The writer thread's state (null: commits run on the engine's connection). */
  writerThread(): { active: boolean; commits: number } | null;
  close(): Promise<void>;
}

/**
 * The router alone, for a user's own integration tests: its own SQLite file (only the router's
 * migration; never the app's data directory), the config loaded, the ingress and the admin API
 * listening on loopback.
 */
export async function runHeadlessRouter(
  args: Pick<HeadlessArgs, 'config' | 'port' | 'adminPort' | 'timeScale' | 'db'>,
  log: { error(message: string, error: unknown): void; warn?(message: string): void } = console,
  options: {
    /** The built writer thread; null commits on the engine's connection. */
    writerScript?: string | URL | null;
    /** See RouterWriterThread's inlineMaxRows (tests set 0 so every commit goes to the thread). */
    writerInlineMaxRows?: number;
  } = {},
): Promise<HeadlessRouter> {
  const config = parseHeadlessConfig(readFileSync(args.config, 'utf8'), args.config);
  for (const warning of shortKeyWarnings(config)) (log.warn ?? console.warn)(warning);
  const tempDir = args.db ? null : mkdtempSync(path.join(os.tmpdir(), 'portaldesk-router-'));
  const file = args.db ?? path.join(tempDir as string, 'router.sqlite');
  const db = openRouterDatabase(file);
  // The file is the router's alone, so a second connection on a writer thread may commit to it.
  const writerScript =
    options.writerScript === undefined ? ROUTER_WRITER_SCRIPT : options.writerScript;
  let writer: RouterWriterThread | null = null;
  const engine = new RouterEngine({
    db,
    clock: new VirtualClock({ scale: args.timeScale }),
    log,
    ...(writerScript
      ? {
          commitSink: (inline: CommitSink) =>
            (writer = new RouterWriterThread(
              {
                script: writerScript,
                file,
                ...(options.writerInlineMaxRows !== undefined
                  ? { inlineMaxRows: options.writerInlineMaxRows }
                  : {}),
              },
              inline,
              log,
            )),
        }
      : {}),
  });
  const ingress = new RouterIngress(engine, args.port);
  const admin = new RouterAdminApi(engine);
  const close = async (): Promise<void> => {
    await ingress.close();
    await admin.close();
    engine.close();
    await writer?.close();
    db.close();
    if (tempDir) rmSync(tempDir, { recursive: true, force: true });
  };
  try {
    applyHeadlessConfig(engine, config);
    const ingressUrl = await ingress.start();
    const adminUrl = await admin.start(args.adminPort);
    return {
      ingress: ingressUrl,
      admin: adminUrl,
      adminToken: admin.token,
      engine,
      writerThread: () => {
        const thread = writer as RouterWriterThread | null;
        return thread ? { active: thread.active, commits: thread.commits } : null;
      },
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
