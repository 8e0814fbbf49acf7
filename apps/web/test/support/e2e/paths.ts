import path from 'node:path';

export const webRoot = path.resolve(import.meta.dirname, '../../..');
export const repoRoot = path.resolve(webRoot, '../..');
export const webDistDir = path.join(webRoot, 'dist');
