/**
 * The one stylesheet of every gateway page, served at /_sso/assets/style.css
 * (the CSP allows no inline style). System fonts and no external resource.
 * Colours keep at least 4.5:1 contrast (WCAG 1.4.3); controls are at least
 * 44 px tall (WCAG 2.5.5) and have a visible focus ring (WCAG 2.4.7).
 */
export const STYLESHEET_PATH = '/_sso/assets/style.css';

export const stylesheet = `*,*::before,*::after{box-sizing:border-box}
html{-webkit-text-size-adjust:100%;text-size-adjust:100%}
body{margin:0;background:#f4f5f7;color:#1b1d21;font:1rem/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
main{max-width:28rem;margin:2rem auto;padding:1.5rem;background:#fff;border:1px solid #d5d8de;border-radius:8px}
@media (max-width:30rem){main{margin:0;border:0;border-radius:0;min-height:100vh;padding:1rem}}
h1{font-size:1.5rem;line-height:1.25;margin:0 0 1rem}
h2{font-size:1.125rem;margin:1.5rem 0 .75rem}
p{margin:0 0 1rem;overflow-wrap:anywhere}
a{color:#0a4fbf}
a:hover{text-decoration-thickness:2px}
:focus-visible{outline:3px solid #f0a500;outline-offset:2px}
.button,button{display:flex;align-items:center;justify-content:center;width:100%;min-height:44px;padding:.5rem 1rem;margin:0 0 .75rem;border:1px solid #0a4fbf;border-radius:6px;background:#0a4fbf;color:#fff;font:inherit;font-weight:600;text-align:center;text-decoration:none;cursor:pointer;overflow-wrap:anywhere}
.button.secondary,button.secondary{background:#fff;color:#0a4fbf}
.button:hover,button:hover{background:#083d94;color:#fff}
ul.entries{list-style:none;margin:0;padding:0}
label{display:block;font-weight:600;margin:0 0 .25rem}
input{display:block;width:100%;min-height:44px;padding:.5rem .75rem;margin:0 0 1rem;border:1px solid #6b7280;border-radius:6px;font:inherit;color:inherit;background:#fff}
.error{padding:.75rem 1rem;border-left:4px solid #b42318;background:#fdecea;color:#7a1a11}
.meta{color:#4b5058;font-size:.875rem}
.meta code{font-size:1em;user-select:all}
.separator{text-align:center;color:#4b5058;margin:1rem 0}
nav ul{list-style:none;margin:1rem 0 0;padding:0;display:flex;flex-wrap:wrap;gap:.5rem 1.5rem}
form{margin:0}
`;
