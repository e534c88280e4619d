/**
 * The built emulator (out/main/emulator.js) in its own process, for the benchmarks that measure
 * the app against it at the rate limit (bench/sync.bench.ts, bench/replay.bench.ts,
 * bench/scale.bench.ts): started with `--json`, signed in through its Self Client, asked for its
 * request counters and its CPU time.
 */
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import type { TokenProvider } from '../src/main/api/client/tokenProvider';

/** The line the emulator prints with `--json`. */
export interface EmulatorFacts {
  dcs: Record<string, { api: string; accounts?: string }>;
  client_id: string;
  client_secret: string;
  client_secrets: Record<string, string>;
  comment_segment: string;
  admin_secret: string;
  portals: string[];
}

/** The emulator's counters: calls answered per endpoint key under `/api/`, and 429s sent. */
export interface EmulatorStats {
  apiCallsPerKey: Record<string, number>;
  throttled: number;
}

export interface BenchEmulator {
  facts: EmulatorFacts;
  /** Spawn to the `--json` line, in milliseconds. */
  startupMs: number;
  /** Tokens from the Self Client (data center `us`), refreshed at the accounts server on demand. */
  signIn(scopes: string): Promise<TokenProvider>;
  /** A Self Client grant code for these comma-separated scopes, for the app to exchange. */
  selfClientCode(scopes: string): Promise<string>;
  /** Moves the emulator's clock on: the rate limit's windows it spans are over. */
  advanceClock(ms: number): Promise<void>;
  stats(): Promise<EmulatorStats>;
  /**
   * The emulator process's CPU time so far (user + system, seconds), from /proc/PID/stat; null
   * where there is no /proc (off Linux). It shares the machine's cores with the app under test.
   */
  cpuSeconds(): number | null;
  stop(): void;
}

export interface BenchEmulatorOptions {
  records: number;
  /** The emulator's --time-scale: every duration (the rate limit's window too) divided by it. */
  timeScale: number;
  /** The emulator's --portals and --modules (left out: the demo's two portals of 3 modules). */
  portals?: number;
  modules?: number;
}

export async function startBenchEmulator(options: BenchEmulatorOptions): Promise<BenchEmulator> {
  const began = performance.now();
  const child = spawn(
    process.execPath,
    [
      // EMULATOR_PROFILE_DIR=DIR: a CPU profile of the emulator, written when it is stopped.
      ...(process.env.EMULATOR_PROFILE_DIR
        ? ['--cpu-prof', `--cpu-prof-dir=${process.env.EMULATOR_PROFILE_DIR}`]
        : []),
      'out/main/emulator.js',
      '--json',
      '--records',
      String(options.records),
      '--time-scale',
      String(options.timeScale),
      ...(options.portals === undefined ? [] : ['--portals', String(options.portals)]),
      ...(options.modules === undefined ? [] : ['--modules', String(options.modules)]),
      '--port',
      '0',
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const facts = await new Promise<EmulatorFacts>((resolve, reject) => {
    let output = '';
    const onData = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const newline = output.indexOf('\n');
      if (newline === -1) return;
      child.stdout?.off('data', onData);
      try {
        resolve(JSON.parse(output.slice(0, newline)) as EmulatorFacts);
      } catch (error) {
        reject(
          new Error(
            `The emulator printed no JSON line: ${output.slice(0, 200)} (${String(error)})`,
          ),
        );
      }
    };
    child.stdout?.on('data', onData);
    child.once('exit', (code) =>
      reject(new Error(`The emulator exited with ${code}; is it built (npx electron-vite build)?`)),
    );
  });
  child.stdout?.resume();
  const startupMs = performance.now() - began;
  const { api, accounts } = facts.dcs.us!;
  const admin = { 'X-Emulator-Admin': facts.admin_secret };

  const selfClientCode = async (scopes: string) => {
    const { code } = await json(`${api}/__emulator/self-client`, {
      method: 'POST',
      headers: { ...admin, 'Content-Type': 'application/json' },
      body: JSON.stringify({ scopes }),
    });
    return String(code);
  };

  return {
    facts,
    startupMs,
    selfClientCode,
    async advanceClock(ms) {
      await json(`${api}/__emulator/clock/advance`, {
        method: 'POST',
        headers: { ...admin, 'Content-Type': 'application/json' },
        body: JSON.stringify({ ms }),
      });
    },
    async signIn(scopes) {
      const code = await selfClientCode(scopes);
      const issued = await json(`${accounts}/oauth/v2/token`, {
        method: 'POST',
        body: new URLSearchParams({
          code,
          client_id: facts.client_id,
          client_secret: facts.client_secret,
          grant_type: 'authorization_code',
        }),
      });
      let token = String(issued.access_token);
      const refreshToken = String(issued.refresh_token);
      return {
        accessToken: async () => token,
        refresh: async () => {
          const query = new URLSearchParams({
            refresh_token: refreshToken,
            client_id: facts.client_id,
            client_secret: facts.client_secret,
            grant_type: 'refresh_token',
          });
          const renewed = await json(`${accounts}/oauth/v2/token?${query}`, { method: 'POST' });
          token = String(renewed.access_token);
          return token;
        },
      };
    },
    async stats() {
      const body = await json(`${api}/__emulator/stats`, { headers: admin });
      const perEndpoint = (body.requests as { per_endpoint: Record<string, number> }).per_endpoint;
      return {
        apiCallsPerKey: Object.fromEntries(
          Object.entries(perEndpoint).filter(([key]) => key.includes(' /api/')),
        ),
        throttled: body.throttled as number,
      };
    },
    cpuSeconds: () => (child.pid === undefined ? null : processCpuSeconds(child.pid)),
    stop: () => child.kill(),
  };
}

/** Clock ticks per second of /proc's times (USER_HZ); 100 on every Linux we know of. */
let ticksPerSecond: number | undefined;

/** A process's CPU time (user + system, seconds) from /proc/PID/stat; null without /proc. */
export function processCpuSeconds(pid: number): number | null {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  if (ticksPerSecond === undefined) {
    try {
      ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' })) || 100;
    } catch {
      ticksPerSecond = 100;
    }
  }
  // After the command name (in parentheses, which may hold spaces): state, then fields 4…;
  // utime and stime are fields 14 and 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / ticksPerSecond;
}

async function json(url: string, init: RequestInit = {}): Promise<Record<string, unknown>> {
  // An idle keep-alive connection the emulator closed fails once; a fresh one works.
  const response = await fetch(url, init).catch(() => fetch(url, init));
  const body = (await response.json()) as Record<string, unknown>;
  if (!response.ok || 'error' in body) {
    throw new Error(
      `${init.method ?? 'GET'} ${url}: HTTP ${response.status} ${JSON.stringify(body)}`,
    );
  }
  return body;
}
