/**
 * The engine's command lines (web mode: webArgs, the headless router: router/headlessArgs), read
 * by Node's own `util.parseArgs` (strict: an unknown or malformed argument is an error, never
 * ignored; `--name value` and `--name=value` alike). What is ours: the messages in words, and
 * the port check.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';

/** The TCP ports a `--port`-like flag may name; 0 picks any free port. */
const PORT_MAX = 65_535;

/** The values of `argv` by option name, or a message saying what is wrong with it. */
export function readFlags(
  argv: readonly string[],
  options: NonNullable<ParseArgsConfig['options']>,
): { values: Record<string, string | boolean | undefined> } | { error: string } {
  try {
    const parsed = parseArgs({ args: [...argv], options, strict: true, allowPositionals: false });
    return { values: parsed.values as Record<string, string | boolean | undefined> };
  } catch (error) {
    const code = (error as { code?: string }).code;
    const message = error instanceof Error ? error.message : String(error);
    // parseArgs names the argument in quotes: '--port <value>', '--host', 'stray'.
    const named = /'([^'\s]+)/.exec(message)?.[1];
    if (
      code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' ||
      code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL'
    ) {
      return { error: `Unknown argument "${named ?? message}".` };
    }
    if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
      return {
        error: `${named ?? 'An option'} needs a value (write --name=value for one that starts with "-").`,
      };
    }
    return { error: message };
  }
}

/** A port from a flag's text, 0 to 65535, or a message naming the flag. */
export function portValue(flag: string, text: string | undefined): number | { error: string } {
  const number = Number(text);
  if (text === undefined || !/^\d+$/.test(text) || number > PORT_MAX) {
    return { error: `${flag} needs a whole number from 0 to ${PORT_MAX}, not "${text ?? ''}".` };
  }
  return number;
}
