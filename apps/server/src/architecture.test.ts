/**
 * Four rules of the code's shape, checked on the source text:
 *
 * - `modules/accounts` owns the `users` table: no other file of the server imports the table
 *   object or names the table in raw SQL. A module's `schema.ts` may import it to declare a
 *   foreign key. Tests and their helpers may read the table directly.
 * - Route handlers of the modules run no SQL: a routes file under `modules/` imports no table (`schema.js`), nothing from
 *   `drizzle-orm`, and opens no transaction. Queries live in a repository, rules in a service.
 * - Only the one sign-in policy (`modules/auth/sign-in-policy.ts`) lets anybody in: no other file
 *   calls the session store's `create` or the security log's `recordSignIn`, so a new way in
 *   that skips the policy (its second step, the lock, the block, the hooks) fails here.
 * - Every module has a README.md (`modules/<name>/README.md`): its calls and where its rules
 *   live, so a reader finds a rule in one step from ARCHITECTURE.md's list of modules.
 * - The imports between the server's files form no cycle (type-only imports included): modules
 *   are plugins that get what they need from `app.deps`, never from `app.ts` or from each other
 *   in a ring.
 *
 * The rules between the core and the modules, and the hooks between modules, are checked beside
 * this file (architecture/), with the same import parser (architecture/source-imports.ts).
 */
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  findCycle,
  importsOf,
  isTestCode,
  resolveSpecifier,
  SRC,
  sourceFiles,
} from './architecture/source-imports.js';

/** The imports of the text that bind values: the names and where from (architecture/source-imports.ts). */
const valueImportsOf = (text: string) =>
  importsOf(text)
    .filter((found) => !found.typeOnly)
    .map((found) => ({ names: found.valueNames, from: found.specifier }));

/** What in the text queries `users` outside modules/accounts, if anything. */
function usersTableUses(text: string, isSchemaFile: boolean): string[] {
  const uses: string[] = [];
  for (const { names, from } of valueImportsOf(text)) {
    if (names.includes('users') && /schema\.js$/.test(from) && !isSchemaFile) {
      uses.push(`imports users from ${from}`);
    }
  }
  if (/\bschema\.users\b|\bquery\.users\b/.test(text)) uses.push('reads the users table object');
  if (/\b(from|join|update|into)\s+"?users"?\b/i.test(text)) uses.push('names users in SQL');
  return uses;
}

/** What in the text of a routes file runs SQL, if anything. */
function sqlInRoutes(text: string): string[] {
  const uses: string[] = [];
  for (const { from } of valueImportsOf(text)) {
    if (from === 'drizzle-orm') uses.push('imports drizzle-orm');
    if (/(^|\/)schema\.js$/.test(from)) uses.push(`imports tables from ${from}`);
  }
  if (/\.transaction\(/.test(text)) uses.push('opens a transaction');
  if (/\.execute\(/.test(text)) uses.push('executes SQL');
  return uses;
}

/** Where only the sign-in policy may create a session (and `sessions.ts`, which defines it). */
const SIGN_IN_POLICY = 'modules/auth/sign-in-policy.ts';
const SESSION_STORE = 'modules/auth/sessions.ts';

/** What in the text lets somebody in past the sign-in policy, if anything. */
function signInsPastThePolicy(text: string): string[] {
  const uses: string[] = [];
  // `sessions.create(`, `this.deps.sessions.create(`, `store.create({ userId`, `sessionStore.create(`
  if (/\b(sessions|sessionStore|store)\s*\??\.\s*create\s*\(/i.test(text)) {
    uses.push("calls the session store's create");
  }
  // `const { create } = sessions`, `sessions['create']`, `SessionStore.prototype.create`
  if (/\{[^}]*\bcreate\b[^}]*\}\s*=\s*[\w.]*sessions\b/i.test(text)) {
    uses.push("takes the session store's create");
  }
  if (/sessions\s*\[\s*['"`]create['"`]\s*\]|SessionStore\.prototype\.create/.test(text)) {
    uses.push("reaches the session store's create");
  }
  if (/\.\s*recordSignIn\s*\(/.test(text)) uses.push('records a sign-in itself');
  return uses;
}

/** Where only the mailed codes' helper issues a code (`issueMailedCode`). */
const MAILED_CODES = 'modules/auth/mailed-codes.ts';

/** Whether the text issues a one-time code itself instead of through `issueMailedCode`. */
const issuesCodeItself = (text: string) => /\bcodes\s*\??\.\s*issue\s*\(/.test(text);

/** The files of `src` a file imports, as absolute paths (static, type-only and dynamic). */
function localImportsOf(file: string, text: string): string[] {
  const root = path.parse(file).root;
  const from = path.relative(root, file).split(path.sep).join('/');
  return importsOf(text).flatMap(({ specifier }) => {
    const to = resolveSpecifier(from, specifier);
    return to === null ? [] : [path.join(root, to)];
  });
}

const files = sourceFiles()
  .filter((file) => !isTestCode(file))
  .map((file) => path.join(SRC, file));
const relative = (file: string) => path.relative(SRC, file).split(path.sep).join('/');

/** The module folders under `modulesDir` that have no README.md. */
function modulesWithoutReadme(modulesDir: string): string[] {
  return readdirSync(modulesDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .filter((name) => !existsSync(path.join(modulesDir, name, 'README.md')));
}

describe('the shape of the server code', () => {
  it('lets only modules/accounts query the users table', () => {
    const offenders = files
      .filter((file) => !relative(file).startsWith('modules/accounts/'))
      .flatMap((file) =>
        usersTableUses(readFileSync(file, 'utf8'), file.endsWith('schema.ts')).map(
          (use) => `${relative(file)}: ${use}`,
        ),
      );
    expect(offenders).toEqual([]);
  });

  it('keeps SQL out of the routes files', () => {
    const routes = files.filter(
      (file) =>
        relative(file).startsWith('modules/') && /(^|-)routes\.ts$/.test(path.basename(file)),
    );
    expect(routes.length).toBeGreaterThan(10);
    const offenders = routes.flatMap((file) =>
      sqlInRoutes(readFileSync(file, 'utf8')).map((use) => `${relative(file)}: ${use}`),
    );
    expect(offenders).toEqual([]);
  });

  it('lets only the sign-in policy create a session or record a sign-in', () => {
    const offenders = files
      .filter((file) => ![SIGN_IN_POLICY, SESSION_STORE].includes(relative(file)))
      .flatMap((file) =>
        signInsPastThePolicy(readFileSync(file, 'utf8')).map((use) => `${relative(file)}: ${use}`),
      );
    expect(offenders).toEqual([]);
    // The policy itself is seen by the rule, so the rule reads the calls it means.
    const policy = files.find((file) => relative(file) === SIGN_IN_POLICY)!;
    expect(signInsPastThePolicy(readFileSync(policy, 'utf8'))).toEqual([
      "calls the session store's create",
      'records a sign-in itself',
    ]);
  });

  it('lets only issueMailedCode issue a one-time code, so every code goes with its letter', () => {
    const offenders = files
      .filter((file) => relative(file) !== MAILED_CODES)
      .filter((file) => issuesCodeItself(readFileSync(file, 'utf8')))
      .map(relative);
    expect(offenders).toEqual([]);
  });

  it('gives every module a README', () => {
    expect(readdirSync(path.join(SRC, 'modules')).length).toBeGreaterThan(15);
    expect(modulesWithoutReadme(path.join(SRC, 'modules'))).toEqual([]);
  });

  it('has no import cycle', () => {
    const graph = new Map(
      files.map((file) => [file, localImportsOf(file, readFileSync(file, 'utf8'))] as const),
    );
    expect([...graph.values()].flat().length).toBeGreaterThan(300);
    expect(findCycle(graph)?.map(relative) ?? null).toBeNull();
  });

  it('notices each kind of breach it looks for', () => {
    const modulesDir = mkdtempSync(path.join(tmpdir(), 'modules-'));
    try {
      mkdirSync(path.join(modulesDir, 'described'));
      mkdirSync(path.join(modulesDir, 'silent'));
      writeFileSync(path.join(modulesDir, 'described', 'README.md'), '# modules/described');
      expect(modulesWithoutReadme(modulesDir)).toEqual(['silent']);
    } finally {
      rmSync(modulesDir, { recursive: true, force: true });
    }
    const ring = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
    ]);
    expect(findCycle(ring)).toEqual(['a', 'b', 'c', 'a']);
    expect(
      findCycle(
        new Map([
          ['a', ['b']],
          ['b', []],
        ]),
      ),
    ).toBeNull();
    expect(
      localImportsOf(
        '/src/a/x.ts',
        "import type { Y } from '../b/y.js';\nconst z = import('./z.js');",
      ),
    ).toEqual(['/src/b/y.ts', '/src/a/z.ts']);
    expect(usersTableUses("import { users } from '../accounts/schema.js';", false)).toHaveLength(1);
    expect(usersTableUses("import { users } from '../accounts/schema.js';", true)).toEqual([]);
    expect(usersTableUses('db.query.users.findFirst()', false)).toHaveLength(1);
    expect(usersTableUses('sql`SELECT id FROM users WHERE id = 1`', false)).toHaveLength(1);
    expect(usersTableUses('// Two users taking the same name', false)).toEqual([]);
    expect(sqlInRoutes("import { eq } from 'drizzle-orm';")).toHaveLength(1);
    expect(sqlInRoutes("import { services } from './schema.js';")).toHaveLength(1);
    expect(
      sqlInRoutes("import { siblingOrderRequestSchema } from './sibling-schemas.js';"),
    ).toEqual([]);
    expect(sqlInRoutes('await db.transaction(async (tx) => {})')).toHaveLength(1);
    // A way in planted past the policy, as a route or a service would write it.
    const planted = [
      'const { token } = await app.deps.sessions.create({ userId }, tx);',
      'return this.deps.sessions.create({ userId: user.id });',
      'await deps.sessions\n  .create({ userId });',
      'const { create } = app.deps.sessions;',
      "await sessions['create']({ userId });",
      'await securityLog.recordSignIn(tx, userId, { method: "telegram" }, client);',
    ];
    for (const text of planted) expect(signInsPastThePolicy(text), text).not.toEqual([]);
    expect(signInsPastThePolicy('await signInPolicy.signIn({ userId, way, client });')).toEqual([]);
    expect(signInsPastThePolicy('await codes.issue({ purpose }, tx); mail.create()')).toEqual([]);
    expect(issuesCodeItself('const issued = await this.deps.codes.issue({ purpose }, tx);')).toBe(
      true,
    );
    expect(issuesCodeItself('await issueMailedCode(deps, { purpose }, letter, tx);')).toBe(false);
  });
});
