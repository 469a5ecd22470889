import { MAX_POSTED_EVENTS } from '../contract/limits.js';
import { errorMessage } from '../error-codes.js';
import { AppError, invalidField } from '../errors.js';
import { safeParseSuppressionEvent, type EventProblem, type SuppressionEvent } from './event-schema.js';

/** Invalid events whose every problem a refusal spells out; the others are named by index only. */
const DETAILED_EVENTS = 10;

const LIMIT = MAX_POSTED_EVENTS.toLocaleString('en');

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The event as the key's account sends it: its account filled in when left out (or null), and
 * without `feed_id`, which only the service's own provider feeds set (it names the feed as the
 * record's maker).
 */
function ofTheKeysAccount(event: unknown, accountId: string): unknown {
  if (!isObject(event)) return event;
  const own = { ...event };
  delete own['feed_id'];
  own['account_id'] ??= accountId;
  return own;
}

/**
 * No key may reactivate: a reactivation lifts entries that `DELETE` protects (a complaint's), so it
 * comes only from a provider feed, whose signature the service verified.
 */
const FEEDS_ONLY: EventProblem = {
  path: 'type',
  message: 'must be bounce or complaint: a reactivation comes only from a provider feed (POST /feeds/{id})',
};

/** An event naming another account: refused as a wrong field, so that no answer says whether that account exists. */
function otherAccount(event: unknown, accountId: string): EventProblem | null {
  if (!isObject(event) || typeof event['account_id'] !== 'string') return null;
  if (event['account_id'].toLowerCase() === accountId.toLowerCase()) return null;
  return { path: 'account_id', message: 'must be the API key’s account, or be left out' };
}

function refusal(invalid: ReadonlyMap<number, EventProblem[]>, total: number): AppError {
  const entries = [...invalid];
  const detailed = entries.slice(0, DETAILED_EVENTS).flatMap(([index, problems]) =>
    problems.map(({ path, message }) =>
      // A problem without a path is the item itself, which can only be something other than an object.
      path
        ? errorMessage('validation_error', { field: `events[${index}].${path}`, problem: message })
        : errorMessage('validation_error', { field: `events[${index}]`, problem: 'must be an event: a JSON object' }),
    ),
  );
  const rest = entries.slice(DETAILED_EVENTS).map(([index]) => `events[${index}]`);
  const more = rest.length > 0 ? `; ${rest.length} more invalid: ${rest.join(', ')}` : '';
  const subject =
    total === 1 ? 'The event is' : `${invalid.size} of ${total} events ${invalid.size === 1 ? 'is' : 'are'}`;
  return new AppError('validation_error', `${subject} invalid, and nothing was queued: ${detailed.join('; ')}${more}.`);
}

/**
 * The events of a `POST /events` body (`{"events": [...]}`), each validated as the workers will and
 * given the key's account, or a 422 that names every invalid event by its index. One invalid event
 * refuses them all, so that a corrected request can be sent again whole.
 */
export function parsePostedEvents(body: unknown, accountId: string): SuppressionEvent[] {
  if (!isObject(body)) {
    throw new AppError(
      'validation_error',
      `The request body must be a JSON object with \`events\`: a list of 1 to ${LIMIT} events.`,
    );
  }
  const { events } = body;
  if (events === undefined) throw invalidField('events', `is required: a list of 1 to ${LIMIT} events.`);
  if (!Array.isArray(events)) throw invalidField('events', `must be a list of 1 to ${LIMIT} events.`);
  if (events.length === 0) throw invalidField('events', 'must hold at least one event.');
  if (events.length > MAX_POSTED_EVENTS) {
    throw invalidField('events', `must hold at most ${LIMIT} events; send more in several requests.`);
  }

  const parsed: SuppressionEvent[] = [];
  const invalid = new Map<number, EventProblem[]>();
  for (const [index, event] of events.entries()) {
    const result = safeParseSuppressionEvent(ofTheKeysAccount(event, accountId));
    const problems = result.success ? [] : result.problems.filter((problem) => problem.path !== 'feed_id');
    if (isObject(event) && event['type'] === 'reactivation') problems.unshift(FEEDS_ONLY);
    const foreign = otherAccount(event, accountId);
    if (foreign && !problems.some((problem) => problem.path === foreign.path)) problems.push(foreign);
    if (problems.length > 0) invalid.set(index, problems);
    else if (result.success) parsed.push(result.event);
  }
  if (invalid.size > 0) throw refusal(invalid, events.length);
  return parsed;
}

/** Queues validated events; resolves to their job ids, in order, once Redis holds every one. */
export type PublishEvents = (events: readonly SuppressionEvent[]) => Promise<readonly string[]>;

/**
 * Validates the events of a `POST /events` body and queues them all, or none: the job ids, in the
 * order of the request, and how many of each type were queued. Without a queue, or with Redis
 * unreachable, a 503 the caller retries.
 */
export async function queuePostedEvents(
  body: unknown,
  accountId: string,
  publish: PublishEvents | undefined,
): Promise<{ jobIds: readonly string[]; types: ReadonlyMap<string, number> }> {
  const events = parsePostedEvents(body, accountId);
  if (!publish) throw new AppError('service_unavailable', 'The event queue is not available.');
  try {
    const jobIds = await publish(events);
    const types = new Map<string, number>();
    for (const event of events) types.set(event.type, (types.get(event.type) ?? 0) + 1);
    return { jobIds, types };
  } catch (error) {
    throw new AppError('service_unavailable', 'The event queue is unavailable. Try again shortly.', { cause: error });
  }
}
