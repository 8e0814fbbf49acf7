/**
 * The shape of the modules' services and routes (ARCHITECTURE.md, "How the server is put
 * together"), read with TypeScript's own parser as source-imports.ts reads the imports:
 *
 * - No parameter or property of a file under modules/ is typed `AppDeps`, the whole container:
 *   each service names what it takes (a `Pick<AppDeps, …>` names it too). Only app.ts and the
 *   plugins, which read `app.deps`, see the whole.
 * - A route handler (the function passed to `app.get/post/put/patch/delete/route`, or the
 *   `handler` of its options) in a routes file (`routes.ts`, `*-routes.ts`) has at most
 *   MAX_BRANCHES branches and at most MAX_HANDLER_LINES lines. A branch is an `if`, a `?:`, a
 *   `case` (not `default`), or a `&&` / `||` operator, anywhere in the handler's text; `??` and
 *   `?.` give a default, not a second path, and are not counted.
 * - Every exported class declared in a file under modules/ whose constructor has parameters
 *   takes exactly one: `deps`, typed by a named type whose name ends in `Deps`
 *   (`constructor(private readonly deps: TopUpsDeps)`); not optional, without a default, not a
 *   rest parameter, not an inline `{ … }` nor a `Pick<…>`. A constructor without parameters
 *   passes. A class that extends another (an `AppError` or `Error` subclass) is not held to it:
 *   its constructor passes on what its base's takes. A class declared without `export` is the
 *   file's own detail and is not held to it either.
 */
import ts from 'typescript';
import { isTestCode } from './source-imports.js';

export const MAX_BRANCHES = 2;
export const MAX_HANDLER_LINES = 20;

const ROUTE_METHODS = new Set(['get', 'post', 'put', 'patch', 'delete', 'route']);

export const isRoutesFile = (file: string) => /^modules\/.+\/(routes|[^/]+-routes)\.ts$/.test(file);

function parse(file: string, text: string): ts.SourceFile {
  return ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
}

function lineOf(source: ts.SourceFile, position: number): number {
  return source.getLineAndCharacterOfPosition(position).line + 1;
}

/** `<file>:<line> <name>: typed AppDeps` for each parameter or property typed as the container. */
export function containerParameters(texts: ReadonlyMap<string, string>): string[] {
  const found: string[] = [];
  for (const [file, text] of texts) {
    if (!file.startsWith('modules/')) continue;
    const source = parse(file, text);
    const visit = (node: ts.Node): void => {
      const isTyped =
        ts.isParameter(node) || ts.isPropertySignature(node) || ts.isPropertyDeclaration(node);
      if (
        isTyped &&
        node.type &&
        ts.isTypeReferenceNode(node.type) &&
        ts.isIdentifier(node.type.typeName) &&
        node.type.typeName.text === 'AppDeps'
      ) {
        const line = lineOf(source, node.getStart(source));
        found.push(`${file}:${line} ${node.name.getText(source)}: typed AppDeps`);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}

/** What a route handler measures. */
export interface HandlerSize {
  file: string;
  /** `POST /orders`: the method and the path as written (a template or a name as its text). */
  route: string;
  line: number;
  lines: number;
  branches: number;
}

const isFunction = (node: ts.Node | undefined): node is ts.ArrowFunction | ts.FunctionExpression =>
  node !== undefined && (ts.isArrowFunction(node) || ts.isFunctionExpression(node));

/** The handler of a route call: its last argument, or the `handler` of its last argument. */
function handlerOf(call: ts.CallExpression): ts.ArrowFunction | ts.FunctionExpression | null {
  const last = call.arguments.at(-1);
  if (isFunction(last)) return last;
  if (last && ts.isObjectLiteralExpression(last)) {
    for (const property of last.properties) {
      if (
        ts.isPropertyAssignment(property) &&
        property.name.getText() === 'handler' &&
        isFunction(property.initializer)
      ) {
        return property.initializer;
      }
    }
  }
  return null;
}

function branchesIn(node: ts.Node): number {
  let count = 0;
  const visit = (child: ts.Node): void => {
    if (ts.isIfStatement(child) || ts.isConditionalExpression(child) || ts.isCaseClause(child)) {
      count++;
    } else if (
      ts.isBinaryExpression(child) &&
      (child.operatorToken.kind === ts.SyntaxKind.AmpersandAmpersandToken ||
        child.operatorToken.kind === ts.SyntaxKind.BarBarToken)
    ) {
      count++;
    }
    ts.forEachChild(child, visit);
  };
  visit(node);
  return count;
}

/** Every route handler of the routes files among the texts, with its size. */
export function routeHandlers(texts: ReadonlyMap<string, string>): HandlerSize[] {
  const found: HandlerSize[] = [];
  for (const [file, text] of texts) {
    if (!isRoutesFile(file)) continue;
    const source = parse(file, text);
    const visit = (node: ts.Node): void => {
      if (
        ts.isCallExpression(node) &&
        ts.isPropertyAccessExpression(node.expression) &&
        ROUTE_METHODS.has(node.expression.name.text)
      ) {
        const handler = handlerOf(node);
        if (handler) {
          const first = lineOf(source, handler.getStart(source));
          const path = node.arguments.length > 1 ? node.arguments[0]!.getText(source) : '';
          found.push({
            file,
            route: `${node.expression.name.text.toUpperCase()} ${path}`.trim(),
            line: first,
            lines: lineOf(source, handler.getEnd()) - first + 1,
            branches: branchesIn(handler.body),
          });
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}

/** The handlers over either limit, as `<file>:<line> <route>: <n> branches, <m> lines`. */
export function oversizedHandlers(handlers: readonly HandlerSize[]): string[] {
  return handlers
    .filter((each) => each.branches > MAX_BRANCHES || each.lines > MAX_HANDLER_LINES)
    .map(
      (each) =>
        `${each.file}:${each.line} ${each.route}: ${each.branches} branches, ${each.lines} lines`,
    );
}

/** The name of a service's one parameter's type: `TopUpsDeps`. */
const DEPS_TYPE = /^[A-Z]\w*Deps$/;

const isExported = (node: ts.ClassDeclaration) =>
  node.modifiers?.some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword) ?? false;

/** Whether the constructor is `(deps: XDeps)`: one plain parameter, named and typed so. */
function takesDeps(ctor: ts.ConstructorDeclaration, source: ts.SourceFile): boolean {
  if (ctor.parameters.length !== 1) return false;
  const only = ctor.parameters[0]!;
  return (
    ts.isIdentifier(only.name) &&
    only.name.text === 'deps' &&
    only.questionToken === undefined &&
    only.initializer === undefined &&
    only.dotDotDotToken === undefined &&
    only.type !== undefined &&
    ts.isTypeReferenceNode(only.type) &&
    DEPS_TYPE.test(only.type.typeName.getText(source))
  );
}

/**
 * `<file>:<line> <Class>(<parameters>)` for each exported class of a module (a class of its own,
 * not a subclass) whose constructor takes anything but `(deps: XDeps)` or nothing.
 */
export function constructorBreaches(texts: ReadonlyMap<string, string>): string[] {
  const found: string[] = [];
  for (const [file, text] of texts) {
    if (!file.startsWith('modules/') || isTestCode(file)) continue;
    const source = parse(file, text);
    for (const statement of source.statements) {
      if (!ts.isClassDeclaration(statement) || !isExported(statement)) continue;
      // A subclass passes its base's arguments on (an AppError's code and message).
      if (statement.heritageClauses?.some((c) => c.token === ts.SyntaxKind.ExtendsKeyword)) {
        continue;
      }
      const ctor = statement.members.find(ts.isConstructorDeclaration);
      if (!ctor || ctor.parameters.length === 0) continue;
      if (takesDeps(ctor, source)) continue;
      const parameters = ctor.parameters
        .map((parameter) => parameter.getText(source).replace(/\s+/g, ' '))
        .join(', ');
      const line = lineOf(source, ctor.getStart(source));
      found.push(`${file}:${line} ${statement.name?.text ?? 'default'}(${parameters})`);
    }
  }
  return found;
}
