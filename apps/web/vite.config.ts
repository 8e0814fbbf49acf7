import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// In development the API runs as a separate process; everything the browser sends to a server
// path goes there, so the web app uses the same relative URLs as in production.
const serverUrl = process.env.SERVER_URL ?? 'http://127.0.0.1:3000';
const serverPaths = [
  '/authms',
  '/paymentms',
  '/serversms',
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

export default defineConfig({
  // `npm run dev` starts Vite from the repository root with --config; the app lives here.
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [react()],
  resolve: {
    alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) },
  },
  server: {
    proxy: Object.fromEntries(serverPaths.map((path) => [path, { target: serverUrl }])),
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
  },
});
