import { Command, InvalidArgumentError } from 'commander';
import type { Queryable } from '../../src/db/database.js';
import { findWebhookForAdmin, listWebhooksForAdmin, type AdminWebhook } from '../../src/webhooks/webhook-admin.js';
import { listAttempts, listDeliveries, type LoggedAttempt, type LoggedDelivery } from '../../src/webhooks/event-log.js';
import { isUuid } from '../../src/domain/ids.js';
import { findListAccount } from '../lists/list-account.js';
import { printTable, type CliContext } from '../cli-context.js';
import { withRuntime } from '../with-runtime.js';

/** Characters of an endpoint's response shown: enough to recognise an error page or message. */
const RESPONSE_SHOWN = 200;
/** Attempts read per query while collecting all of a delivery's attempts. */
const ATTEMPT_PAGE = 100;

function wholeNumber(value: string): number {
  if (!/^[0-9]+$/.test(value) || Number(value) < 1)
    throw new InvalidArgumentError('must be a whole number of at least 1');
  return Number(value);
}

const isoOrNull = (date: Date | null): string | null => (date ? date.toISOString() : null);

interface DeliveryWithAttempts {
  delivery: LoggedDelivery;
  /** Every attempt, newest first. */
  attempts: LoggedAttempt[];
}

/** A delivery's attempts are few (eight a round), but a replay starts another round: read them all. */
async function allAttempts(db: Queryable, deliveryId: string): Promise<LoggedAttempt[]> {
  const attempts: LoggedAttempt[] = [];
  let after: string | undefined;
  for (;;) {
    const page = await listAttempts(db, deliveryId, { limit: ATTEMPT_PAGE, after });
    attempts.push(...page.attempts);
    if (!page.hasMore) return attempts;
    after = page.attempts.at(-1)?.id;
  }
}

function deliveriesJson(webhook: AdminWebhook, deliveries: DeliveryWithAttempts[], hasMore: boolean): string {
  const document = {
    webhook_id: webhook.id,
    account_id: webhook.accountId,
    account: webhook.accountName,
    endpoint: webhook.endpoint,
    deliveries: deliveries.map(({ delivery, attempts }) => ({
      id: delivery.id,
      type: delivery.type,
      created_at: delivery.createdAt.toISOString(),
      status: delivery.status,
      next_attempt_at: isoOrNull(delivery.nextAttemptAt),
      attempts: attempts.map((attempt) => ({
        sent_at: attempt.sentAt.toISOString(),
        http_status_code: attempt.httpStatusCode,
        response: attempt.response.slice(0, RESPONSE_SHOWN),
        duration_ms: attempt.durationMs,
      })),
    })),
    has_more: hasMore,
  };
  return `${JSON.stringify(document)}\n`;
}

/**
 * The response on one line: the endpoint chose these bytes, so control characters (a terminal
 * escape sequence among them) are blanked before they reach the operator's terminal.
 */
function oneLineResponse(response: string): string {
  const flat = response
    .replace(/\p{Cc}/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (flat === '') return '-';
  return flat.length > RESPONSE_SHOWN ? `${flat.slice(0, RESPONSE_SHOWN)}…` : flat;
}

/** Pads every column but the last to its widest cell, so free text at the end never widens the table. */
function aligned(rows: readonly (readonly string[])[]): string[] {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, column) => (widths[column] = Math.max(widths[column] ?? 0, cell.length)));
  return rows.map((row) =>
    row
      .map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column] ?? 0)))
      .join('  ')
      .trimEnd(),
  );
}

const DELIVERY_HEADER = ['DELIVERY ID', 'TYPE', 'STATUS', 'CREATED AT', 'NEXT ATTEMPT AT'];
const ATTEMPT_HEADER = ['SENT AT', 'HTTP', 'DURATION', 'RESPONSE'];
const ATTEMPT_INDENT = '    ';

function deliveriesText(webhook: AdminWebhook, deliveries: DeliveryWithAttempts[], hasMore: boolean): string {
  const title = `Webhook ${webhook.id} of account "${webhook.accountName}": ${webhook.endpoint} (${webhook.status})`;
  if (deliveries.length === 0) return `${title}\nNo deliveries.\n`;
  const count = `${deliveries.length} deliver${deliveries.length === 1 ? 'y' : 'ies'}, newest first`;
  const summary = hasMore ? `${count}; older ones with a higher --limit.` : `${count}.`;

  const deliveryLines = aligned([
    DELIVERY_HEADER,
    ...deliveries.map(({ delivery }) => [
      delivery.id,
      delivery.type,
      delivery.status,
      delivery.createdAt.toISOString(),
      isoOrNull(delivery.nextAttemptAt) ?? '-',
    ]),
  ]);
  // Attempt columns are aligned over every delivery's attempts, so the blocks read as one table.
  const attemptRows = deliveries.map(({ attempts }) =>
    attempts.map((attempt) => [
      attempt.sentAt.toISOString(),
      // 0 is recorded when no HTTP status came back (refused, no connection, timeout).
      attempt.httpStatusCode === 0 ? '-' : String(attempt.httpStatusCode),
      `${attempt.durationMs} ms`,
      oneLineResponse(attempt.response),
    ]),
  );
  const attemptLines = aligned([ATTEMPT_HEADER, ...attemptRows.flat()]);
  const [attemptHeader = '', ...attemptBody] = attemptLines;
  let taken = 0;
  const blocks = deliveries.flatMap((_, index) => {
    const count = attemptRows[index]?.length ?? 0;
    const attempts = count === 0 ? ['no attempts yet'] : [attemptHeader, ...attemptBody.slice(taken, taken + count)];
    taken += count;
    return [deliveryLines[index + 1] ?? '', ...attempts.map((line) => `${ATTEMPT_INDENT}${line}`)];
  });
  return [title, summary, '', deliveryLines[0] ?? '', ...blocks].join('\n') + '\n';
}

export function webhooksCommand(context: CliContext): Command {
  const webhooks = new Command('webhooks').description("inspect accounts' change-event webhooks and their deliveries");

  webhooks
    .command('list')
    .description('list webhooks (never their signing secrets)')
    .option('--account <name-or-id>', 'only this account')
    .option(
      '--json',
      'print one JSON object per line: {"webhook_id","account_id","account","endpoint","events","status","created_at"}',
    )
    .action(async (options: { account?: string; json?: boolean }) => {
      await withRuntime(context, async ({ db }) => {
        const account = options.account === undefined ? undefined : await findListAccount(db, options.account);
        const rows = await listWebhooksForAdmin(db, account?.id);
        if (options.json) {
          for (const row of rows) {
            const line = {
              webhook_id: row.id,
              account_id: row.accountId,
              account: row.accountName,
              endpoint: row.endpoint,
              events: row.events,
              status: row.status,
              created_at: row.createdAt.toISOString(),
            };
            context.stdout.write(`${JSON.stringify(line)}\n`);
          }
          return;
        }
        if (rows.length === 0) {
          context.stdout.write('No webhooks.\n');
          return;
        }
        printTable(
          context,
          rows.map((row) => ({
            webhook_id: row.id,
            account: row.accountName,
            endpoint: row.endpoint,
            events: row.events.join(', '),
            status: row.status,
            created_at: row.createdAt.toISOString(),
          })),
        );
      });
    });

  webhooks
    .command('deliveries')
    .description("show a webhook's most recent deliveries, newest first, each with its attempts (newest first)")
    .argument('<webhook-id>', 'the webhook id shown by `webhooks list`')
    .option('--limit <n>', 'how many deliveries to show', wholeNumber, 20)
    .option(
      '--json',
      'print one JSON document: {"webhook_id","account_id","account","endpoint","deliveries","has_more"}',
    )
    .addHelpText(
      'after',
      `
Each attempt shows when it was sent, the HTTP status (0 in JSON, - in text, when none came back:
refused, no connection, or the timeout), how long it took, and the first ${RESPONSE_SHOWN} characters
of the response.`,
    )
    .action(async (webhookId: string, options: { limit: number; json?: boolean }) => {
      if (!isUuid(webhookId)) throw new Error(`"${webhookId}" is not a webhook id (a UUID).`);
      await withRuntime(context, async ({ db }) => {
        const webhook = await findWebhookForAdmin(db, webhookId.toLowerCase());
        if (!webhook) throw new Error(`No webhook with id ${webhookId}.`);
        const page = await listDeliveries(db, webhook.id, { limit: options.limit });
        const deliveries = await Promise.all(
          page.deliveries.map(async (delivery) => ({ delivery, attempts: await allAttempts(db, delivery.id) })),
        );
        context.stdout.write(
          options.json
            ? deliveriesJson(webhook, deliveries, page.hasMore)
            : deliveriesText(webhook, deliveries, page.hasMore),
        );
      });
    });

  return webhooks;
}
