import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Where `npm run build` writes the console: dist/console. From the compiled module
 * (dist/api/console/console-dir.js) that is two folders up, beside dist/api; run from source
 * (api/console/console-dir.ts, under tsx), it is the same dist/console, if a build was made.
 */
export function builtConsoleDir(): string {
  const apiDir = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
  const parent = path.dirname(apiDir);
  const dist = path.basename(parent) === 'dist' ? parent : path.join(parent, 'dist');
  return path.join(dist, 'console');
}
