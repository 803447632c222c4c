import { useCallback, useState } from 'react';
import type { SyntheticEvent } from 'react';
import { ApiError, api, describeFailure } from '../api';
import { setFlash, takeFlash } from '../flash';
import { FieldProblems } from '../entry-form/field-problems';
import { useI18n } from '../i18n/language';
import { FormActions } from '../layout/form-actions';
import { Page } from '../layout/page';
import type { Status } from '../layout/status-line';
import { navigate, setLeaveGuard } from '../navigation';
import { NewTokenSecret } from '../tokens/new-token-secret';
import type {
  ApplicationSecretAnswer,
  ApplicationView,
  EntryList,
  EntryView,
  Problem,
} from '../types';
import { useLoad } from '../use-load';
import { useUnsavedGuard } from '../use-unsaved-guard';
import type { ApplicationDraft } from './application-draft';
import {
  draftFromApplication,
  emptyApplicationDraft,
  formProblems,
  problemSentence,
  strayProblems,
  toCreateBody,
  toSettingsBody,
} from './application-draft';
import { ApplicationFields } from './application-fields';
import { ConnectionDetails } from './connection-details';
import { DangerZone } from './danger-zone';

/** A secret on its way from the answer that made it to the application's page, shown there once. */
interface Revealed {
  readonly clientId: string;
  readonly name: string;
  readonly secret: string;
}

/** In memory only: a reload of the page has lost it, as the gateway has (it keeps the hash). */
let handedOver: Revealed | undefined;

function takeSecret(clientId: string | undefined): Revealed | undefined {
  const revealed = handedOver?.clientId === clientId ? handedOver : undefined;
  handedOver = undefined;
  return revealed;
}

interface Loaded {
  readonly client: ApplicationView | undefined;
  readonly entries: readonly EntryView[];
}

/** Single Sign-On › Applications, before the application's own name. */
const trailOf = (nav: { readonly entries: string; readonly applications: string }) => [
  { label: nav.entries, to: '/' },
  { label: nav.applications, to: '/applications' },
];

/**
 * System Settings › Security › Single Sign-On › Applications › one: a new
 * application, or a registered one by its client id with what to paste into
 * it, its secret's rotation and its deletion.
 */
export function ApplicationPage({ id }: { readonly id?: string }) {
  const load = useCallback(
    async (signal: AbortSignal): Promise<Loaded> => {
      const [client, list] = await Promise.all([
        id === undefined
          ? Promise.resolve(undefined)
          : api<{ client: ApplicationView }>('GET', `/oidc-clients/${encodeURIComponent(id)}`, {
              signal,
            }).then((body) => body.client),
        api<EntryList>('GET', '/entries', { signal }),
      ]);
      return { client, entries: list.entries };
    },
    [id],
  );
  const { data, error } = useLoad(load);
  const { t } = useI18n();
  const words = t.applications;
  if (data === undefined) {
    return (
      <Page title={id ?? words.newApplication} trail={trailOf(t.nav)}>
        {error === undefined ? (
          <p>{words.loading}</p>
        ) : (
          <p className="status status-error">{describeFailure(error)}</p>
        )}
      </Page>
    );
  }
  return <ApplicationForm stored={data.client} entries={data.entries} />;
}

interface ApplicationFormProps {
  readonly stored: ApplicationView | undefined;
  readonly entries: readonly EntryView[];
}

function ApplicationForm({ stored, entries }: ApplicationFormProps) {
  const [draft, setDraft] = useState<ApplicationDraft>(() =>
    stored === undefined ? emptyApplicationDraft : draftFromApplication(stored),
  );
  const [dirty, setDirty] = useState(false);
  const [saving, setSaving] = useState(false);
  const [problems, setProblems] = useState<readonly Problem[]>([]);
  const [status, setStatus] = useState<Status | undefined>(takeFlash);
  const [revealed, setRevealed] = useState(() => takeSecret(stored?.clientId));
  const { t } = useI18n();
  const words = t.applications;
  useUnsavedGuard(dirty, words.unsaved);

  const change = (update: Partial<ApplicationDraft>) => {
    setDraft((current) => ({ ...current, ...update }));
    setDirty(true);
  };

  const save = async (event: SyntheticEvent) => {
    event.preventDefault();
    setSaving(true);
    setStatus(undefined);
    try {
      if (stored === undefined) {
        const answer = await api<ApplicationSecretAnswer>('POST', '/oidc-clients', {
          body: toCreateBody(draft),
        });
        const { clientId, name } = answer.client;
        if (answer.secret !== null) handedOver = { clientId, name, secret: answer.secret };
        setFlash({ kind: 'success', text: words.created(name) });
        setLeaveGuard(undefined);
        navigate(`/applications/${encodeURIComponent(clientId)}`);
      } else {
        const path = `/oidc-clients/${encodeURIComponent(stored.clientId)}`;
        await api('PUT', path, { body: toSettingsBody(draft) });
        setFlash({ kind: 'success', text: words.saved(draft.name.trim()) });
        setLeaveGuard(undefined);
        navigate('/applications');
      }
    } catch (failure) {
      const found = failure instanceof ApiError ? formProblems(failure.code, failure.problems) : [];
      setProblems(found);
      setStatus({
        kind: 'error',
        text: found.length > 0 ? words.fixProblems : words.notSaved(describeFailure(failure)),
      });
    } finally {
      setSaving(false);
    }
  };

  // Said in the language on screen, whichever it was when the answer came.
  const shown = problems.map((problem) => ({
    ...problem,
    message: problemSentence(problem, words.problems),
  }));
  const title = stored === undefined ? words.newApplication : stored.name;
  return (
    <Page title={title} trail={trailOf(t.nav)}>
      {revealed === undefined ? null : (
        <NewTokenSecret
          name={revealed.name}
          secret={revealed.secret}
          onDone={() => {
            setRevealed(undefined);
          }}
        />
      )}
      <form className="application-form" onSubmit={(event) => void save(event)} noValidate>
        <ApplicationFields
          draft={draft}
          isNew={stored === undefined}
          entries={entries}
          problems={shown}
          onChange={change}
        />
        <FormActions
          saving={saving}
          submit={stored === undefined ? words.create : words.save}
          savingLabel={words.saving}
          cancelTo="/applications"
          status={status}
        />
        <FieldProblems id="application-problems" problems={strayProblems(shown)} />
      </form>
      {stored === undefined ? null : (
        <>
          <ConnectionDetails client={stored} />
          <DangerZone
            client={stored}
            onRotated={(secret) => {
              setRevealed({ clientId: stored.clientId, name: stored.name, secret });
            }}
          />
        </>
      )}
    </Page>
  );
}
