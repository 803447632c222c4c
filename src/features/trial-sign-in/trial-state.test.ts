import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { randomToken } from '../../core/index.js';
import { isTrialState, trialStateBytes } from './trial-state.js';

test("a sign-in's state is never taken for a test sign-in's, and a test's always is", () => {
  for (let i = 0; i < 2000; i += 1) {
    assert.equal(isTrialState(randomToken(randomBytes)), false);
    assert.equal(isTrialState(randomToken(randomBytes, trialStateBytes)), true);
  }
});

test("a test's length with a character no random state has is not a test's state", () => {
  const state = randomToken(randomBytes, trialStateBytes);
  assert.equal(isTrialState(`${state.slice(0, -1)}.`), false);
  assert.equal(isTrialState(`${state}A`), false);
  assert.equal(isTrialState(''), false);
});
