import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { EntryBody } from '../types.js';
import { entryTestRequest, extraSamplesOf } from './pasted-samples.js';

const plain = {
  id: 'corp',
  name: 'Corp',
  enabled: true,
  authorizeUrl: 'https://idp.example/authorize?state=${state}',
} as EntryBody;

const shaped = {
  ...plain,
  appToken: { url: 'https://idp.example/gettoken', parse: "JSON_GET($response, 'access_token')" },
  userInfoCalls: [
    { name: 'member', url: 'https://idp.example/member?id=${userid}', mapping: '' },
    { name: 'dept', url: 'https://idp.example/dept', mapping: '' },
  ],
} as EntryBody;

const samples = {
  appTokenResponse: '{"access_token":"x"}',
  tokenResponse: '{"access_token":"t"}',
  userInfoResponse: '{"id":"u"}',
  callResponses: { member: '{"name":"m"}', gone: '{}' },
};

describe("the test panel's samples", () => {
  test('a plain entry asks for the token and user-info answers only', () => {
    assert.deepEqual(extraSamplesOf(plain), { appToken: false, calls: [] });
    assert.deepEqual(entryTestRequest(plain, undefined, samples), {
      entry: plain,
      tokenResponse: samples.tokenResponse,
      userInfoResponse: samples.userInfoResponse,
    });
  });

  test('an entry with an application token and calls after user info sends a sample for each', () => {
    assert.deepEqual(extraSamplesOf(shaped), { appToken: true, calls: ['member', 'dept'] });
    assert.deepEqual(entryTestRequest(shaped, 'corp', samples), {
      entry: shaped,
      existingId: 'corp',
      appTokenResponse: samples.appTokenResponse,
      tokenResponse: samples.tokenResponse,
      userInfoResponse: samples.userInfoResponse,
      // A call not pasted yet is sent empty (the API reports it); one the entry dropped is not sent.
      userInfoCallResponses: { member: '{"name":"m"}', dept: '' },
    });
  });
});
