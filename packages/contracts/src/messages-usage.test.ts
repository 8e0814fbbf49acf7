/**
 * Every text lives once: a constant in messages.ts is used somewhere, and the apps name it
 * instead of restating its words. A scan of the sources (tests excluded), read with the
 * TypeScript parser so comments and identifiers are never taken for texts.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import * as messageModule from './messages';

const repoRoot = join(import.meta.dirname, '../../..');
const appSources = ['apps/server/src', 'apps/web/src'];
const contractsSources = 'packages/contracts/src';

function sourceFiles(dir: string): string[] {
  return readdirSync(join(repoRoot, dir), { recursive: true, encoding: 'utf8' })
    .filter((path) => /\.tsx?$/.test(path) && !/\.test\.tsx?$/.test(path))
    .map((path) => join(repoRoot, dir, path));
}

/**
 * Letters and digits only, lower case after the first letter: 'Сервис недоступен. Попробуйте
 * позже.' restates 'Сервис недоступен, попробуйте позже', while a lower-case fragment of a
 * sentence ('введите текущий пароль.' after a colon) is another text.
 */
function normalized(text: string): string {
  const words = text.replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
  return words.slice(0, 1) + words.slice(1).toLowerCase().replace(/ё/g, 'е');
}

/** The texts a person could read in a source file: string literals and JSX text. */
function textsOf(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
  const texts: string[] = [];
  const visit = (node: ts.Node) => {
    if (
      ts.isStringLiteral(node) ||
      ts.isNoSubstitutionTemplateLiteral(node) ||
      ts.isJsxText(node)
    ) {
      texts.push(node.text);
    }
    node.forEachChild(visit);
  };
  visit(source);
  return texts;
}

/** Restatements in a file another change is reshaping now; remove an entry once it is fixed. */
const PENDING = new Set([
  "apps/server/src/modules/security/password-change-routes.ts: 'Пользователь не найден' is USER_NOT_FOUND",
]);

const messages = Object.entries(messageModule as Record<string, string>);
const messagesFile = join(repoRoot, contractsSources, 'messages.ts');

describe('every text lives once', () => {
  it('every message constant is used outside messages.ts (by an app or a contracts schema)', () => {
    const code = [...appSources, contractsSources]
      .flatMap(sourceFiles)
      .filter((file) => file !== messagesFile)
      .map((file) => readFileSync(file, 'utf8'))
      .join('\n');
    const unused = messages
      .map(([name]) => name)
      .filter((name) => !new RegExp(`\\b${name}\\b`).test(code));
    expect(unused).toEqual([]);
  });

  it('no app source restates a message in a literal of its own', () => {
    const byText = new Map(messages.map(([name, text]) => [normalized(text), name]));
    const restated: string[] = [];
    for (const file of appSources.flatMap(sourceFiles)) {
      for (const text of textsOf(file)) {
        const name = byText.get(normalized(text));
        const found = `${relative(repoRoot, file)}: '${text}' is ${name}`;
        if (name && /[а-яё]/i.test(text) && !PENDING.has(found)) restated.push(found);
      }
    }
    expect(restated).toEqual([]);
  }, 60_000); // parsing every source file takes seconds on a busy machine
});
