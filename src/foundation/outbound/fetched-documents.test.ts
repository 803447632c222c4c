import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { OutboundRequest, ThirdPartyResponse } from '../../core/index.js';
import { SsogateError } from '../../core/index.js';
import { FetchedDocuments } from './fetched-documents.js';

/**
 * The memory of fetched documents (fetched-documents.ts), with a clock and
 * an answer the test sets: when a copy is fetched again, what a failure
 * leaves in use, and that concurrent uses share one fetch.
 */
/** What a listener of onFetched is told. */
type DocumentFetchEvent = Parameters<Parameters<FetchedDocuments['onFetched']>[0]>[0];

describe('documents fetched from a URL', () => {
  function setup() {
    const state = {
      now: 1_000_000,
      answer: { status: 200, body: 'one' } as ThirdPartyResponse | Error,
      calls: [] as OutboundRequest[],
      events: [] as DocumentFetchEvent[],
    };
    const documents = new FetchedDocuments(
      (request) => {
        state.calls.push(request);
        const { answer } = state;
        return answer instanceof Error ? Promise.reject(answer) : Promise.resolve(answer);
      },
      () => state.now,
    );
    documents.onFetched((event) => state.events.push(event));
    const get = (options: { expiresAt?: number; refreshBy?: number } = {}) =>
      documents.get({
        key: 'k',
        url: 'https://idp.example.test/metadata',
        accept: 'text/xml',
        timeoutMs: 1000,
        maxBytes: 1024,
        refreshMs: 60 * 60 * 1000,
        read: (text) => {
          if (text === 'bad') throw new SsogateError('saml_metadata_invalid', 'not metadata');
          return Promise.resolve({ value: text, ...options });
        },
        unavailable: (reason) => new SsogateError('saml_metadata_unavailable', reason),
      });
    return { state, get };
  }

  test('a copy is used until its refresh time, then fetched again and replaced', async () => {
    const { state, get } = setup();
    assert.equal(await get(), 'one');
    state.answer = { status: 200, body: 'two' };
    state.now += 59 * 60 * 1000;
    assert.equal(await get(), 'one');
    assert.equal(state.calls.length, 1);
    state.now += 2 * 60 * 1000;
    assert.equal(await get(), 'two');
    assert.equal(state.calls.length, 2);
    assert.deepEqual(
      state.events.map((event) => event.outcome),
      ['success', 'success'],
    );
  });

  test('a failed refresh keeps the copy, told once; retried only after 30 s', async () => {
    const { state, get } = setup();
    await get();
    state.answer = { status: 500, body: '' };
    state.now += 61 * 60 * 1000;
    assert.equal(await get(), 'one');
    assert.equal(await get(), 'one');
    assert.equal(state.calls.length, 2, 'fetched again within 30 s of a failure');
    const [, failed] = state.events;
    assert.equal(failed?.outcome, 'saml_metadata_unavailable');
    assert.equal(failed.keptCopy, true);
    assert.match(failed.error?.message ?? '', /status 500/);
    state.answer = { status: 200, body: 'bad' };
    state.now += 31 * 1000;
    assert.equal(await get(), 'one', 'an invalid document replaced the good copy');
    assert.equal(state.events.at(-1)?.outcome, 'saml_metadata_invalid');
  });

  test('a first fetch that fails is its coded error, remembered for 30 s', async () => {
    const { state, get } = setup();
    state.answer = new SsogateError('outbound_network', 'GET to idp.example.test failed');
    await assert.rejects(get(), { code: 'saml_metadata_unavailable', message: /outbound_network/ });
    await assert.rejects(get(), { code: 'saml_metadata_unavailable' });
    assert.equal(state.calls.length, 1);
    state.answer = { status: 200, body: 'one' };
    state.now += 31 * 1000;
    assert.equal(await get(), 'one');
  });

  test('concurrent uses share one fetch', async () => {
    const { state, get } = setup();
    assert.deepEqual(await Promise.all([get(), get(), get()]), ['one', 'one', 'one']);
    assert.equal(state.calls.length, 1);
  });

  test("a document's own refresh time comes first, but not under a minute; an expired copy is never used", async () => {
    const { state, get } = setup();
    await get({ refreshBy: state.now + 1000, expiresAt: state.now + 10 * 60 * 1000 });
    state.now += 30 * 1000;
    await get();
    assert.equal(state.calls.length, 1, 'fetched again within a minute');
    state.now += 31 * 1000;
    state.answer = { status: 503, body: '' };
    assert.equal(await get(), 'one', 'the copy is still valid');
    state.now += 10 * 60 * 1000;
    await assert.rejects(get(), { code: 'saml_metadata_unavailable' });
  });
});
