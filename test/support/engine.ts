import { afterEach } from 'vitest';
import { startEngine, type Engine, type EngineOptions } from '../../src/main/engine';
import { tempDir } from './tempDir';

const running: Engine[] = [];

afterEach(() => {
  for (const engine of running.splice(0)) engine.close();
});

/** An engine on a fresh data directory, closed after the current test. */
export function testEngine(options: Partial<EngineOptions> = {}): Engine {
  const engine = startEngine({
    dataDir: tempDir(),
    mode: 'web',
    version: '0.0.0-test',
    log: { warn: () => undefined, error: () => undefined },
    ...options,
  });
  running.push(engine);
  return engine;
}
