import { z } from 'zod';
import { audit } from '../../../foundation/http/audit.js';
import type { FeatureApiRoutes } from '../../admin-api/routes.js';
import { userIdParams } from '../../admin-api/schemas.js';
import { storedUser } from '../../admin-api/user-routes.js';
import { endSignInsOf } from '../../sessions/end-sign-ins.js';
import type { Gateway } from '../factor-gateway.js';

const resetAnswer = z
  .looseObject({
    factorsRemoved: z.number().int().min(0),
    sessionsEnded: z.number().int().min(0),
  })
  .meta({ id: 'SecondFactorReset' });

/**
 * An administrator's reset of a user's second factors (docs/admin-api.md#users):
 * every authenticator and recovery code removed, and every session of the
 * user ended, so the next access that asks for a factor enrols anew after a
 * fresh sign-in. Audited as a `user_change` with the counts. Declared
 * through the admin API's router, handed to it by app/build-app.ts.
 */
export function secondFactorAdminRoutes(gateway: Gateway): FeatureApiRoutes {
  return {
    among: 'resources',
    declare: (api) => {
      api.route(
        {
          method: 'POST',
          url: '/_sso/api/users/:id/second-factors/reset',
          tag: 'users',
          summary: "Reset a user's second factors, and end the user's sessions",
          description:
            'Removes every authenticator and recovery code of the user and signs the user out everywhere: ' +
            'the next page that asks for a second factor enrols a new one after a fresh sign-in.',
          params: userIdParams,
          responses: {
            200: {
              description: 'how many factors were removed and sessions ended',
              schema: resetAnswer,
            },
          },
          errors: [404],
        },
        async (call) => {
          const user = await storedUser(gateway, call.params.id);
          const factorsRemoved = await gateway.storage.secondFactors.removeAll(user.id);
          const sessionsEnded = await endSignInsOf(
            gateway,
            { userRowId: user.id },
            'ended_by_administrator',
          );
          await audit(gateway, call.request, {
            kind: 'user_change',
            outcome: 'success',
            userId: user.userId,
            actor: call.admin.actor,
            detail: { action: 'reset_second_factors', factorsRemoved, sessionsEnded },
          });
          gateway.telemetry.secondFactor('reset', 'success');
          return { body: { factorsRemoved, sessionsEnded } };
        },
      );
    },
  };
}
