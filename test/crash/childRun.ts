/**
 * One run of the crash harness's child (crashChild.ts): started with `node`, its `work` lines
 * counted, killed with SIGKILL (by its pid, nothing else) once it printed `killAfter` of them.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { ChildJob, ChildResult } from './childJob';

/** Ours: a child that neither finishes nor is killed in this long is stuck (the harness fails). */
export const CHILD_RUN_LIMIT_MS = 90_000;

export interface ChildRun {
  /** Killed by the harness (not by the time limit). */
  killed: boolean;
  /** `work` lines it printed. */
  work: number;
  /** What the last `work` line said (`records`, `outbox`, `download`, a backup's stage). */
  lastWork: string | null;
  /** Its last line's result; null when killed or when it failed. */
  result: ChildResult | null;
  exitCode: number | null;
  stderr: string;
}

/** Runs the child on `job`; `killAfter` null lets it finish. */
export function runChild(
  script: string,
  job: ChildJob,
  killAfter: number | null,
): Promise<ChildRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script], {
      env: { ...process.env, CRASH_CHILD: JSON.stringify(job) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const pid = child.pid;
    if (pid === undefined) {
      reject(new Error('The crash harness could not start its child process.'));
      return;
    }
    let work = 0;
    let lastWork: string | null = null;
    let killed = false;
    let result: ChildResult | null = null;
    let stderr = '';
    const kill = () => {
      if (child.exitCode === null && child.signalCode === null) process.kill(pid, 'SIGKILL');
    };
    const limit = setTimeout(kill, CHILD_RUN_LIMIT_MS);
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    createInterface({ input: child.stdout }).on('line', (line) => {
      if (line.startsWith('work ')) {
        work++;
        lastWork = line.slice('work '.length);
        if (killAfter !== null && work === killAfter && !killed) {
          killed = true;
          kill();
        }
      } else if (line.startsWith('result ')) {
        result = JSON.parse(line.slice('result '.length)) as ChildResult;
      }
    });
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(limit);
      if (signal === 'SIGKILL' && !killed) {
        reject(
          new Error(`The child ran past ${CHILD_RUN_LIMIT_MS} ms and was stopped.\n${stderr}`),
        );
        return;
      }
      resolve({ killed, work, lastWork, result: killed ? null : result, exitCode: code, stderr });
    });
  });
}
