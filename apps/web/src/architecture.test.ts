/**
 * The shape of the web code, checked on the source text (apps/web/README.md, "What must not"):
 *
 * - A page that puts several features together lives in `src/app/routes/`, not in one of them:
 *   a page under `features/<name>/` (`*-page.tsx`) takes at most one other feature, not counting
 *   `auth`, the session and the signed-in user every signed-in page reads.
 * - A feature reaches another only through its public entry, `features/<name>/index.ts`, and takes
 *   from `src/app` only the typed hooks (`app/hooks.ts`). Biome's `noRestrictedImports`
 *   (biome.json) refuses the same imports as they are typed; this test sees them resolved, so a
 *   path Biome's patterns do not foresee is caught too.
 * - `shared/` imports no feature and nothing from `app/`; `config/` imports nothing of the app's
 *   own outside `config/`, since Node loads `config/paths.ts` at build time (route-preloads.ts),
 *   where neither the `@/` alias nor a component means anything.
 * - No import cycle, between features or between files (type-only and lazy imports included): a
 *   ring of features is one feature in disguise, and a ring of files decides the order in which
 *   the bundle runs them.
 * - Server data goes through one layer, RTK Query (docs/decisions/0041-server-data-through-rtk-query.md):
 *   only `shared/api/` and a feature's `api/` folder import the HTTP client (`shared/api/http.ts`)
 *   or call `fetch`, so no component or hook loads data in an effect of its own; it takes a
 *   query's hook (`useXQuery`) or a mutation's from its feature's `api/`. Tests aside.
 *
 * Each rule is a function of the list of imports, so the last test plants a breach of each.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
// The one import parser of the architecture tests, the server's and this one.
import { findCycle, importsOf } from '../../server/src/architecture/source-imports';

const SRC = import.meta.dirname;
const THIS_FILE = 'architecture.test.ts';

/** One import of a file of src: both ends relative to src, with '/' whatever the system. */
type Edge = { from: string; to: string; specifier: string };

/**
 * Imports that break a rule below and stay, each with the reason, as `'<file> -> <specifier>'`.
 * An entry no import matches any more fails the test, so the list cannot outlive its reasons.
 */
const ALLOWED: Record<string, string> = {
  // The ring app/hooks.ts -> app/store.ts -> every slice -> the components -> app/hooks.ts. The
  // hooks are typed by the state the store combines (RootState, AppDispatch), and the import is
  // type-only, erased from the build, so no file waits for another at run time; the cycle test
  // below holds it to `import type`.
  'app/hooks.ts -> ./store':
    "the typed hooks' types come from the store, which imports every slice (type-only)",
  // The user stays a thunk (decision 41): it is read by the route guard every page starts with,
  // /auth included, whose first load may not carry RTK Query; the store keeps it as session state.
  'features/auth/user-slice.ts -> @/shared/api/http':
    'fetchCurrentUser, the one read that stays a thunk (the session state of /auth)',
  'features/auth/session-watch.ts -> @/shared/api/http':
    'onSessionRefused: told of a refused session, it loads nothing',
  'shared/lib/load-once.ts -> @/shared/api/http':
    'HttpError: code that could not load fails as a call with no answer',
};

/** The feature whose public entry every signed-in page may take without composing features. */
const SESSION_FEATURE = 'features/auth';

/** Every file under `dir`, relative to it ('/'-separated). */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)))
    .map((file) => file.split(path.sep).join('/'));
}

/** Where a file's text imports from: static, type-only, re-exports, bare and lazy imports. */
export function specifiersOf(text: string, fileName?: string): string[] {
  return importsOf(text, fileName).map((found) => found.specifier);
}

/**
 * The file of src a specifier names, as Vite and TypeScript find it (`@/` is src), or the bare
 * path when no file matches; null for a package.
 */
export function resolveSpecifier(
  from: string,
  specifier: string,
  exists: (file: string) => boolean,
): string | null {
  let base: string;
  if (specifier.startsWith('@/')) base = specifier.slice(2);
  else if (specifier.startsWith('.')) base = path.posix.join(path.posix.dirname(from), specifier);
  else return null;
  const candidates = [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`];
  return candidates.find(exists) ?? base;
}

/** 'features/<name>' for a feature's file, else the top folder ('app', 'shared', 'config'), or ''. */
export function areaOf(file: string): string {
  const parts = file.split('/');
  if (parts[0] === 'features' && parts.length > 2) return `features/${parts[1]}`;
  return parts.length > 1 ? parts[0]! : '';
}

const isFeature = (area: string) => area.startsWith('features/');
const describeEdge = (edge: Edge) => `${edge.from} imports '${edge.specifier}' (${edge.to})`;

/** Imports of a feature that reach past another feature's index.ts, or into src/app. */
export function crossFeatureBreaches(edges: Edge[]): string[] {
  return edges.flatMap((edge) => {
    const from = areaOf(edge.from);
    const to = areaOf(edge.to);
    if (!isFeature(from) || from === to) return [];
    if (isFeature(to) && edge.to !== `${to}/index.ts`) {
      return [`${describeEdge(edge)}: another feature is reached only through ${to}/index.ts`];
    }
    if (to === 'app' && edge.to !== 'app/hooks.ts') {
      return [`${describeEdge(edge)}: a feature takes only the typed hooks (app/hooks.ts) of app/`];
    }
    return [];
  });
}

/** Pages inside a feature that put two or more other features (auth aside) together. */
export function composingPages(edges: Edge[]): string[] {
  const others = new Map<string, Set<string>>();
  for (const edge of edges) {
    const from = areaOf(edge.from);
    const to = areaOf(edge.to);
    if (!isFeature(from) || !/^features\/[^/]+\/[^/]+-page\.tsx$/.test(edge.from)) continue;
    if (!isFeature(to) || to === from || to === SESSION_FEATURE) continue;
    others.set(edge.from, (others.get(edge.from) ?? new Set()).add(to));
  }
  return [...others]
    .filter(([, features]) => features.size >= 2)
    .map(
      ([page, features]) =>
        `${page} puts together ${[...features].sort().join(', ')}: a page of several features lives in app/routes/`,
    );
}

/** Imports of shared/ into features or app/, and of config/ into anything else of src. */
export function layerBreaches(edges: Edge[]): string[] {
  return edges.flatMap((edge) => {
    const from = areaOf(edge.from);
    const to = areaOf(edge.to);
    if (from === 'shared' && (isFeature(to) || to === 'app')) {
      return [`${describeEdge(edge)}: shared/ knows no feature and nothing of app/`];
    }
    if (from === 'config' && to !== 'config') {
      return [`${describeEdge(edge)}: config/ imports only config/ (Node loads it at build time)`];
    }
    return [];
  });
}

/** Where server data may be called from: `shared/api/` and a feature's `api/` folder. */
const isDataLayer = (file: string) =>
  file.startsWith('shared/api/') || /^features\/[^/]+\/api\//.test(file);
const isTest = (file: string) => /\.test\.tsx?$/.test(file);

/** Imports of the HTTP client from outside the data layer (tests aside). */
export function dataClientBreaches(edges: Edge[]): string[] {
  return edges
    .filter((edge) => edge.to === 'shared/api/http.ts' && !isDataLayer(edge.from))
    .filter((edge) => !isTest(edge.from))
    .map(
      (edge) =>
        `${describeEdge(edge)}: server data is read by a query and changed by a mutation of the feature's api/ folder`,
    );
}

/** Files of features/ and app/ outside the data layer that call `fetch` themselves (tests aside). */
export function rawFetchBreaches(texts: { file: string; text: string }[]): string[] {
  return texts
    .filter(({ file }) => /^(features|app)\//.test(file) && !isDataLayer(file) && !isTest(file))
    .filter(({ text }) => /(?<![\w$])fetch\s*\(/.test(text))
    .map(({ file }) => `${file} calls fetch: server data goes through the feature's api/ folder`);
}

/**
 * Where a thunk is a breach: plain reads are RTK Query endpoints, so `createAsyncThunk` is left
 * only to the session's own steps in features/auth (sign-in, registration, the code steps,
 * sign-out and the current user), which set the token and must not pull RTK Query into /auth.
 * And `.initiate(` outside the api folders would be a read started by hand, in an effect.
 */
export function thunkBreaches(texts: { file: string; text: string }[]): string[] {
  return texts
    .filter(({ file }) => !isTest(file))
    .flatMap(({ file, text }) => [
      ...(/\bcreateAsyncThunk\b/.test(text) && !file.startsWith('features/auth/')
        ? [`${file} makes a thunk: a read is an RTK Query endpoint in the feature's api/ folder`]
        : []),
      ...(/\.initiate\s*\(/.test(text) && !isDataLayer(file)
        ? [`${file} starts a query by hand: use the endpoint's hook`]
        : []),
    ]);
}

/** A cycle among the features (each feature one node), as 'a -> b -> a', or null. */
export function featureCycle(edges: Edge[]): string | null {
  const graph = new Map<string, Set<string>>();
  for (const edge of edges) {
    const from = areaOf(edge.from);
    const to = areaOf(edge.to);
    if (!isFeature(from) || !isFeature(to) || from === to) continue;
    graph.set(from, (graph.get(from) ?? new Set()).add(to));
  }
  return findCycle(graph)?.join(' -> ') ?? null;
}

/** A cycle among the files, as 'a.ts -> b.ts -> a.ts', or null. */
export function fileCycle(edges: Edge[]): string | null {
  const graph = new Map<string, string[]>();
  for (const edge of edges) graph.set(edge.from, [...(graph.get(edge.from) ?? []), edge.to]);
  return findCycle(graph)?.join(' -> ') ?? null;
}

const files = filesUnder(SRC);
const fileSet = new Set(files);
// This file is left out: its planted breaches below are strings that read like imports.
const sources = files.filter((file) => /\.tsx?$/.test(file) && file !== THIS_FILE);
const edges: Edge[] = sources.flatMap((from) =>
  specifiersOf(readFileSync(path.join(SRC, from), 'utf8'), from).flatMap((specifier) => {
    const to = resolveSpecifier(from, specifier, (file) => fileSet.has(file));
    return to === null ? [] : [{ from, to, specifier }];
  }),
);

/** Whether a breach is about the import an ALLOWED key names ('<file> -> <specifier>'). */
function matchesAllowed(breach: string, key: string): boolean {
  const [file, specifier] = key.split(' -> ');
  return breach.startsWith(`${file} imports '${specifier}' `);
}

const unallowed = (breaches: string[]) =>
  breaches.filter((breach) => !Object.keys(ALLOWED).some((key) => matchesAllowed(breach, key)));

describe('the shape of the web code', () => {
  it('reads the imports of every file and finds each of them', () => {
    expect(sources.length).toBeGreaterThan(200);
    expect(edges.length).toBeGreaterThan(700);
    const unresolved = edges.filter((edge) => !fileSet.has(edge.to)).map(describeEdge);
    expect(unresolved).toEqual([]);
  });

  it('keeps pages of several features in app/routes', () => {
    expect(composingPages(edges)).toEqual([]);
  });

  it('lets a feature reach another only through its index.ts, and app/ only for its hooks', () => {
    expect(unallowed(crossFeatureBreaches(edges))).toEqual([]);
  });

  it('keeps features and app/ out of shared/, and config/ to itself', () => {
    expect(unallowed(layerBreaches(edges))).toEqual([]);
  });

  it("reads and changes server data only in shared/api/ and the features' api/ folders", () => {
    expect(unallowed(dataClientBreaches(edges))).toEqual([]);
    const texts = sources.map((file) => ({
      file,
      text: readFileSync(path.join(SRC, file), 'utf8'),
    }));
    expect(rawFetchBreaches(texts)).toEqual([]);
    expect(thunkBreaches(texts)).toEqual([]);
  });

  it('has no import cycle between features or between files', () => {
    const kept = edges.filter((edge) => !(`${edge.from} -> ${edge.specifier}` in ALLOWED));
    expect(featureCycle(kept)).toBeNull();
    expect(fileCycle(kept)).toBeNull();
    // What is left out may close no ring at run time: the hooks take only the store's types.
    expect(readFileSync(path.join(SRC, 'app/hooks.ts'), 'utf8')).toMatch(
      /^import type \{[^}]*\} from '\.\/store';$/m,
    );
  });

  it('allows nothing that is no longer there', () => {
    const imports = new Set(edges.map((edge) => `${edge.from} -> ${edge.specifier}`));
    expect(Object.keys(ALLOWED).filter((key) => !imports.has(key))).toEqual([]);
  });

  it('notices each kind of breach it looks for', () => {
    expect(
      specifiersOf(
        [
          "import type { A } from '@/features/a';",
          "import {\n  d,\n  type E,\n} from './d';",
          "export { f } from './f';",
          "import './global.css';",
          "const G = lazyPart(() => import('./routes/g-page'), 'page');",
        ].join('\n'),
      ),
    ).toEqual(['@/features/a', './d', './f', './global.css', './routes/g-page']);
    const exists = (file: string) =>
      ['features/a/index.ts', 'features/a/b.tsx', 'app/routes/c-page.tsx'].includes(file);
    expect(resolveSpecifier('app/router.tsx', '@/features/a', exists)).toBe('features/a/index.ts');
    expect(resolveSpecifier('features/a/index.ts', './b', exists)).toBe('features/a/b.tsx');
    expect(resolveSpecifier('app/router.tsx', './routes/c-page', exists)).toBe(
      'app/routes/c-page.tsx',
    );
    expect(resolveSpecifier('features/a/b.tsx', 'react', exists)).toBeNull();

    const edge = (from: string, to: string, specifier = to): Edge => ({ from, to, specifier });
    // A feature's file past another's index.ts, by alias or by a relative path; into app/.
    expect(
      crossFeatureBreaches([
        edge('features/a/x.tsx', 'features/b/y.ts', '@/features/b/y'),
        edge('features/a/x.tsx', 'features/b/y.ts', '../b/y'),
        edge('features/a/x.tsx', 'app/store.ts', '@/app/store'),
      ]),
    ).toHaveLength(3);
    expect(
      crossFeatureBreaches([
        edge('features/a/x.tsx', 'features/b/index.ts', '@/features/b'),
        edge('features/a/x.tsx', 'features/a/z.ts', './z'),
        edge('features/a/x.tsx', 'app/hooks.ts', '@/app/hooks'),
        edge('app/router.tsx', 'features/b/y-page.tsx', '@/features/b/y-page'),
      ]),
    ).toEqual([]);
    // A page of feature a showing b and c; auth does not count, nor do pages in app/routes.
    expect(
      composingPages([
        edge('features/a/a-page.tsx', 'features/b/index.ts'),
        edge('features/a/a-page.tsx', 'features/c/index.ts'),
      ]),
    ).toEqual([
      'features/a/a-page.tsx puts together features/b, features/c: a page of several features lives in app/routes/',
    ]);
    expect(
      composingPages([
        edge('features/a/a-page.tsx', 'features/auth/index.ts'),
        edge('features/a/a-page.tsx', 'features/b/index.ts'),
        edge('features/a/a-page.tsx', 'features/a/a-card.tsx'),
        edge('features/a/a-card.tsx', 'features/c/index.ts'),
        edge('app/routes/d-page.tsx', 'features/b/index.ts'),
        edge('app/routes/d-page.tsx', 'features/c/index.ts'),
      ]),
    ).toEqual([]);
    expect(
      layerBreaches([
        edge('shared/ui/x.tsx', 'features/a/index.ts'),
        edge('shared/lib/y.ts', 'app/hooks.ts'),
        edge('config/paths.ts', 'features/a/index.ts'),
        edge('config/paths.ts', 'shared/lib/y.ts'),
      ]),
    ).toHaveLength(4);
    expect(
      layerBreaches([
        edge('shared/api/http.ts', 'config/runtime-config.ts'),
        edge('config/paths.ts', 'config/runtime-config.ts'),
        edge('features/a/x.tsx', 'shared/lib/y.ts'),
      ]),
    ).toEqual([]);
    // A ring of two features through their entries, a type-only import counted as any other.
    expect(
      featureCycle([
        edge('features/a/x.tsx', 'features/b/index.ts'),
        edge('features/b/y.ts', 'features/a/index.ts'),
      ]),
    ).toBe('features/a -> features/b -> features/a');
    expect(
      featureCycle([
        edge('features/a/x.tsx', 'features/b/index.ts'),
        edge('features/a/y.ts', 'features/a/x.tsx'),
        edge('features/b/y.ts', 'features/b/index.ts'),
      ]),
    ).toBeNull();
    expect(fileCycle([edge('a.ts', 'b.ts'), edge('b.ts', 'c.ts'), edge('c.ts', 'a.ts')])).toBe(
      'a.ts -> b.ts -> c.ts -> a.ts',
    );
    expect(
      fileCycle([edge('a.ts', 'b.ts'), edge('a.ts', 'c.ts'), edge('b.ts', 'c.ts')]),
    ).toBeNull();
    // The HTTP client or fetch in a component or a hook; in an api/ folder, shared/api/ or a test.
    expect(
      dataClientBreaches([
        edge('features/a/a-page.tsx', 'shared/api/http.ts', '@/shared/api/http'),
        edge('features/a/use-a.ts', 'shared/api/http.ts', '@/shared/api/http'),
        edge('app/routes/b-page.tsx', 'shared/api/http.ts', '@/shared/api/http'),
      ]),
    ).toHaveLength(3);
    expect(
      dataClientBreaches([
        edge('features/a/api/a-api.ts', 'shared/api/http.ts', '@/shared/api/http'),
        edge('shared/api/base-query.ts', 'shared/api/http.ts', './http'),
        edge('features/a/a.test.ts', 'shared/api/http.ts', '@/shared/api/http'),
        edge('features/a/a-page.tsx', 'shared/api/api-failure.ts', '@/shared/api/api-failure'),
      ]),
    ).toEqual([]);
    const planted = [
      'useEffect(() => {',
      "  fetch('/authms/api/Auth/devices').then(setDevices);",
      '}, []);',
    ].join('\n');
    expect(
      rawFetchBreaches([
        { file: 'features/a/a-page.tsx', text: planted },
        { file: 'app/routes/b-page.tsx', text: 'await window.fetch (url);' },
      ]),
    ).toHaveLength(2);
    expect(
      rawFetchBreaches([
        { file: 'features/a/api/a-api.ts', text: planted },
        { file: 'features/a/a-page.tsx', text: 'void query.refetch(); query.fetchNextPage();' },
      ]),
    ).toEqual([]);
    expect(
      thunkBreaches([
        { file: 'features/wallet/history-slice.ts', text: 'createAsyncThunk("h", load)' },
        { file: 'app/routes/home-page.tsx', text: 'dispatch(api.endpoints.me.initiate())' },
        { file: 'features/auth/auth-thunks.ts', text: 'createAsyncThunk("auth/login", go)' },
        { file: 'features/wallet/api/wallet-api.ts', text: 'api.endpoints.x.initiate()' },
      ]),
    ).toEqual([
      "features/wallet/history-slice.ts makes a thunk: a read is an RTK Query endpoint in the feature's api/ folder",
      "app/routes/home-page.tsx starts a query by hand: use the endpoint's hook",
    ]);
    // An allowed import is left out of the breaches, and only that one.
    const breaches = crossFeatureBreaches([
      edge('features/a/x.tsx', 'features/b/y.ts', '@/features/b/y'),
    ]);
    expect(
      breaches.filter((breach) => !matchesAllowed(breach, 'features/a/x.tsx -> @/features/b/y')),
    ).toEqual([]);
    expect(
      breaches.filter((breach) => !matchesAllowed(breach, 'features/a/x.tsx -> @/features/b/z')),
    ).toHaveLength(1);
  });
});
