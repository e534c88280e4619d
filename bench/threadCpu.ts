// CPU time per OS thread of this process (Linux's /proc/self/task), to tell the engine's thread
// from the writer thread and from V8's and libuv's helpers (garbage collection runs partly on
// V8's helper threads). Node 20 names every thread "node", so threads are told apart by id: the
// engine's thread is the process's own id, the others are reported busiest first.
import { readdirSync, readFileSync } from 'node:fs';

const TICKS_PER_S = 100; // USER_HZ on Linux

/** Seconds of CPU a thread spent: in user space and in the kernel (system calls, page faults). */
export interface ThreadTime {
  user: number;
  system: number;
}
export type ThreadTimes = ReadonlyMap<number, ThreadTime>;

/** Seconds of CPU (user + system) of each of this process's threads; empty off Linux. */
export function threadCpuSeconds(): ThreadTimes {
  const times = new Map<number, ThreadTime>();
  let tasks: string[];
  try {
    tasks = readdirSync('/proc/self/task');
  } catch {
    return times;
  }
  for (const task of tasks) {
    try {
      const stat = readFileSync(`/proc/self/task/${task}/stat`, 'utf8');
      // Fields after the command's closing parenthesis: state is the 3rd field, utime the 14th.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      times.set(Number(task), {
        user: Number(fields[11]) / TICKS_PER_S,
        system: Number(fields[12]) / TICKS_PER_S,
      });
    } catch {
      // the thread ended between the listing and the read
    }
  }
  return times;
}

/** What each thread spent between two readings: the engine's thread, the busiest others, the rest. */
export function threadCpuSince(before: ThreadTimes, after = threadCpuSeconds(), top = 3) {
  const spent = [...after].map(([id, time]) => {
    const was = before.get(id) ?? { user: 0, system: 0 };
    const user = time.user - was.user;
    const system = time.system - was.system;
    return { id, s: user + system, system };
  });
  const round = (s: number) => Math.round(s * 100) / 100;
  const figure = (t: { s: number; system: number }) => ({
    s: round(t.s),
    system_s: round(t.system),
  });
  const engine = spent.find((t) => t.id === process.pid);
  const others = spent.filter((t) => t.id !== process.pid).sort((a, b) => b.s - a.s);
  return {
    engine: engine === undefined ? null : figure(engine),
    busiest_others: others.slice(0, top).map(figure),
    rest_s: round(others.slice(top).reduce((sum, t) => sum + t.s, 0)),
  };
}
