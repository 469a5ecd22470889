import { useEffect, useState } from 'preact/hooks';
import { ApiError, messageOf, request, useCsrfToken, whenSessionEnds, type ConsoleSession } from './api.js';
import { ErrorMessage, Loading } from './components/messages.js';
import { PageHeading } from './components/page-heading.js';
import { AddPage } from './pages/add-page.js';
import { BouncesPage } from './pages/bounces-page.js';
import { EntryPage } from './pages/entry-page.js';
import { ImportPage } from './pages/import-page.js';
import { ListPage } from './pages/list-page.js';
import { ReclassificationPage } from './pages/reclassification-page.js';
import { ReclassifyPage } from './pages/reclassify-page.js';
import { SettingsPage } from './pages/settings-page.js';
import { AllowlistPage } from './pages/allowlist-page.js';
import { SignInPage } from './pages/sign-in-page.js';
import { followLink, href, navigate, useLocation, type Location } from './router.js';

const SESSION = '/console/session';

type SessionState =
  { state: 'loading' } | { state: 'failed'; message: string } | { state: 'ready'; session: ConsoleSession | null };

export function App() {
  const location = useLocation();
  const [session, setSession] = useState<SessionState>({ state: 'loading' });
  const [notice, setNotice] = useState<string | null>(null);

  function signedIn(next: ConsoleSession | null): void {
    useCsrfToken(next?.csrf_token ?? null);
    setSession({ state: 'ready', session: next });
  }

  async function loadSession(): Promise<void> {
    setSession({ state: 'loading' });
    try {
      signedIn(await request<ConsoleSession>('GET', SESSION));
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) signedIn(null);
      else setSession({ state: 'failed', message: messageOf(error) });
    }
  }

  useEffect(() => {
    whenSessionEnds((message) => {
      setNotice(message);
      signedIn(null);
    });
    void loadSession();
  }, []);

  async function signOut(): Promise<void> {
    try {
      await request('DELETE', SESSION);
      setNotice('You have signed out.');
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 401)) {
        setNotice(`Signing out failed: ${messageOf(error)}`);
        return;
      }
    }
    signedIn(null);
    navigate('/', { replace: true });
  }

  if (session.state === 'loading') {
    return (
      <main id="main" class="main narrow" aria-busy="true">
        <Loading>Opening the console…</Loading>
      </main>
    );
  }
  if (session.state === 'failed') {
    return (
      <main id="main" class="main narrow">
        <PageHeading title="The console could not start" />
        <ErrorMessage message={session.message} />
        <button type="button" class="button button-primary" onClick={() => void loadSession()}>
          Try again
        </button>
      </main>
    );
  }
  if (session.session === null) {
    return (
      <SignInPage
        notice={notice}
        onSignedIn={(next) => {
          setNotice(null);
          signedIn(next);
        }}
      />
    );
  }
  return (
    <div class="layout" onClick={followLink}>
      <a class="skip-link" href="#main">
        Skip to content
      </a>
      <header class="header">
        <a class="brand" href={href('/')}>
          Suppression list
        </a>
        <nav aria-label="Console">
          <ul class="nav">
            <NavLink to="/" location={location} label="List" />
            <NavLink to="/add" location={location} label="Add" />
            <NavLink to="/import" location={location} label="Import" />
            <NavLink to="/bounces" location={location} label="Bounces" />
            <NavLink to="/reclassify" location={location} label="Reclassify" />
            <NavLink to="/allowlist" location={location} label="Allowlist" />
            <NavLink to="/settings" location={location} label="Settings" />
          </ul>
        </nav>
        <div class="account">
          <span class="account-name" title="Signed in account">
            {session.session.account.name}
          </span>
          <button type="button" class="button button-small" onClick={() => void signOut()}>
            Sign out
          </button>
        </div>
      </header>
      <main id="main" class="main" tabIndex={-1}>
        <Page location={location} />
      </main>
    </div>
  );
}

function NavLink({ to, label, location }: { to: string; label: string; location: Location }) {
  const current =
    to === '/'
      ? location.path === '/' || location.path.startsWith('/entries/')
      : location.path.split('/', 2).join('/') === to;
  return (
    <li>
      <a href={href(to)} aria-current={current ? 'page' : undefined}>
        {label}
      </a>
    </li>
  );
}

function Page({ location }: { location: Location }) {
  const entry = /^\/entries\/([^/]+)$/.exec(location.path);
  if (entry?.[1]) return <EntryPage key={entry[1]} id={decodeURIComponent(entry[1])} />;
  const run = /^\/reclassify\/([^/]+)$/.exec(location.path);
  if (run?.[1]) return <ReclassificationPage key={run[1]} id={decodeURIComponent(run[1])} query={location.query} />;
  switch (location.path) {
    case '/':
    case '/sign-in':
      return <ListPage query={location.query} />;
    case '/add':
      return <AddPage />;
    case '/import':
      return <ImportPage />;
    case '/bounces':
      return <BouncesPage query={location.query} />;
    case '/reclassify':
      return <ReclassifyPage />;
    case '/allowlist':
      return <AllowlistPage />;
    case '/settings':
      return <SettingsPage />;
    default:
      return (
        <>
          <PageHeading title="Page not found" />
          <p>
            There is no such page in the console. <a href={href('/')}>Go to the list</a>.
          </p>
        </>
      );
  }
}
