import path from 'node:path';

// The source runs from apps/server/src and the bundle from apps/server/dist: both sit one level
// below the package, so every file path the server needs is derived here and nowhere else.
export const SERVER_ROOT = path.resolve(import.meta.dirname, '..');
export const REPO_ROOT = path.resolve(SERVER_ROOT, '../..');
export const MIGRATIONS_DIR = path.join(SERVER_ROOT, 'migrations');
export const DEFAULT_WEB_DIST_DIR = path.join(REPO_ROOT, 'apps/web/dist');
