import { useCallback, useState } from 'react';
import { api } from '../api';
import { entryCallbackUrl } from '../entry-form/entry-callback-url';
import type { EntryDraft } from '../entry-form/entry-draft';
import { useI18n } from '../i18n/language';
import { useLoad } from '../use-load';
import type { PresetView } from './preset-draft';
import { defaultParameters, draftFromPreset, presetName, scopesOf } from './preset-draft';

interface PresetChooserProps {
  readonly draft: EntryDraft;
  /** The ids other entries have: the suggested id avoids them. */
  readonly takenIds: readonly string[];
  readonly onApply: (draft: EntryDraft) => void;
  /** Another preset (or a blank entry) was chosen: the form is filled anew. */
  readonly onChoose: () => void;
}

/**
 * "Start from": a blank entry or a provider preset (GET /_sso/api/presets).
 * Choosing one, or changing one of its parameters, fills the form; then it
 * shows what to register at the provider.
 */
export function PresetChooser({ draft, takenIds, onApply, onChoose }: PresetChooserProps) {
  const { t: messages, language } = useI18n();
  const t = messages.presets;
  const loaded = useLoad(
    useCallback(
      (signal: AbortSignal) => api<{ presets: PresetView[] }>('GET', '/presets', { signal }),
      [],
    ),
  );
  const [chosen, setChosen] = useState<PresetView | undefined>();
  const [parameters, setParameters] = useState<Record<string, string>>({});
  const [copied, setCopied] = useState(false);
  const presets = loaded.data?.presets ?? [];
  const apply = (preset: PresetView, values: Record<string, string>) => {
    setParameters(values);
    onApply(draftFromPreset(preset, values, draft, takenIds, language));
  };
  const callbackUrl = draft.id === '' ? undefined : entryCallbackUrl(draft.id);
  const scopes = scopesOf(draft.authorizeUrl);
  return (
    // "Start from" is said once: it labels the chooser and heads the section.
    <section className="section preset-chooser" aria-labelledby="start-from-label">
      <div className="field">
        <label htmlFor="start-from" id="start-from-label" className="section-title">
          {t.heading}
        </label>
        <select
          id="start-from"
          value={chosen?.preset ?? ''}
          onChange={(event) => {
            const preset = presets.find((one) => one.preset === event.target.value);
            setChosen(preset);
            setCopied(false);
            if (preset !== undefined) apply(preset, defaultParameters(preset));
            onChoose();
          }}
        >
          <option value="">{t.blank}</option>
          {presets.map((preset) => (
            <option key={preset.preset} value={preset.preset}>
              {presetName(preset, language)}
            </option>
          ))}
        </select>
      </div>
      {chosen === undefined ? null : (
        <>
          <p className="hint">{t.hint}</p>
          {Object.entries(chosen.parameters).map(([name, parameter]) => {
            // The preset's own words for its parameter, in the language on screen.
            const said = language === 'zh-CN' ? parameter['zh-CN'] : parameter;
            return (
              <div className="field" key={name}>
                <label htmlFor={`preset-${name}`}>{said.label}</label>
                <input
                  id={`preset-${name}`}
                  type="text"
                  aria-describedby={`preset-${name}-hint`}
                  value={parameters[name] ?? ''}
                  onChange={(event) => {
                    apply(chosen, { ...parameters, [name]: event.target.value });
                  }}
                />
                <p className="hint" id={`preset-${name}-hint`}>
                  {said.description}
                </p>
              </div>
            );
          })}
          <div className="preset-register">
            <h3>{t.register}</h3>
            <p>
              <a href={chosen.setup} target="_blank" rel="noreferrer">
                {t.setup(presetName(chosen, language))}
              </a>
            </p>
            <p>
              {t.callback}
              {messages.shell.colon}
              {callbackUrl === undefined ? (
                t.callbackNeedsId
              ) : (
                <>
                  <code className="preset-callback">{callbackUrl}</code>{' '}
                  <button
                    type="button"
                    className="button secondary"
                    onClick={() => {
                      void navigator.clipboard.writeText(callbackUrl).then(() => {
                        setCopied(true);
                      });
                    }}
                  >
                    {t.copy}
                  </button>{' '}
                  {copied ? t.copied : null}
                </>
              )}
            </p>
            <p>
              {t.scopes}
              {messages.shell.colon}
              {scopes.length === 0 ? t.noScopes : <code>{scopes.join(' ')}</code>}
            </p>
            <p>{t.credentials}</p>
          </div>
        </>
      )}
    </section>
  );
}
