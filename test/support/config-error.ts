import { expect } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';

/** The ConfigError that loading this environment throws. */
export function configErrorFor(env: NodeJS.ProcessEnv): ConfigError {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error(`expected ${JSON.stringify(env)} to be refused`);
}
