/**
 * The product's mark: an arched gate with a keyhole, on the primary blue.
 * Served at /_sso/assets/mark.svg and as the favicon (/favicon.ico too), and
 * shown at the top of every page.
 */
export const MARK_PATH = '/_sso/assets/mark.svg';

export const PRODUCT_NAME = 'ssogate';

export const markSvg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64" role="img" aria-label="ssogate">
<rect width="64" height="64" rx="14" fill="#0a4fbf"/>
<path d="M18 54V28a14 14 0 0 1 28 0v26" fill="none" stroke="#fff" stroke-width="6" stroke-linecap="round"/>
<circle cx="32" cy="33" r="5" fill="#fff"/>
<path d="M32 36v9" stroke="#fff" stroke-width="4" stroke-linecap="round"/>
</svg>
`;
