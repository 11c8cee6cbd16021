/**
 * Ends `npm test` with what was skipped and why, so a run without an optional data set says so
 * instead of passing silently. The reason is the note a test gives to `ctx.skip(note)`.
 */
import { relative } from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

export interface SkippedTest {
  file: string;
  name: string;
  reason: string;
}

/**
 * Every skipped test of a run, with its reason (or that none was given). A run narrowed by a tag or
 * a name (`--tags-filter`, `-t`: CI's run of the tests that need data beside the checkout) marks
 * every test it leaves out as skipped before it starts; those are not listed, only tests that
 * skipped themselves while running (`ctx.skip(why)`).
 */
export function skippedTests(modules: ReadonlyArray<TestModule>, root: string, narrowed = false): SkippedTest[] {
  const skipped: SkippedTest[] = [];
  for (const mod of modules) {
    for (const test of mod.children.allTests()) {
      const result = test.result();
      if (result.state !== 'skipped') continue;
      if (narrowed && test.options.mode === 'skip') continue;
      skipped.push({ file: relative(root, mod.moduleId), name: test.fullName, reason: result.note ?? 'no reason given' });
    }
  }
  return skipped;
}

export function formatSkipSummary(skipped: SkippedTest[]): string {
  if (skipped.length === 0) return 'Skipped: nothing.';
  const lines = [`Skipped: ${skipped.length} test${skipped.length === 1 ? '' : 's'}`];
  for (const s of skipped) lines.push(`  ${s.file} > ${s.name}`, `      why: ${s.reason}`);
  return lines.join('\n');
}

export default class SkipSummaryReporter implements Reporter {
  private root = process.cwd();
  private narrowed = false;

  onInit(vitest: { config: { root: string; tagsFilter?: string[]; testNamePattern?: RegExp } }): void {
    this.root = vitest.config.root;
    this.narrowed = (vitest.config.tagsFilter?.length ?? 0) > 0 || vitest.config.testNamePattern !== undefined;
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    process.stdout.write(`\n${formatSkipSummary(skippedTests(modules, this.root, this.narrowed))}\n`);
  }
}
