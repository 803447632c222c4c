import { z } from 'zod';
import { audit } from '../../../foundation/http/audit.js';
import type { ApiCall } from '../../admin-api/api-route.js';
import type { ApiRouter } from '../../admin-api/api-router.js';
import type { Gateway } from '../provider-gateway.js';
import type { ClientChange } from './oidc-clients.js';
import {
  createOidcClient,
  deleteOidcClient,
  existingOidcClient,
  oidcClientCreateBody,
  oidcClientId,
  oidcClientSettings,
  rotateOidcClientSecret,
  updateOidcClient,
} from './oidc-clients.js';
import {
  oidcClientAnswer,
  oidcClientListAnswer,
  oidcClientSecretAnswer,
  presentOidcClient,
} from './client-answers.js';

const clientParams = z.strictObject({ clientId: oidcClientId });

/**
 * The applications that sign in through the gateway's OpenID Provider
 * (docs/openid-provider.md#clients). A confidential client's secret is shown
 * once, in the answer that made or rotated it, and stored only as its hash.
 * The changes themselves are oidc-clients.ts's, shared with the command line.
 */
export function oidcClientRoutes(api: ApiRouter, gateway: Gateway): void {
  const recorded = (call: ApiCall, change: Pick<ClientChange, 'detail'>) =>
    audit(gateway, call.request, {
      kind: 'client_change',
      outcome: 'success',
      actor: call.admin.actor,
      detail: change.detail,
    });

  api.route(
    {
      method: 'GET',
      url: '/_sso/api/oidc-clients',
      tag: 'clients',
      summary: 'Every OpenID client; never a secret',
      responses: { 200: { description: 'the clients', schema: oidcClientListAnswer } },
    },
    async () => ({
      body: { clients: (await gateway.storage.providerClients.list()).map(presentOidcClient) },
    }),
  );

  api.route(
    {
      method: 'POST',
      url: '/_sso/api/oidc-clients',
      tag: 'clients',
      summary: "Register an OpenID client; a confidential client's secret is in the answer, once",
      body: oidcClientCreateBody,
      responses: { 201: { description: 'created', schema: oidcClientSecretAnswer } },
      errors: [409],
    },
    async (call) => {
      const change = await createOidcClient(gateway, call.body);
      await recorded(call, change);
      return {
        status: 201,
        body: { client: presentOidcClient(change.client), secret: change.secret },
      };
    },
  );

  api.route(
    {
      method: 'GET',
      url: '/_sso/api/oidc-clients/:clientId',
      tag: 'clients',
      summary: 'One OpenID client; never its secret',
      params: clientParams,
      responses: { 200: { description: 'the client', schema: oidcClientAnswer } },
      errors: [404],
    },
    async (call) => ({
      body: { client: presentOidcClient(await existingOidcClient(gateway, call.params.clientId)) },
    }),
  );

  api.route(
    {
      method: 'PUT',
      url: '/_sso/api/oidc-clients/:clientId',
      tag: 'clients',
      summary: "Replace an OpenID client's settings (its secret, or having none, stays)",
      params: clientParams,
      body: oidcClientSettings,
      responses: { 200: { description: 'saved', schema: oidcClientAnswer } },
      errors: [404],
    },
    async (call) => {
      const change = await updateOidcClient(gateway, call.params.clientId, call.body);
      await recorded(call, change);
      return { body: { client: presentOidcClient(change.client) } };
    },
  );

  api.route(
    {
      method: 'POST',
      url: '/_sso/api/oidc-clients/:clientId/secret',
      tag: 'clients',
      summary: "Rotate a confidential client's secret: the old one stops working at once",
      params: clientParams,
      responses: { 200: { description: 'the new secret, once', schema: oidcClientSecretAnswer } },
      errors: [404, 409],
    },
    async (call) => {
      const change = await rotateOidcClientSecret(gateway, call.params.clientId);
      await recorded(call, change);
      return { body: { client: presentOidcClient(change.client), secret: change.secret } };
    },
  );

  api.route(
    {
      method: 'DELETE',
      url: '/_sso/api/oidc-clients/:clientId',
      tag: 'clients',
      summary: 'Delete an OpenID client: its codes and tokens stop working at once',
      params: clientParams,
      responses: { 204: { description: 'deleted' } },
      errors: [404],
    },
    async (call) => {
      await recorded(call, await deleteOidcClient(gateway, call.params.clientId));
      return { status: 204 };
    },
  );
}
