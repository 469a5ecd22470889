import { readFileSync } from 'node:fs';

/**
 * The settings that hold credentials: each may instead be read from a file named by `<NAME>_FILE`,
 * as container secrets are mounted, so that it never appears in the process's environment.
 */
export const SECRET_SETTINGS = [
  'DATABASE_URL',
  'DATABASE_READ_URL',
  'REDIS_URL',
  'ADMIN_TOKEN',
  'METRICS_TOKEN',
  'IMAP_PASSWORD',
] as const;

export interface SecretFiles {
  /** The environment with each secret read from its file, and no `_FILE` variable left. */
  env: Record<string, string>;
  /** One line per problem, naming the variable and the path; never a file's content. */
  problems: string[];
  /** The setting read from each file, by setting name: its `_FILE` variable. */
  readFrom: Map<string, string>;
}

/** Why a file could not be read, in the words of its error code only. */
function reason(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'EISDIR') return 'is a directory';
  return code ?? 'unreadable';
}

/** Reads every `<NAME>_FILE` of the secret settings into `<NAME>`; `env` holds only non-empty values. */
export function readSecretFiles(env: Record<string, string>): SecretFiles {
  const resolved = { ...env };
  const problems: string[] = [];
  const readFrom = new Map<string, string>();
  for (const name of SECRET_SETTINGS) {
    const fileVariable = `${name}_FILE`;
    const path = env[fileVariable];
    if (path === undefined) continue;
    delete resolved[fileVariable];
    if (env[name] !== undefined) {
      problems.push(`${name} and ${fileVariable}: set one or the other, not both`);
      continue;
    }
    let content: string;
    try {
      content = readFileSync(path, 'utf8');
    } catch (error) {
      problems.push(`${fileVariable}: cannot read ${path} (${reason(error)})`);
      continue;
    }
    // Editors and `echo` end a file with a newline that is no part of the secret.
    const value = content.replace(/\r?\n$/, '');
    if (value === '') {
      problems.push(`${fileVariable}: ${path} is empty`);
      continue;
    }
    resolved[name] = value;
    readFrom.set(name, fileVariable);
  }
  return { env: resolved, problems, readFrom };
}
