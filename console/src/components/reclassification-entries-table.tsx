import type { ReclassificationEntry } from '../api.js';
import { categoryLabel, reasonLabel } from '../bounces.js';
import { formatTime } from '../format.js';
import { href } from '../router.js';

/** The provider's label and finer word, as the history writes them. */
function bounceKind(bounce: ReclassificationEntry['latest_bounce']): string | null {
  const type = bounce.type === 'permanent' ? 'Permanent' : bounce.type === 'transient' ? 'Transient' : bounce.type;
  if (type === null) return bounce.sub_type;
  return bounce.sub_type ? `${type} (${bounce.sub_type})` : type;
}

function LatestBounce({ bounce }: { bounce: ReclassificationEntry['latest_bounce'] }) {
  const kind = bounceKind(bounce);
  return (
    <>
      {(bounce.status || kind) && (
        <span class="detail-kind">
          {bounce.status && <span class="mono">{bounce.status}</span>}
          {bounce.status && kind && ' · '}
          {kind}
        </span>
      )}
      {bounce.diagnostic ? (
        <span class="diagnostic">{bounce.diagnostic}</span>
      ) : (
        <span class="muted">No text from the receiving server</span>
      )}
      <small class="muted detail-origin">
        {formatTime(bounce.occurred_at)}
        {bounce.provider && <>, reported by {bounce.provider}</>}
        {bounce.remote_mta && (
          <>
            {' '}
            from <span class="mono">{bounce.remote_mta}</span>
          </>
        )}
      </small>
    </>
  );
}

/**
 * A page of the entries a reclassification lifts: each address, what the classifier makes of its
 * latest bounce now, that bounce's evidence, and the bounces the run judged.
 */
export function ReclassificationEntriesTable({
  entries,
  caption,
}: {
  entries: readonly ReclassificationEntry[];
  caption: string;
}) {
  return (
    <div class="table-scroll" role="region" aria-label={caption} tabIndex={0}>
      <table class="table history">
        <caption class="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Email</th>
            <th scope="col">Latest bounce, decided now</th>
            <th scope="col">Its evidence</th>
            <th scope="col">Bounces</th>
          </tr>
        </thead>
        <tbody>
          {entries.map((entry) => (
            <tr key={entry.id}>
              <td data-label="Email" class="email">
                <a href={href(`/entries/${encodeURIComponent(entry.email)}`)}>{entry.email}</a>
              </td>
              <td data-label="Latest bounce, decided now">
                <span class={`category-tag category-${entry.category}`}>{categoryLabel(entry.category)}</span>{' '}
                <span class="reason">{reasonLabel(entry.reason)}</span>
                <span class="rule muted">
                  rule <code>{entry.rule}</code>
                </span>
              </td>
              <td data-label="Its evidence">
                <LatestBounce bounce={entry.latest_bounce} />
              </td>
              <td data-label="Bounces">{entry.bounces.toLocaleString('en-GB')}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
