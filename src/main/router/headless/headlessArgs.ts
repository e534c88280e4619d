import { cliFlags } from '../../cli/cliFlags';

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
  --time-scale N    virtual time runs N times faster (retries, Retry-After, capture URLs)
  --json            print one JSON line first: {"ingress","admin","admin_token"}
  --db FILE         keep the router's SQLite in FILE (default: a temporary file, removed at exit)`;

/** Parses the headless router's command line; an unknown or malformed argument is an error. */
export function parseHeadlessArgs(argv: readonly string[]): HeadlessArgs | { error: string } {
  const result: HeadlessArgs = {
    config: '',
    port: 0,
    adminPort: 0,
    timeScale: 1,
    json: false,
    db: null,
    help: false,
  };
  for (const { flag, value, port, unknown } of cliFlags(argv)) {
    switch (flag) {
      case '--config': {
        const file = value();
        if (!file) return { error: '--config needs a file.' };
        result.config = file;
        break;
      }
      case '--port':
      case '--admin-port': {
        const parsed = port();
        if (typeof parsed !== 'number') return parsed;
        if (flag === '--port') result.port = parsed;
        else result.adminPort = parsed;
        break;
      }
      case '--time-scale': {
        const text = value();
        const scale = Number(text);
        if (text === undefined || !(scale > 0) || !Number.isFinite(scale)) {
          return { error: `--time-scale needs a positive number, not "${text ?? ''}".` };
        }
        result.timeScale = scale;
        break;
      }
      case '--db': {
        const file = value();
        if (!file) return { error: '--db needs a file.' };
        result.db = file;
        break;
      }
      case '--json':
        result.json = true;
        break;
      case '--help':
      case '-h':
        result.help = true;
        break;
      default:
        return unknown();
    }
  }
  if (!result.config && !result.help) return { error: '--config FILE is required.' };
  return result;
}
