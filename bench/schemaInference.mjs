// Schema inference (issue 14): @jsonhero/schema-infer, which the router used before, against
// PortalDesk's own inference, on the samples, and the cost of one default-publisher
// event through the router engine. Runs bench/schemaInference.bench.ts through vitest
// (bench/runVitestBench.mjs); stdout gets exactly one JSON line. Needs no build.
//
//   node bench/schemaInference.mjs [--old-max-keys 5000]
//
// The old library takes minutes past a few thousand keys: samples with more keys than
// --old-max-keys are not given to it (null in the output).
import { parseArgs } from 'node:util';
import { runVitestBench } from './runVitestBench.mjs';

const { values: args } = parseArgs({
  options: { 'old-max-keys': { type: 'string', default: '5000' } },
});

await runVitestBench({
  name: 'schemaInference',
  file: 'bench/schemaInference.bench.ts',
  env: { INFERENCE_BENCH_OLD_MAX_KEYS: args['old-max-keys'] },
  outVariable: 'INFERENCE_BENCH_OUT',
});
