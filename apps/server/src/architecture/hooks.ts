/**
 * The hooks one module hangs on another's object, read from the code and from ARCHITECTURE.md's
 * table "Hooks between modules", so hooks.test.ts can tell when they differ.
 */
import ts from 'typescript';
import { moduleOf } from './source-imports.js';

/** One hook hung: `Class.method`, the module declaring it, the module whose file hangs it. */
export interface Hook {
  hook: string;
  declaredBy: string;
  hungBy: string;
}

export const hookKey = (hook: Hook) =>
  `${hook.hook} | declared by ${hook.declaredBy} | hung by ${hook.hungBy}`;

/** A method that takes a hook: `onX`, `useX` or `registerXHook`, public, one parameter, `: void`. */
const HOOK_METHOD = /^(on|use)[A-Z]\w*$|^register\w*Hook$/;

function parse(text: string) {
  return ts.createSourceFile('file.ts', text, ts.ScriptTarget.Latest, true);
}

/** The hook-taking methods the modules' classes declare: method name → `Class.method`, module. */
export function hookMethods(
  texts: ReadonlyMap<string, string>,
): Map<string, Array<{ hook: string; module: string }>> {
  const methods = new Map<string, Array<{ hook: string; module: string }>>();
  for (const [file, text] of texts) {
    const module = moduleOf(file);
    if (module === null) continue;
    const visit = (node: ts.Node): void => {
      if (ts.isClassDeclaration(node) && node.name) {
        for (const member of node.members) {
          if (!ts.isMethodDeclaration(member) || !ts.isIdentifier(member.name)) continue;
          const name = member.name.text;
          const isPrivate = member.modifiers?.some(
            (modifier) => modifier.kind === ts.SyntaxKind.PrivateKeyword,
          );
          const returnsVoid = member.type?.kind === ts.SyntaxKind.VoidKeyword;
          if (
            !HOOK_METHOD.test(name) ||
            isPrivate ||
            !returnsVoid ||
            member.parameters.length !== 1
          ) {
            continue;
          }
          const found = methods.get(name) ?? [];
          found.push({ hook: `${node.name.text}.${name}`, module });
          methods.set(name, found);
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(parse(text));
  }
  return methods;
}

/** Every call of a hook-taking method from a module's file (not on `this`), one entry a kind. */
export function hooksHung(texts: ReadonlyMap<string, string>): Hook[] {
  const methods = hookMethods(texts);
  const hooks = new Map<string, Hook>();
  for (const [file, text] of texts) {
    const hungBy = moduleOf(file);
    if (hungBy === null) continue;
    const visit = (node: ts.Node): void => {
      if (
        ts.isCallExpression(node) &&
        ts.isPropertyAccessExpression(node.expression) &&
        node.expression.expression.kind !== ts.SyntaxKind.ThisKeyword
      ) {
        for (const method of methods.get(node.expression.name.text) ?? []) {
          const hook = { hook: method.hook, declaredBy: method.module, hungBy };
          hooks.set(hookKey(hook), hook);
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(parse(text));
  }
  return [...hooks.values()].sort((a, b) => hookKey(a).localeCompare(hookKey(b)));
}

const cell = (text: string) => /^`([^`]+)`/.exec(text.trim())?.[1] ?? text.trim();

/** The rows of the markdown table under the heading "Hooks between modules". */
export function hooksTable(markdown: string): Array<Hook & { why: string }> {
  const lines = markdown.split('\n');
  const heading = lines.findIndex((line) => /^#+\s+Hooks between modules\s*$/.test(line));
  if (heading === -1) return [];
  const table: string[] = [];
  for (const line of lines.slice(heading + 1)) {
    if (line.startsWith('|')) table.push(line);
    else if (table.length > 0 || line.startsWith('#')) break;
  }
  return table.slice(2).map((line) => {
    const [hook = '', declaredBy = '', hungBy = '', why = ''] = line.split('|').slice(1, -1);
    return {
      hook: cell(hook),
      declaredBy: cell(declaredBy),
      hungBy: cell(hungBy),
      why: why.trim(),
    };
  });
}

/** What the code hangs and the table does not list, and what the table lists and nothing hangs. */
export function hooksTableDifferences(
  code: Hook[],
  table: Array<Hook & { why: string }>,
): string[] {
  const listed = new Set(table.map(hookKey));
  const hung = new Set(code.map(hookKey));
  return [
    ...code
      .filter((hook) => !listed.has(hookKey(hook)))
      .map((hook) => `not in the table: ${hookKey(hook)}`),
    ...table
      .filter((row) => !hung.has(hookKey(row)))
      .map((row) => `hung by nothing: ${hookKey(row)}`),
    ...table.filter((row) => row.why === '').map((row) => `no reason given: ${hookKey(row)}`),
  ];
}
