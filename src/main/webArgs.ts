import { cliFlags } from './cli/cliFlags';
import { DATA_DIR_FLAG } from './dataDir';

export interface WebArgs {
  port: number;
  open: boolean;
  dataDir: string | undefined;
  help: boolean;
}

export const WEB_USAGE = `Usage: npm run web -- [--port N] [--no-open] [--data-dir DIR]

  --port N        listen on 127.0.0.1:N (default 0: any free port)
  --no-open       print the address without opening a browser
  --data-dir DIR  use DIR for the local database (default: the OS app-data folder,
                  or $PORTALDESK_DATA_DIR)`;

/** Parses web mode's command line; an unknown or malformed argument is an error, never ignored. */
export function parseWebArgs(argv: readonly string[]): WebArgs | { error: string } {
  const result: WebArgs = { port: 0, open: true, dataDir: undefined, help: false };
  for (const { flag, value, port, unknown } of cliFlags(argv)) {
    switch (flag) {
      case '--port': {
        const parsed = port();
        if (typeof parsed !== 'number') return parsed;
        result.port = parsed;
        break;
      }
      case '--no-open':
        result.open = false;
        break;
      case DATA_DIR_FLAG: {
        const dir = value();
        if (!dir) return { error: `${DATA_DIR_FLAG} needs a directory.` };
        result.dataDir = dir;
        break;
      }
      case '--help':
      case '-h':
        result.help = true;
        break;
      default:
        return unknown();
    }
  }
  return result;
}
