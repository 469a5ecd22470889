import { useEffect, useRef, useState } from 'preact/hooks';
import {
  BOUNCE_ACTIONS,
  BOUNCE_CATEGORIES,
  DEFAULT_BOUNCE_ACTIONS,
  messageOf,
  GIVEN_ORIGINS as ORIGINS,
  request,
  SETTINGS_API,
  type BounceAction,
  type SuppressionSettings,
} from '../api.js';
import { ErrorMessage, Loading, StatusMessage } from '../components/messages.js';
import { PageHeading } from '../components/page-heading.js';
import { ACTION_NAMES, ACTIONS, CATEGORIES } from '../bounces.js';
import { originName } from '../format.js';
import { href } from '../router.js';

import { changeOf, draftOf, fieldNamedIn, sentence, type Draft } from './settings-draft.js';

/** A number of the form, typed as text (inputmode numeric), with its hint, and marked when the API refused it. */
function NumberField(props: {
  id: string;
  label: string;
  hint: string;
  value: string;
  invalid: boolean;
  onInput: (value: string) => void;
}) {
  return (
    <div class="field setting">
      <label for={props.id}>{props.label}</label>
      <p class="hint" id={`${props.id}-hint`}>
        {props.hint}
      </p>
      <input
        id={props.id}
        type="text"
        inputMode="numeric"
        autoComplete="off"
        class="input-number"
        aria-describedby={`${props.id}-hint`}
        aria-invalid={props.invalid ? true : undefined}
        value={props.value}
        onInput={(event) => props.onInput(event.currentTarget.value)}
      />
    </div>
  );
}

/** The account's suppression policy: what each kind of bounce does, the soft-bounce threshold, and expiry. */
export function SettingsPage() {
  const [saved, setSaved] = useState<SuppressionSettings | null>(null);
  const [draft, setDraft] = useState<Draft | null>(null);
  const [loading, setLoading] = useState(true);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [status, setStatus] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [invalid, setInvalid] = useState<string | null>(null);
  const [reloads, setReloads] = useState(0);
  const form = useRef<HTMLFormElement>(null);

  useEffect(() => {
    let current = true;
    setLoading(true);
    setLoadError(null);
    request<SuppressionSettings>('GET', SETTINGS_API).then(
      (settings) => {
        if (!current) return;
        setSaved(settings);
        setDraft(draftOf(settings));
        setLoading(false);
      },
      (failure: unknown) => {
        if (!current) return;
        setLoadError(`The settings could not be read: ${messageOf(failure)}`);
        setLoading(false);
      },
    );
    return () => {
      current = false;
    };
  }, [reloads]);

  function edit(next: Partial<Draft>): void {
    setDraft((previous) => previous && { ...previous, ...next });
    setStatus(null);
  }

  async function save(event: Event): Promise<void> {
    event.preventDefault();
    if (!saved || !draft) return;
    setStatus(null);
    setError(null);
    setInvalid(null);
    const change = changeOf(saved, draft);
    if (change.described.length === 0) {
      setStatus('Nothing to save: no setting was changed.');
      return;
    }
    setSaving(true);
    try {
      const settings = await request<SuppressionSettings>('PATCH', SETTINGS_API, change.body);
      setSaved(settings);
      setDraft(draftOf(settings));
      setStatus(`Saved. ${sentence(change.described)}.`);
    } catch (failure) {
      const message = messageOf(failure);
      setError(`The settings were not saved: ${message}`);
      const field = fieldNamedIn(message);
      setInvalid(field);
      if (field) form.current?.querySelector<HTMLElement>(`#${field}`)?.focus();
    } finally {
      setSaving(false);
    }
  }

  const changed = saved !== null && draft !== null && changeOf(saved, draft).described.length > 0;
  return (
    <>
      <PageHeading title="Settings" />
      <p class="intro">
        What bounces do to the list, and how long entries stay on it. Changes apply to the bounces received from now on;
        see <a href={href('/bounces')}>Bounces</a> for what arrived lately.
      </p>
      <ErrorMessage message={loadError} />
      {loadError && (
        <button type="button" class="button" onClick={() => setReloads((count) => count + 1)}>
          Try again
        </button>
      )}
      <div aria-busy={loading}>
        {loading && <Loading />}
        {draft && (
          <form ref={form} class="settings" onSubmit={(event) => void save(event)} aria-busy={saving} noValidate>
            <fieldset class="card">
              <legend>Bounce actions</legend>
              <p class="hint">
                Every bounce is classified by what the receiving server said. Choose what a bounce of each category
                does: <strong>suppress</strong> adds the address to the list at once, <strong>count</strong> counts it
                toward the soft-bounce threshold below, <strong>record only</strong> keeps it in the address’s history
                and nothing else.
              </p>
              <div class="actions-list">
                {BOUNCE_CATEGORIES.map((category) => {
                  const { label, meaning } = CATEGORIES[category];
                  const defaultAction = DEFAULT_BOUNCE_ACTIONS[category];
                  const id = `action-${category}`;
                  return (
                    <div class="action-row" key={category}>
                      <div>
                        <label for={id}>
                          <span class={`swatch category-fill-${category}`} aria-hidden="true" />
                          {label}
                        </label>
                        <p class="hint" id={`${id}-hint`}>
                          {meaning} Default: {ACTION_NAMES[defaultAction]}.
                        </p>
                      </div>
                      <select
                        id={id}
                        aria-describedby={`${id}-hint`}
                        aria-invalid={invalid === id ? true : undefined}
                        value={draft.actions[category]}
                        onChange={(event) =>
                          edit({
                            actions: { ...draft.actions, [category]: event.currentTarget.value as BounceAction },
                          })
                        }
                      >
                        {BOUNCE_ACTIONS.map((action) => (
                          <option key={action} value={action}>
                            {ACTIONS[action]}
                            {action === defaultAction ? ' (default)' : ''}
                          </option>
                        ))}
                      </select>
                    </div>
                  );
                })}
              </div>
            </fieldset>

            <fieldset class="card">
              <legend>Soft-bounce threshold</legend>
              <p class="hint">
                An address whose bounces set to <strong>count</strong> reach the threshold within the window is added to
                the list.
              </p>
              {draft.threshold.trim() === '' &&
                BOUNCE_CATEGORIES.some((category) => draft.actions[category] === 'count') && (
                  <p class="notice notice-small">
                    The threshold is off, so bounces set to <strong>count</strong> are only recorded for now.
                  </p>
                )}
              <div class="settings-grid">
                <NumberField
                  id="threshold"
                  label="Bounces that suppress an address"
                  hint="2 to 100. Empty: off, and counted bounces are only recorded."
                  value={draft.threshold}
                  invalid={invalid === 'threshold'}
                  onInput={(threshold) => edit({ threshold })}
                />
                <NumberField
                  id="window"
                  label="Window, in days"
                  hint="1 to 365: how far back bounces are counted."
                  value={draft.window}
                  invalid={invalid === 'window'}
                  onInput={(window) => edit({ window })}
                />
              </div>
            </fieldset>

            <fieldset class="card">
              <legend>Expiry</legend>
              <p class="hint">
                Days after it was added that an entry leaves the list on its own, by origin: 1 to 3650. Empty: never.
              </p>
              <div class="settings-grid">
                {ORIGINS.map((origin) => (
                  <NumberField
                    key={origin}
                    id={`expire-${origin}`}
                    label={`${originName(origin)} entries`}
                    hint={origin === 'manual' ? 'Added by hand or imported.' : `Added by a ${origin}.`}
                    value={draft.expiry[origin]}
                    invalid={invalid === `expire-${origin}`}
                    onInput={(days) => edit({ expiry: { ...draft.expiry, [origin]: days } })}
                  />
                ))}
              </div>
            </fieldset>

            <StatusMessage message={status} />
            <ErrorMessage message={error} />
            <div class="toolbar">
              <button type="submit" class="button button-primary" disabled={saving}>
                {saving ? 'Saving…' : 'Save'}
              </button>
              <button
                type="button"
                class="button"
                disabled={!changed || saving}
                onClick={() => {
                  if (saved) setDraft(draftOf(saved));
                  setError(null);
                  setInvalid(null);
                  setStatus(null);
                }}
              >
                Undo changes
              </button>
            </div>
          </form>
        )}
      </div>
    </>
  );
}
