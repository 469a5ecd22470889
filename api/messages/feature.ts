import { defineFeature } from '../http/endpoints.js';
import type { MessagesDeps } from './deps.js';
import { parseMessageEndpoint } from './parse.js';
import { queueMessageEndpoint } from './queue.js';

/** Where the mail message endpoints are mounted. */
const MESSAGES_PATH = '/messages';

/** Raw bounces, complaints and automatic replies, handed in or read without a record. */
export const messagesFeature = defineFeature<MessagesDeps>(MESSAGES_PATH, [queueMessageEndpoint, parseMessageEndpoint]);
