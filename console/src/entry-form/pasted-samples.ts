import type { EntryBody } from '../types.js';

/**
 * The samples the test panel asks for besides the token and user-info
 * answers: the application-token answer when the entry fetches one, and one
 * answer per call after user info, by the call's name
 * (docs/entries.md#shapes-beyond-the-basic-flow).
 */
export interface ExtraSamples {
  readonly appToken: boolean;
  readonly calls: readonly string[];
}

export function extraSamplesOf(entry: EntryBody): ExtraSamples {
  const calls = Array.isArray(entry.userInfoCalls)
    ? entry.userInfoCalls
        .map((call) => (typeof call.name === 'string' ? call.name : ''))
        .filter((name) => name !== '')
    : [];
  return { appToken: entry.appToken !== undefined, calls };
}

export interface PastedSamples {
  readonly appTokenResponse: string;
  readonly tokenResponse: string;
  readonly userInfoResponse: string;
  /** By call name; a call the entry no longer makes is left out of the request. */
  readonly callResponses: Readonly<Record<string, string>>;
}

/** The body of POST /_sso/api/entry-test: only the samples the entry reads. */
export function entryTestRequest(
  entry: EntryBody,
  existingId: string | undefined,
  samples: PastedSamples,
): Record<string, unknown> {
  const extra = extraSamplesOf(entry);
  return {
    entry,
    ...(existingId === undefined ? {} : { existingId }),
    ...(extra.appToken ? { appTokenResponse: samples.appTokenResponse } : {}),
    tokenResponse: samples.tokenResponse,
    userInfoResponse: samples.userInfoResponse,
    ...(extra.calls.length === 0
      ? {}
      : {
          userInfoCallResponses: Object.fromEntries(
            extra.calls.map((name) => [name, samples.callResponses[name] ?? '']),
          ),
        }),
  };
}
