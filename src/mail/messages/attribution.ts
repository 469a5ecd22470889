import type { Queryable } from '../../db/database.js';
import type { UnverifiedReason } from '../../domain/mail-records.js';
import type { Scope } from '../../domain/scope.js';
import type { ParsedMailMessage } from '../report/mail-record.js';
import { returnPathToken } from '../return-paths/address.js';
import { messageReferenceOf, verifyReturnPath, type ReturnPathPlace } from '../return-paths/verify.js';
import type { MailEnvelope } from './mail-job.js';

/** Whom a message's records act for. */
export type Attribution =
  | {
      verified: true;
      accountId: string;
      /**
       * The recipient the return path was made for: whom the records act on, whatever address the
       * report names (an alias or a forward changes nothing); null where no return path was signed,
       * and each record acts on the recipient it names.
       */
      recipient: string | null;
      scope: Scope;
      /** `token`: a return path signed by the service; `bounce_domain`: a domain set to act without one. */
      by: 'token' | 'bounce_domain';
    }
  | { verified: false; reason: UnverifiedReason };

export interface AttributionSettings extends ReturnPathPlace {
  /**
   * Bounce domains whose reports act for an account without a return path (`MAIL_UNSIGNED_DOMAINS`):
   * mail sent before the sender used VERP. Their records act on the recipients they name.
   */
  unsignedDomains: ReadonlyMap<string, string>;
}

/**
 * The addresses a message may have come to, most telling first. A complaint is sent to the address
 * registered with the feedback loop, so its return path is the one of the original it encloses; a
 * bounce is sent to the original's return path, which the envelope or the report's headers show.
 */
function candidates(parsed: ParsedMailMessage, envelope: MailEnvelope): string[] {
  const complaint = parsed.records.some((record) => record.kind === 'complaint');
  const original = parsed.original?.return_path ? [parsed.original.return_path] : [];
  const delivered = [...envelope.rcpt_to, ...parsed.report.delivered_to, ...parsed.report.to];
  const all = complaint ? [...original, ...delivered] : [...delivered, ...original];
  return [...new Set(all.map((address) => address.trim().replace(/^<|>$/g, '').toLowerCase()))].filter(
    (address) => address !== '',
  );
}

function domainOf(address: string): string {
  return address.slice(address.lastIndexOf('@') + 1);
}

/**
 * Whose mail the message is about. Only a return path the service signed, for the message the report
 * encloses (when it names it), makes a message act; an upload acts only for its own account.
 */
export async function attributeMessage(
  db: Queryable,
  parsed: ParsedMailMessage,
  envelope: MailEnvelope,
  settings: AttributionSettings,
  { now, uploadedBy }: { now: Date; uploadedBy?: string },
): Promise<Attribution> {
  const addresses = candidates(parsed, envelope);
  let first: UnverifiedReason | undefined;
  for (const address of addresses) {
    if (returnPathToken(address, settings) === null) continue;
    const verified = await verifyReturnPath(db, address, { ...settings, now });
    if (!verified.ok) {
      first ??= verified.problem === 'not_a_return_path' ? 'no_return_path' : verified.problem;
      continue;
    }
    const messageId = parsed.original?.message_id;
    if (verified.messageRef !== null && messageId && messageReferenceOf(messageId) !== verified.messageRef) {
      first ??= 'other_message';
      continue;
    }
    if (uploadedBy !== undefined && uploadedBy !== verified.accountId) {
      first ??= 'other_account';
      continue;
    }
    return {
      verified: true,
      accountId: verified.accountId,
      recipient: verified.recipient,
      scope: verified.scope,
      by: 'token',
    };
  }
  if (first !== undefined) return { verified: false, reason: first };
  for (const address of addresses) {
    const accountId = settings.unsignedDomains.get(domainOf(address));
    if (accountId === undefined) continue;
    if (uploadedBy !== undefined && uploadedBy !== accountId) return { verified: false, reason: 'other_account' };
    return { verified: true, accountId, recipient: null, scope: null, by: 'bounce_domain' };
  }
  return { verified: false, reason: 'no_return_path' };
}
