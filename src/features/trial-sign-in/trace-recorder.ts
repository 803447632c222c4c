import { performance } from 'node:perf_hooks';
import type { OutboundRequest, ThirdPartyResponse, UserInfoReport } from '../../core/index.js';
import { MASK, excerpt, isSensitiveKey, isSsogateError, maskSecrets } from '../../core/index.js';
import type { SendOutbound } from '../../foundation/outbound/outbound-policy.js';
import type { StepObserver } from '../sign-in/oauth2-steps.js';
import type { TraceCall, TraceResult, TraceStep } from './trace-types.js';

/** How much of each answer the trace keeps. */
const excerptLength = 2000;

interface RawCall {
  readonly request: OutboundRequest;
  readonly response: ThirdPartyResponse | undefined;
  readonly durationMs: number;
}

interface RawStep {
  readonly name: string;
  readonly calls: RawCall[];
  readonly results: TraceResult[];
  error?: { code: string; message: string };
}

/**
 * Collects a test sign-in's steps as they run: every outbound call through
 * `send`, each step's results and failure. Nothing is masked until `steps`,
 * when every secret and token of the sign-in is known, so that a token read
 * in a later step is masked in an earlier one too.
 */
export class TraceRecorder implements StepObserver {
  private readonly raw: RawStep[] = [];
  private readonly fixedSecrets: string[];
  private learned: readonly string[] = [];
  private readValues: Readonly<Record<string, string>> | undefined;
  private mappingReport: UserInfoReport | undefined;

  constructor(secrets: readonly (string | null | undefined)[], firstStep: string) {
    this.fixedSecrets = secrets.filter((value): value is string => typeof value === 'string');
    this.begin(firstStep);
  }

  /** Starts a step; its calls and results follow. */
  begin(name: string): void {
    this.raw.push({ name, calls: [], results: [] });
  }

  step(which: 'token' | 'userinfo', detail: string): void {
    const name =
      which === 'token' ? 'token' : detail === '' ? 'user info' : detail.replace(/: $/, '');
    if (this.current().name !== name) this.begin(name);
  }

  secrets(values: readonly string[]): void {
    this.learned = values;
  }

  tokenValues(values: Readonly<Record<string, string>>): void {
    this.readValues = values;
  }

  userInfoReport(report: UserInfoReport): void {
    this.mappingReport = report;
  }

  /** The user-info mapping's report, once the answer passed its checks. */
  get userInfoReportRead(): UserInfoReport | undefined {
    return this.mappingReport;
  }

  /** The values read from the token response, once read. */
  get tokenValuesRead(): Readonly<Record<string, string>> | undefined {
    return this.readValues;
  }

  /** Adds a value never to show (one the steps learnt some other way). */
  secret(value: string): void {
    this.fixedSecrets.push(value);
  }

  allSecrets(): readonly string[] {
    return [...this.fixedSecrets, ...this.learned];
  }

  /** A result of the step so named (the last one), or of the current step. */
  result(result: TraceResult, stepName?: string): void {
    const step =
      stepName === undefined ? this.current() : this.raw.findLast((one) => one.name === stepName);
    (step ?? this.current()).results.push(result);
  }

  /** Marks the current step failed with the error that ended the sign-in. */
  fail(error: unknown): { code: string; message: string } {
    const failure = isSsogateError(error)
      ? { code: error.code, message: error.message }
      : { code: 'internal_error', message: 'an unexpected error; the log has it' };
    this.current().error = failure;
    return failure;
  }

  /** The answer of the last call in the step so named, unmasked, for reports over it. */
  answerOf(name: string): ThirdPartyResponse | undefined {
    return this.raw.find((step) => step.name === name)?.calls.at(-1)?.response;
  }

  /** The code of the step's failure, if it failed. */
  failureCodeOf(name: string): string | undefined {
    return this.raw.find((step) => step.name === name)?.error?.code;
  }

  /** The unmasked message of the step's failure, if it failed. */
  failureOf(name: string): string | undefined {
    return this.raw.find((step) => step.name === name)?.error?.message;
  }

  hasStep(name: string): boolean {
    return this.raw.some((step) => step.name === name);
  }

  /** `send`, with every call and answer (or failure) recorded in the current step. */
  recording(send: SendOutbound): SendOutbound {
    return async (request) => {
      const calls = this.current().calls;
      const started = performance.now();
      const took = () => Math.round(performance.now() - started);
      try {
        const response = await send(request);
        calls.push({ request, response, durationMs: took() });
        return response;
      } catch (error) {
        calls.push({ request, response: undefined, durationMs: took() });
        throw error;
      }
    };
  }

  /** The steps, every text masked for all the secrets and tokens the sign-in met. */
  steps(): TraceStep[] {
    const secrets = this.allSecrets();
    const mask = (text: string) => maskSecrets(text, secrets);
    return this.raw
      .filter(
        (step) => step.calls.length > 0 || step.results.length > 0 || step.error !== undefined,
      )
      .map((step) => ({
        name: step.name,
        outcome: step.error === undefined ? 'ok' : 'failed',
        calls: step.calls.map((call) => maskedCall(call, mask)),
        // Values a source recorded itself (a SAML Response's checks, a
        // directory's binds) are masked as the calls are.
        results: step.results.map((result) =>
          typeof result.value === 'string' ? { ...result, value: mask(result.value) } : result,
        ),
        ...(step.error === undefined
          ? {}
          : { error: { code: step.error.code, message: mask(step.error.message) } }),
      }));
  }

  private current(): RawStep {
    const step = this.raw.at(-1);
    if (step === undefined) throw new Error('the recorder has no step');
    return step;
  }
}

function maskedCall(call: RawCall, mask: (text: string) => string): TraceCall {
  const { request, response } = call;
  return {
    method: request.method,
    url: mask(request.url),
    headers: Object.fromEntries(
      Object.entries(request.headers).map(([name, value]) => [
        name,
        isSensitiveKey(name) ? MASK : mask(value),
      ]),
    ),
    body: request.body === undefined ? null : mask(request.body),
    status: response?.status ?? null,
    durationMs: call.durationMs,
    responseExcerpt: response === undefined ? null : excerpt(mask(response.body), excerptLength),
  };
}
