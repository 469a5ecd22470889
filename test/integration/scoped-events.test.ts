import { describe, expect, it } from 'vitest';
import type { SuppressionEventInput } from '../../src/events/event-schema.js';
import { updateSettings } from '../../src/policy/settings-repository.js';
import { createSuppressionLookups } from '../../src/suppressions/suppression-lookups.js';
import { findSuppressionByEmail } from '../../src/suppressions/suppression-repository.js';
import { newAccount } from '../support/accounts.js';
import { uniqueEmail } from '../support/emails.js';
import { useEventWorker } from '../support/test-event-worker.js';
import { bounceEvent, complaintEvent } from '../support/test-events.js';
import { settled } from '../support/test-queue.js';

const setup = useEventWorker({ batchDelayMs: 2 });

async function publishAndSettle(event: SuppressionEventInput) {
  return settled(setup.events.queue, await setup.producer.publish(event));
}

/** Whether a send in this scope (none: a send of no scope) to the address is stopped. */
async function stopped(accountId: string, email: string, scope: string | null): Promise<boolean> {
  const [entry] = await createSuppressionLookups(setup.database.db).suppressing(accountId, [email], scope);
  return entry !== null;
}

describe('events about messages of a named scope', () => {
  it('when a complaint is about a message of a scope, then the address is suppressed in that scope only', async () => {
    const { accountId } = await newAccount(setup.database.db);
    const email = uniqueEmail();

    const { job } = await publishAndSettle({ ...complaintEvent(accountId, email), scope: 'newsletter' });

    expect(job.returnvalue.outcome).toBe('suppressed');
    expect(await findSuppressionByEmail(setup.database.db, accountId, email, 'newsletter')).toMatchObject({
      origin: 'complaint',
      scope: 'newsletter',
    });
    expect(await stopped(accountId, email, 'newsletter')).toBe(true);
    expect(await stopped(accountId, email, null)).toBe(false);
    expect(await stopped(accountId, email, 'promotions')).toBe(false);
  });

  it('when the account puts complaints on the whole account, then a complaint of a scope stops every send', async () => {
    const { accountId } = await newAccount(setup.database.db);
    await updateSettings(setup.database.db, accountId, { complaint_scope: 'global' });
    const email = uniqueEmail();

    await publishAndSettle({ ...complaintEvent(accountId, email), scope: 'newsletter' });

    expect(await findSuppressionByEmail(setup.database.db, accountId, email)).toMatchObject({ scope: null });
    expect(await stopped(accountId, email, null)).toBe(true);
  });

  it('when a bounce is about a message of a scope, then the address is suppressed for the whole account', async () => {
    const { accountId } = await newAccount(setup.database.db);
    const email = uniqueEmail();

    await publishAndSettle({ ...bounceEvent(accountId, email), scope: 'newsletter' });

    expect(await findSuppressionByEmail(setup.database.db, accountId, email)).toMatchObject({
      origin: 'bounce',
      scope: null,
    });
    expect(await stopped(accountId, email, null)).toBe(true);
  });

  it('when an address complained in a scope and then hard-bounces, then it gets an entry for the whole account too', async () => {
    const { accountId } = await newAccount(setup.database.db);
    const email = uniqueEmail();
    await publishAndSettle({ ...complaintEvent(accountId, email), scope: 'newsletter' });

    const { job } = await publishAndSettle(bounceEvent(accountId, email));

    expect(job.returnvalue.outcome).toBe('suppressed');
    expect(await stopped(accountId, email, null)).toBe(true);
  });

  it('when a second complaint comes in the same scope, then it finds the entry the first made', async () => {
    const { accountId } = await newAccount(setup.database.db);
    const email = uniqueEmail();
    const first = await publishAndSettle({ ...complaintEvent(accountId, email), scope: 'newsletter' });

    const second = await publishAndSettle({ ...complaintEvent(accountId, email), scope: 'newsletter' });

    expect(second.job.returnvalue).toEqual({
      outcome: 'already_suppressed',
      suppression_id: first.job.returnvalue.suppression_id,
    });
  });

  it('when an event names a scope that is not one, then the producer refuses it, the worker fails it at once naming scope, and nothing is written', async () => {
    const { accountId } = await newAccount(setup.database.db);
    const email = uniqueEmail();

    const event = { ...complaintEvent(accountId, email), scope: 'News Letter' };
    await expect(setup.producer.publish(event)).rejects.toThrow(/scope must be a scope/);
    // Put on the queue past the producer's check, as a producer of another language would.
    const queued = await setup.events.queue.add('complaint', event, { attempts: 5 });
    const { state, job } = await settled(setup.events.queue, queued.id!);

    expect(state).toBe('failed');
    expect(job.failedReason).toMatch(/^invalid event: scope must be a scope/);
    expect(await stopped(accountId, email, 'news letter')).toBe(false);
  });
});
