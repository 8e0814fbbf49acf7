/** The line to stop with when `running` (a `process.versions.node`) is too old, else null. */
export function runtimeProblem(running: string): string | null;
