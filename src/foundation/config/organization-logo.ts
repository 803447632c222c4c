import { readFileSync } from 'node:fs';

/** The organisation's logo, read once at start and served at /_sso/assets/logo. */
export interface OrganizationLogo {
  readonly type: string;
  readonly body: Buffer;
}

/** Big enough for any logo, small enough that every sign-in page can fetch it. */
const MAX_LOGO_BYTES = 256 * 1024;

/**
 * The logo file of SSOGATE_ORGANIZATION_LOGO_FILE: PNG, JPEG, WebP or SVG,
 * known by its first bytes rather than its name, at most 256 KiB. A file
 * that is none of these stops the start, so a typo shows at once rather
 * than as a broken image on the sign-in page.
 */
export function readOrganizationLogo(
  file: string,
  variable: string,
  problems: string[],
): OrganizationLogo | undefined {
  let body: Buffer;
  try {
    body = readFileSync(file);
  } catch (error) {
    problems.push(
      `${variable}: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
    );
    return undefined;
  }
  if (body.length === 0 || body.length > MAX_LOGO_BYTES) {
    problems.push(
      `${variable}: ${file} is ${body.length} bytes; a logo must be 1 byte to ${MAX_LOGO_BYTES / 1024} KiB`,
    );
    return undefined;
  }
  const type = imageType(body);
  if (type === undefined) {
    problems.push(`${variable}: ${file} is not a PNG, JPEG, WebP or SVG image`);
    return undefined;
  }
  return { type, body };
}

function imageType(body: Buffer): string | undefined {
  if (body.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return 'image/png';
  if (body[0] === 0xff && body[1] === 0xd8 && body[2] === 0xff) return 'image/jpeg';
  if (body.toString('latin1', 0, 4) === 'RIFF' && body.toString('latin1', 8, 12) === 'WEBP')
    return 'image/webp';
  // An SVG is text: an optional XML prolog, comments or doctype, then <svg.
  const head = body.toString('utf8', 0, 2048).replace(/^\uFEFF/, '');
  if (/^\s*(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*|<!DOCTYPE[^>]*>\s*)*<svg[\s>]/i.test(head))
    return 'image/svg+xml';
  return undefined;
}
