/**
 * The one stylesheet of every gateway page, served at /_sso/assets/style.css
 * (the CSP allows no inline style). System fonts and no external resource.
 * Colours are CSS variables, with a dark set under prefers-color-scheme:
 * dark, and keep at least 4.5:1 contrast in both (WCAG 1.4.3); controls are at least
 * 44 px tall (WCAG 2.5.5) and have a visible focus ring (WCAG 2.4.7).
 */
export const STYLESHEET_PATH = '/_sso/assets/style.css';

export const stylesheet = `*,*::before,*::after{box-sizing:border-box}
:root{color-scheme:light dark;--page:#f4f5f7;--surface:#fff;--text:#1b1d21;--muted:#4b5058;--line:#d5d8de;--field-line:#6b7280;--primary:#0a4fbf;--primary-hover:#083d94;--on-primary:#fff;--error-bg:#fdecea;--error-line:#b42318;--error-text:#7a1a11;--focus:#f0a500}
@media (prefers-color-scheme:dark){:root{--page:#111418;--surface:#1b1f24;--text:#e8eaed;--muted:#a9b0ba;--line:#363c45;--field-line:#8a929c;--primary:#8ab4f8;--primary-hover:#aecbfa;--on-primary:#0b1a33;--error-bg:#3a1714;--error-line:#f28b82;--error-text:#fbd3cf}}
html{-webkit-text-size-adjust:100%;text-size-adjust:100%}
body{margin:0;background:var(--page);color:var(--text);font:1rem/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"PingFang SC","Microsoft YaHei","Noto Sans CJK SC",sans-serif}
header.top{max-width:28rem;margin:1.5rem auto 0;display:flex;align-items:center;justify-content:space-between;gap:1rem;flex-wrap:wrap}
.product{display:flex;align-items:center;gap:.5rem;font-weight:700;font-size:1.125rem}
.languages ul{list-style:none;margin:0;padding:0;display:flex;gap:.25rem .75rem;font-size:.875rem}
.languages a,.languages span{display:inline-block;padding:.5rem .25rem;min-height:44px;line-height:28px}
.languages [aria-current]{font-weight:600}
main{max-width:28rem;margin:1rem auto 2rem;padding:1.5rem;background:var(--surface);border:1px solid var(--line);border-radius:8px}
@media (max-width:30rem){header.top{margin:0;padding:.5rem 1rem}main{margin:0;border:0;border-radius:0;min-height:100vh;padding:1rem}}
.organization{display:flex;align-items:center;gap:.75rem;margin:0 0 1rem;font-weight:600;color:var(--muted)}
.organization img{max-height:40px;max-width:10rem}
h1{font-size:1.5rem;line-height:1.25;margin:0 0 1rem}
h2{font-size:1.125rem;margin:1.5rem 0 .75rem}
p{margin:0 0 1rem;overflow-wrap:anywhere}
a{color:var(--primary)}
a:hover{text-decoration-thickness:2px}
:focus-visible{outline:3px solid var(--focus);outline-offset:2px}
.button,button{display:flex;align-items:center;justify-content:center;width:100%;min-height:44px;padding:.5rem 1rem;margin:0 0 .75rem;border:1px solid var(--primary);border-radius:6px;background:var(--primary);color:var(--on-primary);font:inherit;font-weight:600;text-align:center;text-decoration:none;cursor:pointer;overflow-wrap:anywhere}
.button.secondary,button.secondary{background:var(--surface);color:var(--primary)}
form[action="/_sso/logout"] button[value="here"]{background:var(--surface);color:var(--primary)}
.sign-out-means{margin:-.25rem 0 1rem}
.button:hover,button:hover{background:var(--primary-hover);color:var(--on-primary)}
ul.entries{list-style:none;margin:0;padding:0}
label{display:block;font-weight:600;margin:0 0 .25rem}
input{display:block;width:100%;min-height:44px;padding:.5rem .75rem;margin:0 0 1rem;border:1px solid var(--field-line);border-radius:6px;font:inherit;color:inherit;background:var(--surface)}
.error{padding:.75rem 1rem;border-left:4px solid var(--error-line);background:var(--error-bg);color:var(--error-text)}
.meta{color:var(--muted);font-size:.875rem}
.meta code{font-size:1em;user-select:all}
.separator{text-align:center;color:var(--muted);margin:1rem 0}
nav.actions ul,main nav ul{list-style:none;margin:1rem 0 0;padding:0;display:flex;flex-wrap:wrap;gap:.5rem 1.5rem}
form{margin:0}
`;
