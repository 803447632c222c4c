import type { EntryInput } from '../../core/index.js';
import { z } from 'zod';
import { entryInput } from '../../core/index.js';

/**
 * The entry fields of docs/entries.md#shapes-beyond-the-basic-flow, as the
 * admin API sends them back and as its OpenAPI document describes them. None
 * holds a secret: the application-token call names `${app_secret}`, which
 * the gateway fills in when it calls.
 */
export function presentShapeFields(input: EntryInput): Record<string, unknown> {
  return {
    responseMode: input.responseMode,
    callbackCodeParameter: input.callbackCodeParameter,
    authorizeFragment: input.authorizeFragment,
    appToken: input.appToken,
    codeInUserInfo: input.codeInUserInfo,
    userInfoValues: input.userInfoValues,
    userInfoCalls: input.userInfoCalls,
    groupMapping: input.groupMapping,
  };
}

const shape = entryInput.shape;

export const shapeFieldSchemas = {
  responseMode: shape.responseMode,
  callbackCodeParameter: z.string().optional(),
  authorizeFragment: z.string().optional(),
  appToken: shape.appToken,
  codeInUserInfo: shape.codeInUserInfo,
  userInfoValues: shape.userInfoValues,
  userInfoCalls: shape.userInfoCalls,
  groupMapping: shape.groupMapping,
};
