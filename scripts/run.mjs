import { spawnSync } from 'node:child_process';

/** Runs a command from the repository root, showing its output; stops the script if it fails. */
export function run(command, args, options = {}) {
  const result = spawnSync(command, args, {
    stdio: 'inherit',
    cwd: new URL('..', import.meta.url),
    ...options,
  });
  if (result.status !== 0) {
    console.error(`✗ ${[command, ...args].join(' ')} (код ${result.status ?? result.signal})`);
    process.exit(result.status ?? 1);
  }
}
