/**
 * The one import parser of the architecture tests: the server's (src/architecture.test.ts and the
 * tests beside this file) and the web app's (apps/web/src/architecture.test.ts). It reads a file's text with TypeScript's own parser, so an import written
 * over several lines, a re-export, `import type`, a lazy `import()` or a type `import('…')` is
 * seen, and an import named in a comment or a string is not.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** The server's `src`, the root every path below is relative to. */
export const SRC = path.dirname(import.meta.dirname);

/** One import of a file: where from, the names it binds, whether it is erased from the build. */
export interface ImportOf {
  specifier: string;
  /** The names imported or re-exported by name, each without `type` (not for `*` or default). */
  names: string[];
  /** The names that bind values, i.e. `names` without the ones marked `type`. */
  valueNames: string[];
  /** `import type`, `export type`, every name marked `type`, or `import('…')` in a type. */
  typeOnly: boolean;
}

function namedBindings(elements: readonly (ts.ImportSpecifier | ts.ExportSpecifier)[]) {
  const names = elements.map((element) => (element.propertyName ?? element.name).text);
  const valueNames = elements
    .filter((element) => !element.isTypeOnly)
    .map((element) => (element.propertyName ?? element.name).text);
  return { names, valueNames };
}

/**
 * Every import of a TypeScript text: static, type-only, re-exports, bare and lazy imports.
 * `fileName` tells TSX (`.tsx`) from TypeScript.
 */
export function importsOf(text: string, fileName = 'file.ts'): ImportOf[] {
  const file = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false);
  const found: ImportOf[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const bindings = clause?.namedBindings;
      const named =
        bindings && ts.isNamedImports(bindings)
          ? namedBindings(bindings.elements)
          : { names: [], valueNames: [] };
      const bindsValue =
        clause !== undefined &&
        !clause.isTypeOnly &&
        (clause.name !== undefined ||
          (bindings !== undefined && !ts.isNamedImports(bindings)) ||
          named.valueNames.length > 0);
      found.push({
        specifier: node.moduleSpecifier.text,
        names: named.names,
        valueNames: clause?.isTypeOnly ? [] : named.valueNames,
        // A bare `import './x.js'` runs the file, and so does an `import {}` without `type`.
        typeOnly:
          clause !== undefined && (clause.isTypeOnly || (!bindsValue && named.names.length > 0)),
      });
    } else if (
      ts.isExportDeclaration(node) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      const clause = node.exportClause;
      const named =
        clause && ts.isNamedExports(clause)
          ? namedBindings(clause.elements)
          : { names: [], valueNames: [] };
      const allTypes = node.isTypeOnly || (named.names.length > 0 && named.valueNames.length === 0);
      found.push({
        specifier: node.moduleSpecifier.text,
        names: named.names,
        valueNames: node.isTypeOnly ? [] : named.valueNames,
        typeOnly: allTypes,
      });
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteralLike(node.arguments[0])
    ) {
      found.push({ specifier: node.arguments[0].text, names: [], valueNames: [], typeOnly: false });
    } else if (
      ts.isImportTypeNode(node) &&
      ts.isLiteralTypeNode(node.argument) &&
      ts.isStringLiteral(node.argument.literal)
    ) {
      found.push({
        specifier: node.argument.literal.text,
        names: [],
        valueNames: [],
        typeOnly: true,
      });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

/**
 * The file of `src` a relative specifier names, relative to `src` with '/' (`.js` read as the
 * `.ts` beside it, a folder as its index.ts), or null for a package or `node:` import.
 */
export function resolveSpecifier(from: string, specifier: string): string | null {
  if (!specifier.startsWith('.')) return null;
  const target = path.posix.join(path.posix.dirname(from), specifier);
  if (target.endsWith('.js')) return `${target.slice(0, -3)}.ts`;
  if (target.endsWith('.ts')) return target;
  return `${target}/index.ts`;
}

/** One import between two files of `src`, both relative to `src`. */
export interface Edge {
  from: string;
  to: string;
  specifier: string;
  typeOnly: boolean;
}

/** The imports between files of `src` in the given texts (file relative to `src` → its text). */
export function edgesOf(texts: ReadonlyMap<string, string>): Edge[] {
  return [...texts].flatMap(([from, text]) =>
    importsOf(text).flatMap(({ specifier, typeOnly }) => {
      const to = resolveSpecifier(from, specifier);
      return to === null ? [] : [{ from, to, specifier, typeOnly }];
    }),
  );
}

/** Every `.ts` file under `dir`, relative to `src` with '/', tests included. */
export function sourceFiles(dir = SRC): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => path.relative(SRC, path.join(entry.parentPath, entry.name)))
    .map((file) => file.split(path.sep).join('/'))
    .sort();
}

export const isTestCode = (file: string) => file.endsWith('.test.ts');

/** The server's own code (tests aside), each file with its text. */
export function productionTexts(): Map<string, string> {
  return new Map(
    sourceFiles()
      .filter((file) => !isTestCode(file))
      .map((file) => [file, readFileSync(path.join(SRC, file), 'utf8')] as const),
  );
}

/** The module a file of `src` belongs to (`modules/<name>/…`), or null. */
export function moduleOf(file: string): string | null {
  const match = /^modules\/([^/]+)\//.exec(file);
  return match ? match[1]! : null;
}

/** One cycle of the graph as a list of nodes (first = last), or null when there is none. */
export function findCycle(graph: ReadonlyMap<string, Iterable<string>>): string[] | null {
  const state = new Map<string, 'open' | 'done'>();
  const trail: string[] = [];
  function visit(node: string): string[] | null {
    state.set(node, 'open');
    trail.push(node);
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === 'open') return [...trail.slice(trail.indexOf(next)), next];
      if (!state.has(next)) {
        const cycle = visit(next);
        if (cycle) return cycle;
      }
    }
    trail.pop();
    state.set(node, 'done');
    return null;
  }
  for (const node of graph.keys()) {
    if (!state.has(node)) {
      const cycle = visit(node);
      if (cycle) return cycle;
    }
  }
  return null;
}
