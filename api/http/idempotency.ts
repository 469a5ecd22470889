import { createHash } from 'node:crypto';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { AppError, isAppError } from '../../src/errors.js';
import type { Logger } from '../../src/logger.js';
import { callerOf } from './authenticate.js';
import { canonicalJson } from './canonical-json.js';
import type { RedisClient } from '../../src/redis.js';

export interface IdempotencyOptions {
  /** A fail-fast ('request' role) client. */
  redis: RedisClient;
  logger: Logger;
  /** Namespace of the records in Redis (REDIS_KEY_PREFIX). */
  keyPrefix: string;
}

/** How long a finished response is replayed. */
const TTL_SECONDS = 24 * 60 * 60;
/** How long a "running" marker holds the key, so that a crashed request frees it. */
const LOCK_SECONDS = 60;

export const IDEMPOTENCY_HEADER = 'idempotency-key';
const MAX_KEY_LENGTH = 256;

type StoredRecord =
  { state: 'running'; fingerprint: string } | { state: 'done'; fingerprint: string; status: number; body: unknown };

function fingerprintOf(req: Request): string {
  return createHash('sha256')
    .update(`${req.method}\n${req.baseUrl}${req.path}\n${canonicalJson(req.body)}`)
    .digest('hex');
}

function unavailable(error: unknown): AppError {
  return new AppError('service_unavailable', 'Idempotency keys cannot be checked right now. Retry shortly.', {
    cause: error,
  });
}

/**
 * `Idempotency-Key` for POST requests. Mount it after `authenticate` and the body parser. The first
 * request with a key takes a "running" marker (SET NX with a short TTL), runs, and its response
 * (status and JSON body) is stored for `TTL_SECONDS` before it is sent; a repeat with the same
 * method, path and body replays it with `idempotent-replayed: true`. Responses of 5xx are not
 * stored (the marker is dropped so a retry runs again); 4xx are stored and replayed. Keys are
 * scoped per account. Without the header, Redis is not touched.
 */
export function idempotency(options: IdempotencyOptions): RequestHandler {
  const { redis, logger } = options;
  const prefix = `${options.keyPrefix}idempotency`;

  /** Takes the key, or answers from what is already stored under it. */
  async function claim(redisKey: string, fingerprint: string): Promise<StoredRecord | null> {
    const running = JSON.stringify({ state: 'running', fingerprint } satisfies StoredRecord);
    // A record that expires between SET NX and GET is simply claimed on the next round.
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const taken = await redis.set(redisKey, running, 'EX', LOCK_SECONDS, 'NX');
      if (taken === 'OK') return null;
      const stored = await redis.get(redisKey);
      if (stored !== null) return JSON.parse(stored) as StoredRecord;
    }
    throw new AppError('concurrent_idempotent_requests');
  }

  return async function idempotentRequest(req: Request, res: Response, next: NextFunction): Promise<void> {
    const key = req.get(IDEMPOTENCY_HEADER);
    if (req.method !== 'POST' || key === undefined) {
      next();
      return;
    }
    if (key.length < 1 || key.length > MAX_KEY_LENGTH) throw new AppError('invalid_idempotency_key');

    const redisKey = `${prefix}:${callerOf(res).accountId}:${key}`;
    const fingerprint = fingerprintOf(req);
    let existing: StoredRecord | null;
    try {
      existing = await claim(redisKey, fingerprint);
    } catch (error) {
      if (isAppError(error, 'concurrent_idempotent_requests')) throw error;
      throw unavailable(error);
    }

    if (existing !== null) {
      if (existing.fingerprint !== fingerprint) throw new AppError('invalid_idempotent_request');
      if (existing.state === 'running') throw new AppError('concurrent_idempotent_requests');
      res.set('idempotent-replayed', 'true');
      res.status(existing.status).json(existing.body);
      return;
    }

    // Store the outcome before it is sent, so that a client retrying at once finds it. `res.json`
    // and a handler's own JSON text (the check's) both end in `res.send` with the body as text.
    const send = res.send.bind(res);
    let settled = false;
    res.send = function storeThenSend(body?: unknown): Response {
      if (settled || typeof body !== 'string' || !/^application\/json\b/.test(res.get('content-type') ?? '')) {
        return send(body);
      }
      settled = true;
      const status = res.statusCode;
      // The record as `StoredRecord` has it, the body's JSON text set in as it is.
      const record = `{"state":"done","fingerprint":${JSON.stringify(fingerprint)},"status":${status},"body":${body}}`;
      const stored: Promise<unknown> =
        status >= 500 ? redis.del(redisKey) : redis.set(redisKey, record, 'EX', TTL_SECONDS);
      stored
        .catch((error: unknown) => logger.warn({ err: error, status }, 'could not store the idempotent response'))
        .finally(() => send(body));
      return res;
    };
    // A response that ends some other way (a dropped connection, a non-JSON answer) frees the key;
    // a JSON answer that still comes later is stored all the same.
    res.once('close', () => {
      if (settled) return;
      redis
        .del(redisKey)
        .catch((error: unknown) => logger.warn({ err: error }, 'could not release an idempotency key'));
    });
    next();
  };
}
