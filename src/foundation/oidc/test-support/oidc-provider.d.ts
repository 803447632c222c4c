// The few parts of npm's oidc-provider (which ships no types) the test provider uses.
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  interface Account {
    accountId: string;
    claims(): Record<string, unknown>;
  }

  interface Client {
    grantTypeAllowed(grant: string): boolean;
  }

  interface CodeLike {
    scopes: Set<string>;
  }

  export default class Provider {
    constructor(
      issuer: string,
      configuration: Record<string, unknown> & {
        findAccount?: (ctx: unknown, id: string) => Account | undefined;
        issueRefreshToken?: (ctx: unknown, client: Client, code: CodeLike) => boolean;
      },
    );
    callback(): (request: IncomingMessage, response: ServerResponse) => void;
  }
}
