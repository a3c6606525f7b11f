export function newestChange(dir: string): number;
export function compiledRuntimeStaleness(root: string): "missing" | "stale" | null;
