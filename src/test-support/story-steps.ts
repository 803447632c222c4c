import { test } from 'node:test';

/** Declares one step of a story: a test of its own, run in order with the others. */
export type StoryStep = (name: string, run: () => Promise<void> | void) => void;

/**
 * The steps of one story told in a browser (one page, each step starting
 * where the one before left it). When a step fails, the steps after it are
 * skipped, naming the step that failed: they would fail only because the
 * page is not where they start, and a run shows the one real failure
 * instead of a cascade.
 */
export function storySteps(): StoryStep {
  let failed: string | undefined;
  return (name, run) => {
    test(name, async (t) => {
      if (failed !== undefined) {
        t.skip(`the story stopped at the failed step "${failed}"`);
        return;
      }
      try {
        await run();
      } catch (error) {
        failed = name;
        throw error;
      }
    });
  };
}
