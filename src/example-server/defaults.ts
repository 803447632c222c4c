import type { ExampleClient, ExampleUser } from './types.js';

export const defaultClient: ExampleClient = { appid: 'demo-app', secret: 'demo-secret' };

export const defaultUsers: readonly ExampleUser[] = [
  {
    username: 'alice',
    password: 'alice-password',
    userId: 'alice',
    name: 'Alice Liddell',
    email: 'alice@example.test',
    department: 'Engineering',
  },
  {
    username: 'bob',
    password: 'bob-password',
    userId: 'bob',
    name: 'Bob Builder',
    email: 'bob@example.test',
    department: 'Operations',
  },
];

/** Codes live 60 s, as short as RFC 6749 §4.1.2 recommends at most ten minutes. */
export const codeLifetimeMs = 60_000;
export const tokenLifetimeSeconds = 7200;
export const sessionCookie = 'example_session';
