/**
 * The rules between the core, the composition root and the modules (ARCHITECTURE.md, "How the
 * server is put together"), checked on the imports of every file of src, type-only included:
 *
 * - The core (adapters/, db/, http/, jobs/, web/, core-plugin.ts, deps.ts, config.ts, paths.ts)
 *   imports no module; app.ts and the entry points (server.ts, admin.ts, backup.ts) put them
 *   together.
 * - The modules form no ring, counting module A → module B for any import of any file of A.
 * - A module reaches another only through its public entry `index.ts` (a `schema.ts` may take
 *   another's `schema.ts` for a foreign key, a `plugin.ts` another's `plugin.ts` for types).
 *
 * What breaks a rule and stays is listed below with its reason; an entry nothing matches any more
 * fails the test. The last test plants a breach of each rule.
 */
import { describe, expect, it } from 'vitest';
import {
  type Allowed,
  COMPOSITION_ROOT,
  coreImportsOfModules,
  entryBreaches,
  layerOf,
  moduleCycle,
  moduleGraph,
  staleAllowances,
} from './layers.js';
import {
  constructorBreaches,
  containerParameters,
  MAX_BRANCHES,
  MAX_HANDLER_LINES,
  oversizedHandlers,
  routeHandlers,
} from './services.js';
import { type Edge, edgesOf, productionTexts } from './source-imports.js';

const CORE_ALLOWED: Allowed[] = [
  {
    from: 'db/schema.ts',
    to: /^modules\/[^/]+\/schema\.ts$/,
    reason:
      "Drizzle types the database (db/database.ts, `Db`) by one object of every table; each table stays in its module's schema.ts, and this file only gathers them.",
  },
  {
    from: 'core-plugin.ts',
    to: 'modules/auth/sessions.ts',
    reason:
      'The session store is built with the core because security-log, two-factor and metrics, registered before auth, use it; taking it into the core needs the account block check (modules/accounts) as a port first.',
  },
];

/** Module edges ('<from> -> <to>') that close a ring and stay, each with its reason. */
const MODULE_RINGS_ALLOWED: Record<string, string> = {
  'security-log -> auth':
    "The security log's routes take requireSession and sessionOf (auth/sessions.ts), while auth records into the log; gone once the session check lives in the core.",
  'metrics -> auth':
    'The metrics name the sign-in outcomes (LOGIN_OUTCOMES) to create their series before the first sign-in, while auth hangs the counters on its hooks.',
  'metrics -> payments':
    "The metrics read payments by status at scrape time (payments/payment-stats.ts), while payments hangs the reconciliation's counters on the metrics.",
  'payment-sandbox -> payments':
    'The sandbox asks the payments module whether it is the chosen provider (choosePaymentProvider), while payments calls the SandboxTerminal in-process.',
};

const texts = productionTexts();
const edges = edgesOf(texts);

describe("the server's layers and modules", () => {
  it('sees the imports of the whole server', () => {
    expect(edges.length).toBeGreaterThan(300);
    for (const file of COMPOSITION_ROOT) expect(layerOf(file)).toBe('root');
    expect(edges.some((edge) => layerOf(edge.from) === 'core')).toBe(true);
  });

  it('keeps the core free of modules', () => {
    expect(coreImportsOfModules(edges, CORE_ALLOWED)).toEqual([]);
    expect(staleAllowances(edges, CORE_ALLOWED)).toEqual([]);
  });

  it('has no ring of modules', () => {
    const { cycle, stale } = moduleCycle(moduleGraph(edges), Object.keys(MODULE_RINGS_ALLOWED));
    expect(cycle).toBeNull();
    expect(stale).toEqual([]);
  });

  it('reaches another module only through its public entry', () => {
    expect(entryBreaches(edges)).toEqual([]);
  });

  it('notices each kind of breach it looks for', () => {
    const planted = (texts: Record<string, string>): Edge[] =>
      edgesOf(new Map(Object.entries(texts)));

    const core = planted({
      'http/x.ts': "import type { PaymentRow } from '../modules/payments/index.js';",
      'db/y.ts': "export { paymentStats } from '../modules/payments/payment-stats.js';",
      'app.ts': "import { authPlugin } from './modules/auth/plugin.js';",
      'adapters/z.ts': "import { Clock } from './clock.js';",
    });
    expect(coreImportsOfModules(core, [])).toEqual([
      "http/x.ts imports '../modules/payments/index.js' (type only): the core imports no module",
      "db/y.ts imports '../modules/payments/payment-stats.js': the core imports no module",
    ]);
    const allowed = [{ from: 'db/y.ts', to: 'modules/payments/payment-stats.ts', reason: '' }];
    expect(coreImportsOfModules(core, allowed)).toHaveLength(1);
    expect(staleAllowances(core, allowed)).toEqual([]);
    expect(staleAllowances(core, [{ from: 'db/gone.ts', to: /./, reason: '' }])).toHaveLength(1);

    const ring = moduleGraph(
      planted({
        'modules/a/service.ts': "import type { B } from '../b/index.js';",
        'modules/b/routes.ts': "const c = await import('../c/index.js');",
        'modules/c/plugin.ts': "import type {} from '../a/plugin.js';",
      }),
    );
    expect(moduleCycle(ring, []).cycle).toEqual(['a', 'b', 'c', 'a']);
    expect(moduleCycle(ring, ['c -> a'])).toEqual({ cycle: null, stale: [] });
    expect(moduleCycle(ring, ['c -> a', 'a -> c']).stale).toEqual(['a -> c']);

    const holes = planted({
      'modules/a/service.ts': "import { postLedgerEntry } from '../b/ledger.js';",
      'modules/a/repository.ts': "import { payments } from '../b/schema.js';",
      'modules/a/routes.ts': "import { x } from '../../modules/b/internal.js';",
      'modules/a/plugin.ts': "import { bPlugin } from '../b/plugin.js';",
      'modules/a/schema.ts': "import { users } from '../b/schema.js';",
      'modules/a/index.ts':
        "export { y } from '../b/index.js';\nimport type {} from '../b/plugin.js';",
      'modules/c/plugin.ts': "import type {} from '../b/plugin.js';",
    });
    expect(entryBreaches(holes).map((breach) => breach.split(' imports ')[0])).toEqual([
      'modules/a/service.ts',
      'modules/a/repository.ts',
      'modules/a/routes.ts',
      'modules/a/plugin.ts',
      'modules/a/index.ts',
    ]);
  });
});

/**
 * The shape of the modules' services and routes (services.ts): each service names what it takes,
 * and a route handler parses, calls one service method and answers.
 */
describe("the modules' services and routes", () => {
  it('hand no module the whole container (AppDeps)', () => {
    expect(containerParameters(texts)).toEqual([]);
  });

  it('build every exported class of a module from one deps object', () => {
    expect(constructorBreaches(texts)).toEqual([]);
  });

  it(`keep every route handler within ${MAX_BRANCHES} branches and ${MAX_HANDLER_LINES} lines`, () => {
    const handlers = routeHandlers(texts);
    expect(handlers.length).toBeGreaterThan(60);
    expect(oversizedHandlers(handlers)).toEqual([]);
  });

  it('notices a parameter or property typed AppDeps', () => {
    const planted = new Map([
      [
        'modules/a/service.ts',
        [
          "import type { AppDeps } from '../../deps.js';",
          'export async function run(deps: AppDeps) {}',
          'export interface Context { deps: AppDeps; db: AppDeps["db"] }',
          'export class S { constructor(private readonly deps: AppDeps) {} }',
          "export type Named = Pick<AppDeps, 'db'>;",
        ].join('\n'),
      ],
      ['app.ts', 'function build(deps: AppDeps) {}'],
    ]);
    expect(containerParameters(planted)).toEqual([
      'modules/a/service.ts:2 deps: typed AppDeps',
      'modules/a/service.ts:3 deps: typed AppDeps',
      'modules/a/service.ts:4 deps: typed AppDeps',
    ]);
  });

  it('notices a route handler with too many branches or lines', () => {
    const body = (lines: number) => Array.from({ length: lines }, () => '  x();').join('\n');
    const planted = new Map([
      [
        'modules/a/routes.ts',
        [
          "app.get('/two', {}, async () => { if (a) return 1; return b ? 2 : 3; });",
          "app.get('/defaults', {}, async () => a ?? b?.c);",
          "app.post('/three', {}, async () => { if (a || b) return 1; return c ? d : e; });",
          "app.put('/cases', {}, async () => { switch (a) { case 1: return x && y; case 2: default: } });",
          `app.patch('/twenty', {}, async () => {\n${body(18)}\n});`,
          `app.delete('/longer', {}, async () => {\n${body(19)}\n});`,
          "app.route({ method: 'GET', url: '/r', handler: async () => (a ? b : c ? d : e ? f : g) });",
        ].join('\n'),
      ],
      ['modules/a/service.ts', "app.get('/x', {}, () => (a ? b : c ? d : e ? f : g));"],
    ]);
    const handlers = routeHandlers(planted);
    expect(handlers.map(({ route, branches, lines }) => [route, branches, lines])).toEqual([
      ["GET '/two'", 2, 1],
      ["GET '/defaults'", 0, 1],
      ["POST '/three'", 3, 1],
      ["PUT '/cases'", 3, 1],
      ["PATCH '/twenty'", 0, 20],
      ["DELETE '/longer'", 0, 21],
      ['ROUTE', 3, 1],
    ]);
    expect(oversizedHandlers(handlers)).toEqual([
      "modules/a/routes.ts:3 POST '/three': 3 branches, 1 lines",
      "modules/a/routes.ts:4 PUT '/cases': 3 branches, 1 lines",
      "modules/a/routes.ts:25 DELETE '/longer': 0 branches, 21 lines",
      'modules/a/routes.ts:46 ROUTE: 3 branches, 1 lines',
    ]);
  });

  it('notices a constructor that takes anything but (deps: XDeps)', () => {
    const planted = new Map([
      [
        'modules/a/services.ts',
        [
          'export class Positional { constructor(private readonly db: Db, clock: Clock) {} }',
          'export class Named { constructor(private readonly deps: NamedDeps) {} }',
          'export class OtherName { constructor(private readonly options: OtherNameDeps) {} }',
          'export class Inline { constructor(private readonly deps: { db: Db }) {} }',
          "export class Picked { constructor(private readonly deps: Pick<AppDeps, 'db'>) {} }",
          'export class NotDeps { constructor(private readonly deps: Settings) {} }',
          'export class Optional { constructor(private readonly deps?: OptionalDeps) {} }',
          'export class Empty { constructor() {} }',
          'export class NoConstructor { run() {} }',
          'export class Refused extends AppError { constructor(text: string) { super(text); } }',
          'class Private { constructor(db: Db) {} }',
        ].join('\n'),
      ],
      ['modules/a/services.test.ts', 'export class Stub { constructor(db: Db) {} }'],
      ['adapters/mail.ts', 'export class Outbox { constructor(db: Db) {} }'],
    ]);
    expect(constructorBreaches(planted)).toEqual([
      'modules/a/services.ts:1 Positional(private readonly db: Db, clock: Clock)',
      'modules/a/services.ts:3 OtherName(private readonly options: OtherNameDeps)',
      'modules/a/services.ts:4 Inline(private readonly deps: { db: Db })',
      "modules/a/services.ts:5 Picked(private readonly deps: Pick<AppDeps, 'db'>)",
      'modules/a/services.ts:6 NotDeps(private readonly deps: Settings)',
      'modules/a/services.ts:7 Optional(private readonly deps?: OptionalDeps)',
    ]);
  });
});
