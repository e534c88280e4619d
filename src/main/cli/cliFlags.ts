/**
 * The flags of a command line in order, for the engine's commands (web mode: webArgs, the headless
 * router: router/headlessArgs): `--name value` and `--name=value` alike.
 */

/** The TCP ports a `--port`-like flag may name; 0 picks any free port. */
const PORT_MAX = 65_535;

export interface CliFlag {
  /** `--port` of `--port=8080`; a short flag (`-h`) or a stray word as written. */
  flag: string;
  /** The argument as written, for messages. */
  arg: string;
  /** The flag's value: after `=`, else the next argument (which is then not read as a flag). */
  value(): string | undefined;
  /** The value as a port, 0 to 65535, or a message naming the flag. */
  port(): number | { error: string };
  /** The message for an argument the command does not take (never silently ignored). */
  unknown(): { error: string };
}

export function* cliFlags(argv: readonly string[]): Generator<CliFlag> {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const [flag, inline] = arg.startsWith('--') && arg.includes('=') ? arg.split(/=(.*)/s) : [arg];
    const value = (): string | undefined => (inline !== undefined ? inline : argv[++i]);
    yield {
      flag: flag as string,
      arg,
      value,
      port: () => {
        const text = value();
        const number = Number(text);
        if (text === undefined || !/^\d+$/.test(text) || number > PORT_MAX) {
          return {
            error: `${flag} needs a whole number from 0 to ${PORT_MAX}, not "${text ?? ''}".`,
          };
        }
        return number;
      },
      unknown: () => ({ error: `Unknown argument "${arg}".` }),
    };
  }
}
