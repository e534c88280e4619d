import { portValue, readFlags } from '../../cli/cliFlags';

/**
 * Ours: the fastest virtual time. At 100,000 times real time the clock stays within the dates the
 * router stores (LATEST_ROUTER_TIME_MS) for over two years of running; at 1e9 it left them after
 * two and a half hours, and every event after that failed.
 */
export const MAX_TIME_SCALE = 100_000;

export interface HeadlessArgs {
  config: string;
  port: number;
  adminPort: number;
  timeScale: number;
  json: boolean;
  /** Keep the router's SQLite here; default a temporary file removed at exit. */
  db: string | null;
  help: boolean;
}

export const HEADLESS_USAGE = `Usage: npm run router -- --config FILE [--port 0] [--admin-port 0] [--time-scale 1]
                          [--json] [--db FILE]

  --config FILE     publishers, events, targets and rules (JSON; see the README's
                    "Event-router sandbox" for its schema and an example)
  --port N          the ingress on 127.0.0.1:N (default 0: any free port)
  --admin-port N    the admin API on 127.0.0.1:N (default 0: any free port)
  --time-scale N    virtual time runs N times faster (retries, Retry-After, capture URLs),
                    at most 100000
  --json            print one JSON line first: {"ingress","admin","admin_token"}
  --db FILE         keep the router's SQLite in FILE (default: a temporary file, removed at exit)`;

/** Parses the headless router's command line; an unknown or malformed argument is an error. */
export function parseHeadlessArgs(argv: readonly string[]): HeadlessArgs | { error: string } {
  const read = readFlags(argv, {
    config: { type: 'string' },
    port: { type: 'string' },
    'admin-port': { type: 'string' },
    'time-scale': { type: 'string' },
    db: { type: 'string' },
    json: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  });
  if ('error' in read) return read;
  const values = read.values as Record<string, string | boolean | undefined>;
  const text = (name: string) => values[name] as string | undefined;
  const port = text('port') === undefined ? 0 : portValue('--port', text('port'));
  if (typeof port !== 'number') return port;
  const adminPort =
    text('admin-port') === undefined ? 0 : portValue('--admin-port', text('admin-port'));
  if (typeof adminPort !== 'number') return adminPort;
  let timeScale = 1;
  if (text('time-scale') !== undefined) {
    timeScale = Number(text('time-scale'));
    if (!(timeScale > 0) || !Number.isFinite(timeScale)) {
      return { error: `--time-scale needs a positive number, not "${text('time-scale')}".` };
    }
    if (timeScale > MAX_TIME_SCALE) {
      return {
        error: `--time-scale is at most ${MAX_TIME_SCALE}, not ${text('time-scale')}: faster, the router's clock would soon pass the last date it can store. Use POST /clock/advance to jump ahead.`,
      };
    }
  }
  if (text('config') === '') return { error: '--config needs a file.' };
  if (text('db') === '') return { error: '--db needs a file.' };
  const help = values.help === true;
  const config = text('config') ?? '';
  if (!config && !help) return { error: '--config FILE is required.' };
  return {
    config,
    port,
    adminPort,
    timeScale,
    json: values.json === true,
    db: text('db') ?? null,
    help,
  };
}
