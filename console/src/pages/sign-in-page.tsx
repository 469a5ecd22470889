import { useState } from 'preact/hooks';
import { messageOf, request, type ConsoleSession } from '../api.js';
import { ErrorMessage, StatusMessage } from '../components/messages.js';
import { PageHeading } from '../components/page-heading.js';

export interface SignInPageProps {
  /** Why the page is shown: the session ended, or the user signed out. */
  notice: string | null;
  onSignedIn: (session: ConsoleSession) => void;
}

/** The API key is sent once, exchanged for a session cookie the page cannot read, and forgotten. */
export function SignInPage({ notice, onSignedIn }: SignInPageProps) {
  const [apiKey, setApiKey] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: Event): Promise<void> {
    event.preventDefault();
    if (apiKey.trim() === '') {
      setError('Paste an API key to sign in.');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const session = await request<ConsoleSession>('POST', '/console/session', { api_key: apiKey });
      setApiKey('');
      onSignedIn(session);
    } catch (failure) {
      setError(messageOf(failure));
      setBusy(false);
    }
  }

  return (
    <main id="main" class="main narrow sign-in">
      <PageHeading title="Sign in to the suppression list" />
      <StatusMessage message={error ? null : notice} />
      <form class="card" onSubmit={(event) => void submit(event)} aria-busy={busy} noValidate>
        <label for="api-key">API key</label>
        <p class="hint" id="api-key-hint">
          A full-access key of your account (it starts with <code>sl_</code>). It is exchanged for a session of a few
          hours; the key itself is not kept in this browser.
        </p>
        <input
          id="api-key"
          name="api_key"
          type="password"
          autoComplete="off"
          spellcheck={false}
          aria-describedby="api-key-hint"
          aria-invalid={error ? true : undefined}
          value={apiKey}
          onInput={(event) => setApiKey(event.currentTarget.value)}
        />
        <ErrorMessage message={error} />
        <button type="submit" class="button button-primary" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}
