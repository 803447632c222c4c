import type { OutboundRequest, SsogateError } from '../../core/index.js';
import { isSsogateError } from '../../core/index.js';
import type { SendOutbound } from './outbound-policy.js';

/** How long a failed fetch is remembered before the next use tries again. */
const failureRetryMs = 30 * 1000;
/** The least time a document is used before it is fetched again, whatever it says of itself. */
const minRefreshMs = 60 * 1000;

/** What a document's reader made of its text. */
interface DocumentReading<T> {
  readonly value: T;
  /** An earlier time to fetch it again than the caller's interval, as the document asks. */
  readonly refreshBy?: number;
  /** When the document stops being valid: past it, the copy is never used, even on a failed refresh. */
  readonly expiresAt?: number;
}

/** One document to fetch, and how. */
interface DocumentFetch<T> {
  /** What the copy is kept under: the URL, and whatever else the reading depends on. */
  readonly key: string;
  readonly url: string;
  /** The Accept header of the request. */
  readonly accept: string;
  readonly timeoutMs: number;
  readonly maxBytes: number;
  /** How long a copy is used before it is fetched again. */
  readonly refreshMs: number;
  /** Reads the text fetched at `now`; throws a coded error when it is no document to use. */
  read(text: string, now: number): Promise<DocumentReading<T>>;
  /** The coded error of a fetch that failed (no answer, a status, too large), told why. */
  unavailable(reason: string, cause: unknown): SsogateError;
}

/** A fetch's outcome, for the metrics and the log: `success`, or the failure's code. */
interface DocumentFetchEvent {
  readonly url: string;
  readonly outcome: string;
  /** The failure, when there is one. */
  readonly error: SsogateError | undefined;
  /** Whether a failure left an earlier copy in use. */
  readonly keptCopy: boolean;
}

interface DocumentSlot {
  reading: DocumentReading<unknown> | undefined;
  refreshAt: number;
  failure: { at: number; error: SsogateError } | undefined;
  inFlight: Promise<unknown> | undefined;
}

/**
 * Documents the gateway fetches from a URL an entry names and keeps in
 * memory, each gateway its own (a SAML identity provider's metadata,
 * src/features/saml/idp-metadata-url.ts): fetched at first use through the
 * gateway's outbound client (address policy, time-out, size cap, no
 * redirects), used until its refresh time, then fetched again at the next
 * use. A failed refresh keeps the last good copy in use (until the document
 * itself expires) and is told to the listeners; a failure with no copy is
 * the fetch's coded error. Either failure is remembered for 30 s, so a
 * burst of sign-ins does not wait out one time-out each.
 */
export class FetchedDocuments {
  private readonly slots = new Map<string, DocumentSlot>();
  private readonly listeners: ((event: DocumentFetchEvent) => void)[] = [];

  constructor(
    private readonly send: SendOutbound,
    private readonly clock: () => number,
  ) {}

  /** Told of every fetch's outcome (metrics, the log). */
  onFetched(listener: (event: DocumentFetchEvent) => void): void {
    this.listeners.push(listener);
  }

  async get<T>(fetch: DocumentFetch<T>): Promise<T> {
    const slot = this.slot(fetch.key);
    const now = this.clock();
    const usable = (): DocumentReading<unknown> | undefined =>
      slot.reading !== undefined &&
      (slot.reading.expiresAt === undefined || this.clock() < slot.reading.expiresAt)
        ? slot.reading
        : undefined;
    if (usable() !== undefined && now < slot.refreshAt) return usable()?.value as T;
    if (slot.failure !== undefined && now - slot.failure.at < failureRetryMs) {
      const kept = usable();
      if (kept !== undefined) return kept.value as T;
      throw slot.failure.error;
    }
    try {
      await this.fetchInto(slot, fetch);
    } catch (error) {
      const kept = usable();
      if (kept !== undefined) return kept.value as T;
      throw error;
    }
    const fresh = usable();
    if (fresh === undefined)
      throw slot.failure?.error ?? fetch.unavailable('it expired', undefined);
    return fresh.value as T;
  }

  /** Forgets every copy: the memory stays usable. */
  clear(): void {
    this.slots.clear();
  }

  private slot(key: string): DocumentSlot {
    let slot = this.slots.get(key);
    if (slot === undefined) {
      slot = { reading: undefined, refreshAt: 0, failure: undefined, inFlight: undefined };
      this.slots.set(key, slot);
    }
    return slot;
  }

  /** One fetch for concurrent callers; its outcome told to the listeners. */
  private fetchInto<T>(slot: DocumentSlot, fetch: DocumentFetch<T>): Promise<unknown> {
    slot.inFlight ??= (async () => {
      try {
        const reading = await this.fetchOnce(fetch);
        const fetchedAt = this.clock();
        slot.reading = reading;
        slot.refreshAt = Math.max(
          fetchedAt + minRefreshMs,
          Math.min(fetchedAt + fetch.refreshMs, reading.refreshBy ?? Number.POSITIVE_INFINITY),
        );
        slot.failure = undefined;
        this.tell({ url: fetch.url, outcome: 'success', error: undefined, keptCopy: false });
      } catch (error) {
        const coded = isSsogateError(error) ? error : fetch.unavailable(String(error), error);
        slot.failure = { at: this.clock(), error: coded };
        const keptCopy =
          slot.reading !== undefined &&
          (slot.reading.expiresAt === undefined || this.clock() < slot.reading.expiresAt);
        this.tell({ url: fetch.url, outcome: coded.code, error: coded, keptCopy });
        throw coded;
      } finally {
        slot.inFlight = undefined;
      }
    })();
    return slot.inFlight;
  }

  private async fetchOnce<T>(fetch: DocumentFetch<T>): Promise<DocumentReading<T>> {
    const request: OutboundRequest = {
      method: 'GET',
      url: fetch.url,
      headers: { accept: fetch.accept },
      body: undefined,
      timeoutMs: fetch.timeoutMs,
      maxResponseBytes: fetch.maxBytes,
    };
    let response;
    try {
      response = await this.send(request);
    } catch (error) {
      const reason = isSsogateError(error) ? `${error.code}: ${error.message}` : String(error);
      throw fetch.unavailable(reason, error);
    }
    if (response.status !== 200) {
      throw fetch.unavailable(`it answered status ${response.status}`, undefined);
    }
    return fetch.read(response.body, this.clock());
  }

  private tell(event: DocumentFetchEvent): void {
    for (const listener of this.listeners) listener(event);
  }
}
