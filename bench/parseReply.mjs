// What reading a page of records costs the client (bench/parseReply.bench.ts): parseJsonBytes
// against decoding the page into one string and JSON.parse. Runs through vitest
// (bench/runVitestBench.mjs); stdout gets exactly one JSON line. Needs no build.
//
//   node bench/parseReply.mjs [--pages 20] [--rounds 30]
import { parseArgs } from 'node:util';
import { runVitestBench } from './runVitestBench.mjs';

const { values: args } = parseArgs({
  options: {
    pages: { type: 'string', default: '20' },
    rounds: { type: 'string', default: '30' },
  },
});

await runVitestBench({
  name: 'parse',
  file: 'bench/parseReply.bench.ts',
  env: { PARSE_BENCH_PAGES: args.pages, PARSE_BENCH_ROUNDS: args.rounds },
  outVariable: 'PARSE_BENCH_OUT',
});
