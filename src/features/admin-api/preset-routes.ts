import { z } from 'zod';
import { presets } from '../../foundation/presets/presets.js';
import type { ApiRouter } from './api-router.js';

const presetAnswer = z.looseObject({
  presets: z.array(
    z.looseObject({
      preset: z.string().describe('the name for `ssogate entries add --preset`'),
      name: z.string(),
      'zh-CN': z
        .looseObject({ name: z.string() })
        .describe("the provider's name in Chinese, for a console in that language"),
      setup: z.string().describe("the provider's page on registering an application"),
      parameters: z.record(
        z.string(),
        z.looseObject({
          default: z.string().optional(),
          label: z.string().describe('what a form calls the parameter'),
          description: z.string(),
          'zh-CN': z
            .looseObject({ label: z.string(), description: z.string() })
            .describe('the label and description in Chinese'),
        }),
      ),
      entry: z
        .record(z.string(), z.unknown())
        .describe('the entry without id and credentials; {{name}} stands for a parameter'),
    }),
  ),
});

/** GET /_sso/api/presets: the providers an entry can start from (docs/providers.md). */
export function presetRoutes(api: ApiRouter): void {
  api.route(
    {
      method: 'GET',
      url: '/_sso/api/presets',
      tag: 'entries',
      summary: 'The provider presets',
      description:
        'One per provider: the entry it makes, with {{parameters}} the administrator fills, ' +
        'besides the id, appid and appsecret.',
      responses: { 200: { description: 'the presets', schema: presetAnswer } },
    },
    () => Promise.resolve({ body: { presets } }),
  );
}
