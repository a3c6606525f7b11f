// Module hooks (registered by scripts/run-hearth.mjs): the `--conditions=hearth-source` flag,
// applied from inside the process, so `import "hearth"` in an automation resolves to src/ while
// Hearth itself runs from src/ (one copy of its classes, not src/ and dist/ side by side).
export async function resolve(specifier, context, nextResolve) {
  if (context.conditions.includes("hearth-source")) return nextResolve(specifier, context);
  return nextResolve(specifier, { ...context, conditions: [...context.conditions, "hearth-source"] });
}
