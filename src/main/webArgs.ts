import { portValue, readFlags } from './cli/cliFlags';
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
  const read = readFlags(argv, {
    port: { type: 'string' },
    'no-open': { type: 'boolean' },
    [DATA_DIR_FLAG.slice(2)]: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  });
  if ('error' in read) return read;
  const { values } = read;
  const port = values.port === undefined ? 0 : portValue('--port', values.port as string);
  if (typeof port !== 'number') return port;
  const dataDir = values[DATA_DIR_FLAG.slice(2)] as string | undefined;
  if (dataDir === '') return { error: `${DATA_DIR_FLAG} needs a directory.` };
  return { port, open: values['no-open'] !== true, dataDir, help: values.help === true };
}
