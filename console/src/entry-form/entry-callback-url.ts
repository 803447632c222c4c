import { embeddedPublicUrl } from '../api';
import { callbackUrl, publicOrigin } from './form-assist';

/** The callback URL of entry `id` as it must be registered at its server. */
export function entryCallbackUrl(id: string): string {
  return callbackUrl(publicOrigin(embeddedPublicUrl(), window.location.origin), id);
}
