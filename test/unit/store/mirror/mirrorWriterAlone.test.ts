/**
 * The writer thread keeps its process alive while a write is pending (its port is held then,
 * and let go once nothing is): a process with nothing else to wait for (writerAloneChild.ts)
 * stores and says so, where it used to end in the middle of the `await`, with exit code 0 and
 * nothing stored (the crash harness's children did).
 */
import { spawnSync } from 'node:child_process';
import { afterAll, expect, it } from 'vitest';
import { workerBundle } from '../../../support/workerBundle';

const child = workerBundle('test/unit/store/mirror/writerAloneChild.ts');
afterAll(child.remove);

it('a process whose only pending work is a write waits for it, then ends', async () => {
  const script = await child.script();
  const run = spawnSync(process.execPath, [script], { encoding: 'utf8', timeout: 60_000 });
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
  expect(run.stdout).toBe('stored 1\n');
}, 120_000);
