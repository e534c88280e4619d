/** `npm run emulator`: the REST API v3 and accounts emulator as a command. */
import { EMULATOR_USAGE, parseEmulatorArgs, type EmulatorCli } from './cliArgs';
import { startEmulator } from './index';

async function main(): Promise<void> {
  let cli: EmulatorCli;
  try {
    cli = parseEmulatorArgs(process.argv.slice(2));
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : error}\n\n${EMULATOR_USAGE}`);
    process.exit(2);
  }
  if (cli.help) {
    console.log(EMULATOR_USAGE);
    return;
  }
  const began = Date.now();
  const emulator = await startEmulator(cli.options).catch((error: unknown) => {
    console.error(
      `The emulator could not start: ${error instanceof Error ? error.message : error}`,
    );
    process.exit(1);
  });
  const facts = {
    dcs: emulator.dcs,
    client_id: emulator.client.clientId,
    client_secret: emulator.client.clientSecret,
    client_secrets: emulator.clientSecrets,
    redirect_uri: emulator.client.redirectUri,
    portals: emulator.portals,
    user: emulator.user,
    admin_secret: emulator.adminSecret,
    comment_segment: emulator.commentSegment,
  };
  if (cli.json) {
    console.log(JSON.stringify(facts));
  } else {
    console.log(`PortalDesk API emulator ready in ${Date.now() - began} ms`);
    for (const [dc, address] of Object.entries(emulator.dcs)) {
      console.log(
        `  ${dc.toUpperCase()}: API ${address.api}${address.accounts ? `, accounts ${address.accounts}` : ' (API only)'}`,
      );
    }
    console.log(
      `  client: ${facts.client_id} / ${facts.client_secret}, redirect ${facts.redirect_uri}`,
    );
    console.log(`  user: ${facts.user.email} / ${facts.user.password}`);
    console.log(`  portals: ${facts.portals.join(', ')}`);
    console.log(`  admin secret (header X-Emulator-Admin): ${facts.admin_secret}`);
    console.log('  press Ctrl+C to stop');
  }
  const stop = () => {
    void emulator.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

void main();
