import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { applyHeadlessConfig } from './applyHeadlessConfig';
import type { HeadlessArgs } from './headlessArgs';
import { parseHeadlessConfig } from './headlessConfig';
import { openRouterDatabase } from './openRouterDatabase';
import { RouterAdminApi } from './routerAdminApi';
import { RouterEngine } from './routerEngine';
import { RouterIngress } from './routerIngress';
import { VirtualClock } from './virtualClock';

export interface HeadlessRouter {
  ingress: string;
  admin: string;
  adminToken: string;
  engine: RouterEngine;
  close(): Promise<void>;
}

/**
 * The router alone, for a user's own integration tests: its own SQLite file (only the router's
 * migration; never the app's data directory), the config loaded, the ingress and the admin API
 * listening on loopback.
 */
export async function runHeadlessRouter(
  args: Pick<HeadlessArgs, 'config' | 'port' | 'adminPort' | 'timeScale' | 'db'>,
  log: { error(message: string, error: unknown): void } = console,
): Promise<HeadlessRouter> {
  const config = parseHeadlessConfig(readFileSync(args.config, 'utf8'), args.config);
  const tempDir = args.db ? null : mkdtempSync(path.join(os.tmpdir(), 'portaldesk-router-'));
  const file = args.db ?? path.join(tempDir as string, 'router.sqlite');
  const db = openRouterDatabase(file);
  const engine = new RouterEngine({ db, clock: new VirtualClock({ scale: args.timeScale }), log });
  const ingress = new RouterIngress(engine, args.port);
  const admin = new RouterAdminApi(engine);
  const close = async (): Promise<void> => {
    await ingress.close();
    await admin.close();
    engine.close();
    db.close();
    if (tempDir) rmSync(tempDir, { recursive: true, force: true });
  };
  try {
    applyHeadlessConfig(engine, config);
    const ingressUrl = await ingress.start();
    const adminUrl = await admin.start(args.adminPort);
    return { ingress: ingressUrl, admin: adminUrl, adminToken: admin.token, engine, close };
  } catch (error) {
    await close();
    throw error;
  }
}
