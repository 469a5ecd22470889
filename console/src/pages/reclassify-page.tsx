import { useState } from 'preact/hooks';
import { BOUNCES_API, messageOf, request, type Reclassification } from '../api.js';
import { ErrorMessage } from '../components/messages.js';
import { PageHeading } from '../components/page-heading.js';
import { href, navigate } from '../router.js';

/** Starts a run on the account's bounce entries; a dry run unless `dryRun` is false. */
export async function startReclassification(dryRun: boolean): Promise<Reclassification> {
  return request<Reclassification>('POST', `${BOUNCES_API}/reclassifications`, { dry_run: dryRun });
}

/**
 * Where a reclassification starts: always as a dry run, whose page lists what a real run would
 * lift, so that nothing is lifted before someone has read the list.
 */
export function ReclassifyPage() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function start(): Promise<void> {
    setBusy(true);
    setError(null);
    try {
      const run = await startReclassification(true);
      navigate(`/reclassify/${run.id}`);
    } catch (failure) {
      setError(`The dry run was not started: ${messageOf(failure)}`);
      setBusy(false);
    }
  }

  return (
    <>
      <PageHeading title="Reclassify bounces" />
      <p class="intro">
        A reclassification reads again the recorded bounces and complaints of every address the list holds because of a
        bounce, with today’s classifier and your <a href={href('/settings')}>settings</a>, and lifts the entries that
        none of them supports any more: an address put on the list for a block-listed sending IP, say, or under actions
        you have since changed. Complaints, entries added by hand and imported entries are never lifted.
      </p>
      <p class="intro">
        It starts as a dry run, which lifts nothing: its page lists every entry a real run would lift, with the latest
        bounce of each and what the classifier makes of it now. Review the list, then lift them from there.
      </p>
      <ErrorMessage message={error} />
      <button type="button" class="button button-primary" disabled={busy} onClick={() => void start()}>
        {busy ? 'Starting…' : 'Start a dry run'}
      </button>
    </>
  );
}
