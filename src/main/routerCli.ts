/**
 * The headless event-router sandbox: `node out/main/router.js --config FILE [--port 0]
 * [--admin-port 0] [--time-scale 1] [--json] [--db FILE]` (npm run router). Runs until Ctrl+C.
 */
import {
  HEADLESS_USAGE,
  parseHeadlessArgs,
  type HeadlessArgs,
} from './router/headless/headlessArgs';
import { runHeadlessRouter } from './router/headless/runHeadlessRouter';
import { runCommand } from './runCommand';

async function main(args: HeadlessArgs, untilStopped: () => Promise<void>): Promise<number> {
  let router;
  try {
    router = await runHeadlessRouter(args);
  } catch (error) {
    console.error(
      `The router sandbox could not start: ${error instanceof Error ? error.message : String(error)}`,
    );
    return 1;
  }
  if (args.json) {
    console.log(
      JSON.stringify({
        ingress: router.ingress,
        admin: router.admin,
        admin_token: router.adminToken,
      }),
    );
  } else {
    console.log(`PortalDesk event-router sandbox`);
    console.log(
      `  ingress:     ${router.ingress}/publishers/{publisher_id}/events/{event_api_name}`,
    );
    console.log(`  admin API:   ${router.admin} (Authorization: Bearer ${router.adminToken})`);
    console.log(`  time scale:  ${args.timeScale}x; press Ctrl+C to stop`);
  }
  await untilStopped();
  await router.close();
  return 0;
}

runCommand({ usage: HEADLESS_USAGE, parse: parseHeadlessArgs, run: main });
