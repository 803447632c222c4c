import { useCallback, useMemo, useState } from 'react';
import type { SyntheticEvent } from 'react';
import { ApiError, api, describeFailure } from '../api';
import { setFlash, takeFlash } from '../flash';
import { useI18n } from '../i18n/language';
import { FormActions } from '../layout/form-actions';
import { Page } from '../layout/page';
import type { Status } from '../layout/status-line';
import { navigate } from '../navigation';
import { setLeaveGuard } from '../navigation';
import type { EntryAnswer, EntryList, EntryModel, EntryView, Problem } from '../types';
import { useLoad } from '../use-load';
import { useUnsavedGuard } from '../use-unsaved-guard';
import { entryKindOf } from '../entry-kinds/registry';
import type { EntryDraft } from './entry-draft';
import { draftFromEntry, emptyDraft, toEntryBody } from './entry-draft';
import { takenIdProblem, topField, visibleProblems } from './form-assist';
import { ExtensionFields } from './extension-fields';
import { SamlFields } from './saml-fields';
import { GeneralFields } from './general-fields';
import { LdapFields } from './ldap-fields';
import { OAuth2Fields } from './oauth2-fields';
import { OidcFields } from './oidc-fields';
import { UsersSection } from './provisioning-fields';
import { TestPanel } from './samples-panel';
import { TrialSignInPanel } from '../trial-sign-in/trial-sign-in-panel';
import { missingCredentials } from '../trial-sign-in/missing-credentials';
import { PresetChooser } from '../presets/preset-chooser';
import { useValidation } from './use-validation';
import { ValidationSummary } from './validation-summary';

interface Loaded {
  readonly model: EntryModel;
  readonly entry: EntryView | undefined;
  /** The ids other entries have, so a taken one shows while typing. */
  readonly takenIds: readonly string[];
}

/** A new entry, or a stored one by id: loads it and the entry model, then the form. */
export function EntryFormPage({ id }: { readonly id?: string }) {
  const load = useCallback(
    async (signal: AbortSignal): Promise<Loaded> => {
      const [model, entry, list] = await Promise.all([
        api<EntryModel>('GET', '/entry-model', { signal }),
        id === undefined
          ? Promise.resolve(undefined)
          : api<EntryAnswer>('GET', `/entries/${encodeURIComponent(id)}`, { signal }).then(
              (body) => body.entry,
            ),
        api<EntryList>('GET', '/entries', { signal }),
      ]);
      const takenIds = list.entries.map((other) => other.id).filter((other) => other !== id);
      return { model, entry, takenIds };
    },
    [id],
  );
  const { data, error } = useLoad(load);
  const { t } = useI18n();
  if (data === undefined) {
    return (
      <Page title={id ?? t.entries.newEntry} trail={[{ label: t.nav.entries, to: '/' }]}>
        {error === undefined ? (
          <p>{t.entryForm.loading}</p>
        ) : (
          <p className="status status-error">{describeFailure(error)}</p>
        )}
      </Page>
    );
  }
  return <EntryForm model={data.model} stored={data.entry} takenIds={data.takenIds} />;
}

interface EntryFormProps {
  readonly model: EntryModel;
  readonly stored: EntryView | undefined;
  readonly takenIds: readonly string[];
}

function EntryForm({ model, stored, takenIds }: EntryFormProps) {
  const [draft, setDraft] = useState<EntryDraft>(() =>
    stored === undefined ? emptyDraft : draftFromEntry(stored),
  );
  const [dirty, setDirty] = useState(false);
  const [touched, setTouched] = useState<ReadonlySet<string>>(new Set());
  const [submitted, setSubmitted] = useState(false);
  const [saving, setSaving] = useState(false);
  const [saveProblems, setSaveProblems] = useState<readonly Problem[] | undefined>();
  const [status, setStatus] = useState<Status | undefined>(takeFlash);
  // The collapsed sections open or close anew when a preset fills the form,
  // and open on their problems when saving is asked (form-section.tsx).
  const [refill, setRefill] = useState(0);
  const [reveal, setReveal] = useState(0);
  const disclosure = { refill, reveal };
  const existingId = stored?.id;
  const storedDefault = stored?.isDefault ?? false;
  const { t } = useI18n();
  const words = t.entryForm;
  // What the form shows below its general fields, and which tests it offers.
  const kind = entryKindOf(draft);

  // What is validated and tested includes a checked "default", so the core's
  // rule "a disabled entry cannot be the default" shows while typing.
  const checked = useMemo(() => toEntryBody(draft, true), [draft]);
  const validation = useValidation(checked, existingId, dirty || stored !== undefined);
  const taken = stored === undefined ? takenIdProblem(draft.id, takenIds, words) : undefined;
  const coreProblems =
    saveProblems ??
    (validation.result === undefined
      ? undefined
      : validation.result.ok
        ? []
        : validation.result.problems);
  const shownProblems =
    coreProblems === undefined && taken === undefined
      ? undefined
      : visibleProblems(
          [...(taken === undefined ? [] : [taken]), ...(coreProblems ?? [])],
          touched,
          submitted,
          words,
          checked,
        );
  const problems = shownProblems ?? [];

  useUnsavedGuard(dirty, words.unsaved);

  const change = (update: Partial<EntryDraft>) => {
    setDraft((current) => ({ ...current, ...update }));
    setDirty(true);
    setSaveProblems(undefined);
  };

  const save = async (event: SyntheticEvent) => {
    event.preventDefault();
    setSubmitted(true);
    setReveal((before) => before + 1);
    if (taken !== undefined) {
      setStatus({ kind: 'error', text: words.fixProblems });
      return;
    }
    setSaving(true);
    setStatus(undefined);
    try {
      const body = toEntryBody(draft, storedDefault);
      const path = `/entries/${encodeURIComponent(draft.id)}`;
      if (stored === undefined) await api('POST', '/entries', { body });
      else await api('PUT', path, { body });
      if (draft.isDefault && !storedDefault) await api('POST', `${path}/default`);
      setFlash({ kind: 'success', text: words.saved(draft.name) });
      // Saved: leaving is no longer a loss.
      setLeaveGuard(undefined);
      if (stored === undefined) navigate(`/entries/${encodeURIComponent(draft.id)}`);
      else navigate('/');
    } catch (failure) {
      if (failure instanceof ApiError && failure.problems.length > 0) {
        setSaveProblems(failure.problems);
        setReveal((before) => before + 1);
        setStatus({ kind: 'error', text: words.fixProblems });
      } else {
        setStatus({ kind: 'error', text: words.notSaved(describeFailure(failure)) });
      }
    } finally {
      setSaving(false);
    }
  };

  const title = stored === undefined ? t.entries.newEntry : stored.name;
  return (
    <Page title={title} trail={[{ label: t.nav.entries, to: '/' }]}>
      <div className="entry-layout">
        <form
          className="entry-form"
          onSubmit={(event) => void save(event)}
          noValidate
          onBlur={(event) => {
            // A field left once shows its "required" from then on (inputs' ids are field-NAME).
            const reached = topField(event.target.id.replace(/^field-/, ''));
            if (reached !== '' && !touched.has(reached)) {
              setTouched((before) => new Set(before).add(reached));
            }
          }}
        >
          <ValidationSummary
            checking={validation.checking}
            problems={shownProblems}
            warnings={validation.result?.ok === true ? validation.result.warnings : []}
            failure={validation.failure}
          />
          {stored === undefined ? (
            <PresetChooser
              draft={draft}
              takenIds={takenIds}
              onApply={(filled) => {
                change(filled);
              }}
              onChoose={() => {
                setRefill((before) => before + 1);
              }}
            />
          ) : null}
          <GeneralFields
            draft={draft}
            isNew={stored === undefined}
            problems={problems}
            onChange={change}
          />
          {kind.sections.map((section) => {
            switch (section) {
              case 'oidcIssuer':
                return (
                  <OidcFields
                    key={section}
                    draft={draft}
                    discovery={stored?.oidcDiscovery}
                    problems={problems}
                    onChange={change}
                    disclosure={disclosure}
                  />
                );
              case 'oauth2Flow':
                return (
                  <OAuth2Fields
                    key={section}
                    draft={draft}
                    model={model}
                    problems={problems}
                    onChange={change}
                    disclosure={disclosure}
                  />
                );
              case 'extensionService':
                return (
                  <ExtensionFields
                    key={section}
                    entryId={existingId}
                    url={draft.extensionUrl}
                    secret={draft.extensionSecret}
                    settings={draft.extensionSettings}
                    problems={problems}
                    onChange={change}
                  />
                );
              case 'ldapDirectory':
                return (
                  <LdapFields
                    key={section}
                    ldap={draft.ldap}
                    problems={problems}
                    onChange={(ldap) => {
                      change({ ldap });
                    }}
                  />
                );
              case 'samlIdentityProvider':
                return (
                  <SamlFields
                    key={section}
                    entryId={existingId}
                    saml={draft.saml}
                    problems={problems}
                    onChange={change}
                  />
                );
              case 'users':
                return <UsersSection key={section} draft={draft} onChange={change} />;
            }
          })}
          <FormActions
            saving={saving}
            submit={stored === undefined ? words.create : words.save}
            savingLabel={words.saving}
            cancelTo="/"
            status={status}
          />
        </form>
        {/* Beside the form on a wide screen, in view while scrolling: a test's
          answer is read next to the fields it blames, and links to them. */}
        <aside className="entry-aside" aria-label={words.tests}>
          {kind.trialSignIn ? (
            <TrialSignInPanel
              entry={toEntryBody(draft, storedDefault)}
              existingId={existingId}
              edited={dirty}
              missing={missingCredentials(draft, JSON.stringify(toEntryBody(draft, storedDefault)))}
            />
          ) : null}
          {kind.samplesTest ? <TestPanel entry={checked} existingId={existingId} /> : null}
        </aside>
      </div>
    </Page>
  );
}
