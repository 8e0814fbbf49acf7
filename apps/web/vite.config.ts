import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { routePreloads } from './route-preloads.ts';
import { portalConfigFromServer } from './vite-portal-config.ts';

// In development the API runs as a separate process; everything the browser sends to a server
// path goes there, so the web app uses the same relative URLs as in production.
const serverUrl = process.env.SERVER_URL ?? 'http://127.0.0.1:3000';
const serverPaths = [
  '/authms',
  '/paymentms',
  '/serversms',
  '/staffms',
  '/telegrambotms',
  '/payments',
  '/upload',
  '/uploads',
  '/auth/yandex',
  '/dev',
  '/sandbox',
  '/health',
  '/ready',
  '/docs',
];

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Text files the server sends as they are (index.html is rendered and compressed at start). */
const COMPRESSIBLE = /\.(js|mjs|css|svg|json|txt)$/;

/**
 * Writes a brotli (`.br`, best quality) and a gzip (`.gz`) copy beside each built text file, once,
 * so the server sends the copy the browser accepts without compressing per request
 * (apps/server/src/web/serve-web.ts). A copy that would not be smaller is not written.
 */
async function precompressDir(dir: string): Promise<void> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const files = entries
    .filter((entry) => entry.isFile() && COMPRESSIBLE.test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name));
  await Promise.all(
    files.map(async (file) => {
      const content = await readFile(file);
      const copies = {
        br: await brotli(content, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
            [constants.BROTLI_PARAM_SIZE_HINT]: content.byteLength,
          },
        }),
        gz: await gzipAsync(content, { level: constants.Z_BEST_COMPRESSION }),
      };
      for (const [extension, copy] of Object.entries(copies)) {
        if (copy.byteLength < content.byteLength) await writeFile(`${file}.${extension}`, copy);
      }
    }),
  );
}

/**
 * RTK Query (only the signed-in pages load it, decision 41) takes its own copies of Redux Toolkit's
 * core, immer and reselect: one file is one module, so its imports from the copies every page starts with
 * (`vendor`) would keep in them, for /auth too, the parts only RTK Query uses (immer's patches,
 * reselect's createSelector, the thunk matchers). The copies are the packages' other builds, which hold no state of their own
 * that the store's copies must share (actions are matched by type, drafts by a global symbol).
 */
function rtkQueryOwnCopies(): Plugin {
  const toolkit = /[\\/]@reduxjs[\\/]toolkit[\\/]dist[\\/](query[\\/]|redux-toolkit\.browser)/;
  return {
    name: 'rtk-query-own-copies',
    enforce: 'pre',
    async resolveId(source, importer) {
      if (!importer || !toolkit.test(importer)) return null;
      const copy = {
        '@reduxjs/toolkit': 'redux-toolkit.browser.mjs',
        immer: 'immer.production.mjs',
        reselect: 'reselect.browser.mjs',
      }[source];
      if (!copy) return null;
      const usual = await this.resolve(source, importer, { skipSelf: true });
      return usual && path.join(path.dirname(usual.id), copy);
    },
  };
}

/** The build step: compresses the output folder once Vite has written everything into it. */
function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'portal-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      await precompressDir(outDir);
    },
  };
}

export default defineConfig({
  // `npm run dev` starts Vite from the repository root with --config; the app lives here.
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [
    react(),
    portalConfigFromServer(serverUrl),
    routePreloads(),
    precompress(),
    rtkQueryOwnCopies(),
  ],
  resolve: {
    alias: [{ find: '@', replacement: fileURLToPath(new URL('./src', import.meta.url)) }],
  },
  server: {
    proxy: Object.fromEntries(serverPaths.map((prefix) => [prefix, { target: serverUrl }])),
  },
  build: {
    outDir: 'dist',
    // Every browser the portal supports preloads modules itself: without the polyfill the entry
    // chunk is only imports, which Vite writes into index.html instead (one file less to fetch).
    modulePreload: { polyfill: false },
    emptyOutDir: true,
    rolldownOptions: {
      output: {
        codeSplitting: {
          // Every file costs its response headers (about 0.5 KB on the wire), so what loads
          // together goes in one file; what only some screens use stays out of the first load.
          groups: [
            // The libraries every page starts with: fewer requests and better compression than
            // the dozen small chunks the split makes of them. zod is not among them: it loads
            // with the first form check or the first answer read by a schema.
            {
              name: 'vendor',
              test: /node_modules[\\/](react|react-dom|scheduler|react-router|react-redux|redux|@reduxjs[\\/]toolkit(?![\\/]dist[\\/](query|redux-toolkit\.browser))|immer(?![\\/]dist[\\/]immer\.production)|use-sync-external-store)[\\/]/,
            },
            // RTK Query and the one API slice over it (shared/api/portal-api.ts): only the pages
            // that read server data load it, never /auth (decision 41).
            {
              name: 'data',
              test: /node_modules[\\/](@reduxjs[\\/]toolkit[\\/]dist[\\/](query[\\/]|redux-toolkit\.browser)|immer[\\/]dist[\\/]immer\.production|reselect[\\/]dist[\\/]reselect\.browser)|apps[\\/]web[\\/]src[\\/]shared[\\/]api[\\/](portal-api|base-query)\./,
              includeDependenciesRecursively: false,
            },
            // The app's own code every page starts with (store, router, frames).
            {
              name: 'start',
              tags: ['$initial'],
              test: /apps[\\/]web[\\/]src[\\/]|packages[\\/]contracts[\\/]|vite[\\/]preload-helper/,
              includeDependenciesRecursively: false,
            },
            // What only the signed-in screens show (money, dates, avatars, lists, downloads) or
            // their dialogs use (a refusal shown once, a request given up on closing, the security
            // block's styles its dialogs share, loaded on opening): apart from the form pieces
            // below, so /auth's first visit takes none of it.
            {
              name: 'shared-display',
              test: /apps[\\/]web[\\/]src[\\/](shared[\\/](ui[\\/](avatar|skeleton|empty-state|load-more-button|page-header|profile-list-page|modal)|lib[\\/](format-money|format-date|save-file|show-failure|use-unmount-signal)|api[\\/]get-file)\.|features[\\/]security[\\/]security\.module\.css$)/,
              minShareCount: 2,
              includeDependenciesRecursively: false,
            },
            // Small pieces several screens share (fields, buttons, icons, formatting, CSS class
            // maps): one file instead of one each. Not the pieces that bring a library of their
            // own (dialogs, the toaster, the code input), which would then load with every screen,
            // nor a receipt, which only two screens deep in the portal show.
            {
              name: 'shared',
              test: (id) =>
                /apps[\\/]web[\\/]src[\\/](shared[\\/]|.*\.module\.css$)|contracts[\\/]src[\\/](passkey-messages|without-spaces)\./.test(
                  id,
                ) &&
                !/shared[\\/]ui[\\/](modal(-dialog)?|toaster|code-input(-boxes)?)\.tsx$/.test(id) &&
                // A receipt (the wallet's receipt page, the staff's receipts dialog): its own file.
                !/shared[\\/]ui[\\/]receipt-details\./.test(id),
              minShareCount: 2,
              maxModuleSize: 8192,
              includeDependenciesRecursively: false,
            },
          ],
        },
      },
    },
  },
});
