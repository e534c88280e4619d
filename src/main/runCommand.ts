/**
 * The shell of the engine's commands (web mode: web.ts, the headless router: routerCli.ts): parse
 * the command line (usage on an error, exit 2; on --help, exit 0), run, exit with the code `run`
 * returns; an unexpected error is printed and exits 1. `untilStopped` resolves on Ctrl+C (or
 * SIGTERM), so `run` can close what it opened before the process exits.
 */
export interface Command<A extends { help: boolean }> {
  usage: string;
  parse(argv: readonly string[]): A | { error: string };
  run(args: A, untilStopped: () => Promise<void>): Promise<number>;
}

const untilStopped = (): Promise<void> =>
  new Promise<void>((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });

export function runCommand<A extends { help: boolean }>(command: Command<A>): void {
  const main = async (): Promise<number> => {
    const args = command.parse(process.argv.slice(2));
    if ('error' in args) {
      console.error(`${args.error}\n\n${command.usage}`);
      return 2;
    }
    if (args.help) {
      console.log(command.usage);
      return 0;
    }
    return command.run(args, untilStopped);
  };
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
