import { existsSync, readFileSync } from 'node:fs';
import { parseEnv } from 'node:util';

/**
 * Reads `path` (the `.env` that docker compose reads too, `.env.example` shows it) into `env`,
 * leaving every variable that is already set as it is: the shell's environment wins. Answers the
 * names it set; a missing file sets nothing.
 */
export function loadDotEnv(path: string, env: NodeJS.ProcessEnv = process.env): string[] {
  if (!existsSync(path)) return [];
  const set: string[] = [];
  for (const [name, value] of Object.entries(parseEnv(readFileSync(path, 'utf8')))) {
    if (env[name] !== undefined || value === undefined) continue;
    env[name] = value;
    set.push(name);
  }
  return set;
}
