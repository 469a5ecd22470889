import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';
import { eventJsonSchema } from '../../src/events/event-json-schema.js';

/** `npm run docs:event-schema`: writes docs/events.schema.json, the job format as a JSON Schema, as Prettier lays it out. */
const file = fileURLToPath(new URL('../../docs/events.schema.json', import.meta.url));
const options = await resolveConfig(file);
writeFileSync(file, await format(JSON.stringify(eventJsonSchema()), { ...options, filepath: file }));
