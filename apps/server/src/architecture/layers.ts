/**
 * The rules between the server's layers and modules, each a function of the list of imports
 * (source-imports.ts), so layers.test.ts applies it to the code and to a planted breach.
 */
import { type Edge, findCycle, moduleOf } from './source-imports.js';

/**
 * The composition root: the files that put the modules together (app.ts) or start a process
 * (server.ts, admin.ts, backup.ts). They may import any module.
 */
export const COMPOSITION_ROOT = ['app.ts', 'server.ts', 'admin.ts', 'backup.ts'];

/**
 * 'module' for `modules/<name>/…`, 'root' for the composition root, 'tests' for these checks'
 * own helpers, and 'core' for the rest: adapters/, db/, http/, jobs/, web/, core-plugin.ts,
 * deps.ts, config.ts, paths.ts, and any file added beside them.
 */
export function layerOf(file: string): 'module' | 'root' | 'tests' | 'core' {
  if (moduleOf(file) !== null) return 'module';
  if (COMPOSITION_ROOT.includes(file)) return 'root';
  if (file.startsWith('architecture/')) return 'tests';
  return 'core';
}

/** An import that breaks a rule and stays: which edges it covers, and why. */
export interface Allowed {
  from: string;
  to: string | RegExp;
  reason: string;
}

const covers = (allowed: Allowed, edge: Edge) =>
  allowed.from === edge.from &&
  (typeof allowed.to === 'string' ? allowed.to === edge.to : allowed.to.test(edge.to));

const describe = (edge: Edge) =>
  `${edge.from} imports '${edge.specifier}'${edge.typeOnly ? ' (type only)' : ''}`;

/** The core's imports of a module, those `allowed` covers aside. */
export function coreImportsOfModules(edges: Edge[], allowed: Allowed[]): string[] {
  return edges
    .filter((edge) => layerOf(edge.from) === 'core' && layerOf(edge.to) === 'module')
    .filter((edge) => !allowed.some((entry) => covers(entry, edge)))
    .map((edge) => `${describe(edge)}: the core imports no module`);
}

/** The entries of `allowed` no edge matches any more, so a list cannot outlive its reasons. */
export function staleAllowances(edges: Edge[], allowed: Allowed[]): string[] {
  return allowed
    .filter((entry) => !edges.some((edge) => covers(entry, edge)))
    .map((entry) => `${entry.from} -> ${entry.to}: allowed, but no such import is left`);
}

/** Module A → module B for every file of A importing a file of B (type-only included). */
export function moduleGraph(edges: Edge[]): Map<string, string[]> {
  const graph = new Map<string, Set<string>>();
  for (const edge of edges) {
    const from = moduleOf(edge.from);
    const to = moduleOf(edge.to);
    if (from === null || to === null || from === to) continue;
    graph.set(from, (graph.get(from) ?? new Set()).add(to));
  }
  return new Map([...graph].map(([from, to]) => [from, [...to].sort()]));
}

/**
 * One ring of modules, or null, once the `allowed` edges ('<module> -> <module>') are taken out;
 * also each allowed edge the graph no longer has.
 */
export function moduleCycle(
  graph: Map<string, string[]>,
  allowed: readonly string[],
): { cycle: string[] | null; stale: string[] } {
  const pruned = new Map(
    [...graph].map(([from, to]) => [
      from,
      to.filter((next) => !allowed.includes(`${from} -> ${next}`)),
    ]),
  );
  const present = new Set(
    [...graph].flatMap(([from, to]) => to.map((next) => `${from} -> ${next}`)),
  );
  return {
    cycle: findCycle(pruned),
    stale: allowed.filter((edge) => !present.has(edge)),
  };
}

/**
 * Imports of a module's file into another module past its public entry. Allowed across modules:
 * `modules/<name>/index.ts`; a `schema.ts` importing another's `schema.ts` (foreign keys); and a
 * `plugin.ts` importing another's `plugin.ts` for types only (`import type {}`, which brings that
 * module's part of `app.deps`, declared by merging, into view).
 */
export function entryBreaches(edges: Edge[]): string[] {
  return edges.flatMap((edge) => {
    const from = moduleOf(edge.from);
    const to = moduleOf(edge.to);
    if (from === null || to === null || from === to) return [];
    const entry = `modules/${to}/`;
    if (edge.to === `${entry}index.ts`) return [];
    const fromFile = edge.from.slice(`modules/${from}/`.length);
    if (fromFile === 'schema.ts' && edge.to === `${entry}schema.ts`) return [];
    if (fromFile === 'plugin.ts' && edge.to === `${entry}plugin.ts` && edge.typeOnly) return [];
    return [`${describe(edge)}: another module is reached only through ${entry}index.ts`];
  });
}
