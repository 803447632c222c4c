import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  attributeToColumn,
  columnToAttribute,
  isUserAttribute,
  userAttributes,
} from './attributes.js';

describe('user attributes', () => {
  test('the camelCase rule turns columns into attribute names', () => {
    assert.equal(columnToAttribute('USER_ID'), 'userId');
    assert.equal(columnToAttribute('user_name'), 'userName');
    assert.equal(columnToAttribute('email'), 'email');
  });

  test('every attribute round-trips through its column name', () => {
    for (const attribute of userAttributes) {
      assert.equal(columnToAttribute(attributeToColumn(attribute)), attribute);
    }
    assert.equal(attributeToColumn('userId'), 'user_id');
  });

  test('only the listed attributes are known; inherited names are not', () => {
    assert.equal(isUserAttribute('department'), true);
    assert.equal(isUserAttribute('isAdmin'), false);
    assert.equal(isUserAttribute('toString'), false);
    assert.equal(isUserAttribute('__proto__'), false);
  });
});
