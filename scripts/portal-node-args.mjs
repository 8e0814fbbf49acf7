// The Node.js flags the portal's process runs with: `npm start` (start.mjs) and the bench's
// portals (apps/server/bench/harness.ts), so the bench measures what a host runs.
//
// --max-semi-space-size=16 (MiB), Node.js 20's size on such a host: Node.js 22 and later size
// the young generation from the machine's memory, 64 MiB semi-spaces on one of 16 GB or more, and
// its 128 MiB stay resident once the first load has grown them. With Node.js 24 the portal's
// resident memory after the bench's 5,000 sessions went from 167 to 334–340 MB; with this flag it
// is 231–234 MB, and no CPU per request was lost that the bench could see (docs/benchmarks.md,
// "Costs as data grows").
export const PORTAL_NODE_ARGS = ['--enable-source-maps', '--max-semi-space-size=16'];
