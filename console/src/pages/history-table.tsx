import type { AuditRecord } from '../api.js';
import { categoryLabel, reasonLabel } from '../bounces.js';
import { formatTime } from '../format.js';

const OUTCOMES: Record<string, string> = {
  suppressed: 'Added to the list',
  suppressed_soft_bounce_threshold: 'Added: soft-bounce threshold reached',
  already_suppressed: 'Already on the list',
  not_suppressed: 'Not added',
  removed: 'Removed from the list',
  allowlisted: 'Not added: allowlisted',
};

const EVENT_NAMES: Record<AuditRecord['type'], string> = {
  bounce: 'Bounce',
  complaint: 'Complaint',
  removal: 'Removal',
  addition: 'Added',
};

/** Who made a record, in words: a key, the console, a feed, a queue or import, a recipient, the service. */
function actorText({ type, id }: AuditRecord['actor']) {
  const named = (what: string) =>
    id === null ? (
      <>{what}</>
    ) : (
      <>
        {what} <span class="mono">{id}</span>
      </>
    );
  if (type === 'api_key') return named('By API key');
  if (type === 'console') return named('In the console, with key');
  if (type === 'feed') return id === null ? <>By a provider feed</> : named('By feed');
  if (type === 'queue') return id === null ? <>By a queued job</> : named('By import');
  if (type === 'unsubscribe_link') return <>By the recipient’s unsubscribe link</>;
  return <>By the service</>;
}

function bounceKind(bounce: NonNullable<AuditRecord['bounce']>): string | null {
  const type = bounce.type === 'permanent' ? 'Permanent' : bounce.type === 'transient' ? 'Transient' : bounce.type;
  // A record whose provider gave no type has `null`: its sub-type alone, rather than "null (…)".
  if (type === null) return bounce.sub_type;
  return bounce.sub_type ? `${type} (${bounce.sub_type})` : type;
}

/** What the classifier made of a bounce: its category, reason and deciding rule, and which rules those were. */
function Classification({ bounce }: { bounce: NonNullable<AuditRecord['bounce']> }) {
  const classification = bounce.classification;
  if (!classification) {
    return (
      <span class="classification">
        <span class="muted">Not classified</span> <small class="muted">(recorded before bounces were classified)</small>
      </span>
    );
  }
  return (
    <span class="classification">
      <span class={`category-tag category-${classification.category}`}>{categoryLabel(classification.category)}</span>{' '}
      <span class="reason">{reasonLabel(classification.reason)}</span>
      <span class="rule muted">
        rule <code>{classification.rule}</code> · <small>classifier {classification.version}</small>
      </span>
    </span>
  );
}

function Details({ record }: { record: AuditRecord }) {
  if (record.bounce) {
    const { provider, remote_mta: remoteMta } = record.bounce;
    return (
      <>
        <span class="detail-kind">{bounceKind(record.bounce)}</span>
        {record.bounce.diagnostic && <span class="diagnostic">{record.bounce.diagnostic}</span>}
        <Classification bounce={record.bounce} />
        {(provider || remoteMta) && (
          <small class="muted detail-origin">
            {provider && <>Reported by {provider}</>}
            {provider && remoteMta && ', '}
            {remoteMta && (
              <>
                {provider ? 'from' : 'From'} <span class="mono">{remoteMta}</span>
              </>
            )}
          </small>
        )}
      </>
    );
  }
  if (record.complaint) return <>Feedback type: {record.complaint.feedback_type ?? 'not given'}</>;
  if (record.removal_reason === 'expired') return <>Expired under the account’s policy</>;
  if (record.removal_reason === 'reclassified') return <>Lifted: reclassified bounces no longer suppress it</>;
  if (record.removal_reason === 'reactivated') {
    return record.outcome === 'removed' ? (
      <>Lifted: the provider reactivated the address, and nothing else reported it</>
    ) : (
      <>The provider reactivated the address; other evidence keeps it on the list</>
    );
  }
  return (
    <>
      {actorText(record.actor)}
      {record.reason && <>: “{record.reason}”</>}
    </>
  );
}

/** An address's events, newest first: each bounce with its status and diagnostic, complaints and removals with who made them. */
export function HistoryTable({ records }: { records: readonly AuditRecord[] }) {
  return (
    <div class="table-scroll" role="region" aria-label="History, newest first" tabIndex={0}>
      <table class="table history">
        <thead>
          <tr>
            <th scope="col">Event</th>
            <th scope="col">When</th>
            <th scope="col">Status</th>
            <th scope="col">Details</th>
            <th scope="col">Result</th>
          </tr>
        </thead>
        <tbody>
          {records.map((record) => (
            <tr key={record.event_id}>
              <td>
                <span class={`badge badge-${record.type}`}>{EVENT_NAMES[record.type]}</span>
              </td>
              <td>{formatTime(record.occurred_at ?? record.received_at)}</td>
              <td class="mono">{record.bounce?.status ?? '—'}</td>
              <td>
                <Details record={record} />
              </td>
              <td>{OUTCOMES[record.outcome] ?? record.outcome}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
