import { fieldId } from './entry-draft';

/**
 * Focuses the input of a field, or the closest group that holds it, first
 * opening every collapsed section around it: a link to a field (a problem
 * in the summary, a step of the test trace) always lands on it.
 */
export function focusField(field: string): void {
  let path = field;
  for (;;) {
    const element = document.getElementById(fieldId(path));
    if (element !== null) {
      for (let around = element.closest('details'); around !== null;) {
        around.open = true;
        around = around.parentElement?.closest('details') ?? null;
      }
      element.focus();
      return;
    }
    const cut = Math.max(path.lastIndexOf('.'), path.lastIndexOf('['));
    if (cut <= 0) return;
    path = path.slice(0, cut);
  }
}
