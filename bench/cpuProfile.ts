/**
 * A CPU profile of this thread (Chrome DevTools' .cpuprofile), what the benchmarks write when
 * their *_PROFILE variable names a file: `stop()` writes it there. Without a file, nothing is
 * recorded and `stop()` does nothing.
 */
import { writeFileSync } from 'node:fs';

export async function startCpuProfile(
  file: string | undefined,
): Promise<{ stop(): Promise<void> }> {
  if (!file) return { stop: async () => undefined };
  const { Session } = await import('node:inspector/promises');
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  return {
    async stop() {
      const { profile } = await session.post('Profiler.stop');
      writeFileSync(file, JSON.stringify(profile));
      session.disconnect();
    },
  };
}
