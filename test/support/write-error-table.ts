import { readFileSync, writeFileSync } from 'node:fs';
import { withErrorTable } from './error-table.js';

/** `npm run docs:errors`: writes docs/api.md's table of errors from `ERROR_CODES`. */
const file = new URL('../../docs/api.md', import.meta.url);
writeFileSync(file, withErrorTable(readFileSync(file, 'utf8')));
