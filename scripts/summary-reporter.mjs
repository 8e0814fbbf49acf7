// Prints one plain closing line, 'tests: N passed, N failed, N skipped', after Vitest's own
// summary, so that any CI reading the last line knows how many tests ran.
export default class SummaryReporter {
  onTestRunEnd(testModules, unhandledErrors) {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const testModule of testModules) {
      if (testModule.state() === 'failed' && [...testModule.children.allTests()].length === 0)
        failed++;
      for (const test of testModule.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failed++;
        else skipped++;
      }
    }
    failed += unhandledErrors.length;
    console.info(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
  }
}
