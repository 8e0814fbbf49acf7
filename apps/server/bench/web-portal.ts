// The built portal for the browser benches: started as `npm start` runs it, on a fresh embedded
// database holding one account.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { systemClock } from '../src/adapters/clock.js';
import { openPglite } from '../src/db/database.js';
import { migrate } from '../src/db/migrate.js';
import { users } from '../src/modules/accounts/schema.js';
import { hashPassword } from '../src/modules/auth/passwords.js';
import { SessionStore } from '../src/modules/auth/sessions.js';
import { DEFAULT_WEB_DIST_DIR } from '../src/paths.js';
import { freePort, startProcess } from './processes.js';

/** The bench's account: signed in by its stored session, or by this name and password. */
export const BENCH_ACCOUNT = { userName: 'bench_web', password: 'Bench-Pass1' };

/** One account with a live session, written before the portal starts (PGlite has one owner). */
async function seedSession(dataDir: string) {
  const database = await openPglite(path.join(dataDir, 'pgdata'));
  try {
    await migrate(database);
    const [user] = await database.db
      .insert(users)
      .values({
        email: `${BENCH_ACCOUNT.userName}@example.com`,
        emailKey: `${BENCH_ACCOUNT.userName}@example.com`,
        userName: BENCH_ACCOUNT.userName,
        userNameKey: BENCH_ACCOUNT.userName,
        passwordHash: await hashPassword(BENCH_ACCOUNT.password),
        firstName: 'Бенч',
        lastName: 'Тестов',
        confirmedAt: new Date(),
      })
      .returning();
    const sessions = new SessionStore({ db: database.db, clock: systemClock });
    const { token } = await sessions.create({
      userId: user!.id,
      userAgent: 'bench',
      ipAddress: '127.0.0.1',
    });
    return token;
  } finally {
    await database.close();
  }
}

export interface WebPortal {
  base: string;
  /** A live session of BENCH_ACCOUNT. */
  token: string;
  stop(): Promise<void>;
}

/**
 * The portal as `npm start` runs it, on a fresh embedded database holding BENCH_ACCOUNT, serving
 * the built web app of `webDistDir`.
 */
export async function startWebPortal(webDistDir = DEFAULT_WEB_DIST_DIR): Promise<WebPortal> {
  if (!existsSync(path.join(webDistDir, 'index.html'))) {
    throw new Error(`${webDistDir} has no built web app: run \`npm run build -w apps/web\` first`);
  }
  const dataDir = mkdtempSync(path.join(tmpdir(), 'portal-bench-web-'));
  const token = await seedSession(dataDir);
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const portal = await startProcess(
    ['--import', 'tsx', 'src/server.ts'],
    {
      // Its own embedded database, where the account was seeded: never the PostgreSQL of a
      // `DATABASE_URL=… npm run bench` (the session would be unknown there, and a signed-in page
      // measured as a visit sent back to /auth).
      DATABASE_URL: undefined,
      REDIS_URL: undefined,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      NODE_ENV: 'production',
      WEB_DIST_DIR: webDistDir,
    },
    `${base}/ready`,
  );
  return {
    base,
    token,
    stop: async () => {
      await portal.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
