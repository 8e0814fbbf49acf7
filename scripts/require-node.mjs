// Stops a start on a Node.js older than the root package.json's `engines.node` with one Russian
// line. `npm install` brings Node.js 24 into node_modules (the node-linux-* optional
// dependencies) and npm scripts run that one; this catches a machine where it could not be
// installed, and a production host that starts dist/server.js with an older `node` of its own.
// The scripts and the server's entry points import it first, for its check.
import rootPackage from '../package.json' with { type: 'json' };

/** The line to stop with when `running` (a `process.versions.node`) is too old, else null. */
export function runtimeProblem(running) {
  const [major = 0, minor = 0] = rootPackage.engines.node
    .replace(/^>=\s*/, '')
    .split('.')
    .map(Number);
  const [runningMajor = 0, runningMinor = 0] = running.split('.').map(Number);
  if (runningMajor > major || (runningMajor === major && runningMinor >= minor)) return null;
  return (
    `Нужен Node.js ${major}.${minor} или новее, а запущен ${running}: установите зависимости ` +
    '(npm install) и запускайте командами npm, они берут Node.js 24 из node_modules.'
  );
}

const problem = runtimeProblem(process.versions.node);
if (problem) {
  console.error(problem);
  process.exit(1);
}
