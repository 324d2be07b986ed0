import assert from 'node:assert/strict';
import { ConfigError, loadConfig } from '../../config/index.ts';

/** Asserts loadConfig refuses `env` with a ConfigError naming `variable`; returns the error. */
export function assertRefused(env: NodeJS.ProcessEnv, variable: string): ConfigError {
  let caught: unknown;
  try {
    loadConfig(env);
  } catch (error) {
    caught = error;
  }
  assert.ok(caught instanceof ConfigError, `expected a ConfigError for ${variable}, got ${String(caught)}`);
  assert.match(caught.message, new RegExp(`\\b${variable}\\b`));
  return caught;
}
