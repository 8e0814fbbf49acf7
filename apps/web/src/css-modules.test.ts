/**
 * Every class a component takes from a CSS module is defined in that module. A class that is not
 * there is `undefined` at run time: the element silently loses its style, and neither TypeScript
 * (a module's classes are typed as any string) nor the build says so. Layout that many features
 * share lives in `shared/ui/blocks.module.css`, so moving a class there is the usual way to break
 * this.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = import.meta.dirname;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

const IMPORT = /import (\w+) from '([^']+\.module\.css)'/g;

/** The classes `source` (at `file`) reads from its CSS modules that those modules do not define. */
export function missingClasses(
  file: string,
  source: string,
  readCss: (cssPath: string) => string,
): string[] {
  const missing: string[] = [];
  for (const [, name, specifier] of source.matchAll(IMPORT)) {
    const cssPath = specifier!.startsWith('@/')
      ? path.join(SRC, specifier!.slice(2))
      : path.resolve(path.dirname(file), specifier!);
    const css = readCss(cssPath);
    const used = new Set(
      [...source.matchAll(new RegExp(`(?<![\\w/.-])${name}\\.(\\w+)`, 'g'))].map((m) => m[1]!),
    );
    for (const cls of used) {
      if (!new RegExp(`\\.${cls}(?![\\w-])`).test(css)) {
        missing.push(`${path.relative(SRC, file)}: ${name}.${cls}`);
      }
    }
  }
  return missing;
}

const readCss = (cssPath: string) => readFileSync(cssPath, 'utf8');

describe('CSS modules', () => {
  it('define every class the components take from them', () => {
    const missing = sourceFiles(SRC).flatMap((file) =>
      missingClasses(file, readFileSync(file, 'utf8'), readCss),
    );
    expect(missing).toEqual([]);
  });

  it('a class read but not defined is found', () => {
    const file = path.join(SRC, 'features/planted/planted.tsx');
    const source = [
      "import blocks from '@/shared/ui/blocks.module.css';",
      "import styles from './planted.module.css';",
      'const a = <div className={blocks.stack} />;',
      'const b = <p className={styles.lead} />;',
      'const c = <p className={blocks.nowhere} />;',
    ].join('\n');
    const css = (cssPath: string) =>
      cssPath.endsWith('planted.module.css') ? '.lead { margin: 0; }' : readCss(cssPath);
    expect(missingClasses(file, source, css)).toEqual([
      'features/planted/planted.tsx: blocks.nowhere',
    ]);
  });
});
