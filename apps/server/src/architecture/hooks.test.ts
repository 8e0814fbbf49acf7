/**
 * Every hook one module hangs on another's object (a listener, a step, a hook run in a
 * transaction) is listed in ARCHITECTURE.md's table "Hooks between modules", and the table lists
 * nothing the code does not hang. The code's hooks are the calls, from any file of a module, of
 * the hook-taking methods the modules' classes declare (`onX`, `useX`, `registerXHook`: public,
 * one parameter, returning void); hooks.ts reads both sides.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { hooksHung, hooksTable, hooksTableDifferences } from './hooks.js';
import { productionTexts, SRC } from './source-imports.js';

const ARCHITECTURE_MD = path.join(SRC, '../../../ARCHITECTURE.md');

describe('the hooks between modules', () => {
  it('are the ones ARCHITECTURE.md lists', () => {
    const table = hooksTable(readFileSync(ARCHITECTURE_MD, 'utf8'));
    const code = hooksHung(productionTexts());
    expect(code.length).toBeGreaterThanOrEqual(5);
    expect(hooksTableDifferences(code, table)).toEqual([]);
  });

  it('notices a hook the table misses, and a row nothing hangs', () => {
    const texts = new Map([
      [
        'modules/a/policy.ts',
        'export class Policy {\n  onEntry(hook: Hook): void {}\n  private onInside(x: X): void {}\n  onTwo(a: A, b: B): void {}\n}',
      ],
      ['modules/b/plugin.ts', 'app.deps.policy.onEntry(b.hook); policy.onTwo(x, y);'],
      ['modules/a/policy-user.ts', 'this.onEntry(h);'],
    ]);
    const code = hooksHung(texts);
    expect(code).toEqual([{ hook: 'Policy.onEntry', declaredBy: 'a', hungBy: 'b' }]);
    const markdown = [
      '## Hooks between modules',
      '',
      '| hook | declared by | hung by | why |',
      '| --- | --- | --- | --- |',
      '| `Policy.onLeave` | `a` | `c` | c leaves |',
      '',
    ].join('\n');
    expect(hooksTableDifferences(code, hooksTable(markdown))).toEqual([
      'not in the table: Policy.onEntry | declared by a | hung by b',
      'hung by nothing: Policy.onLeave | declared by a | hung by c',
    ]);
    const listed = markdown.replace(
      '| `Policy.onLeave` | `a` | `c` | c leaves |',
      '| `Policy.onEntry` | `a` | `b` |  |',
    );
    expect(hooksTableDifferences(code, hooksTable(listed))).toEqual([
      'no reason given: Policy.onEntry | declared by a | hung by b',
    ]);
  });
});
