/**
 * A value built on first use. Every shared zod schema of this package is one: the CLI starts once
 * per agent action, and building schemas at start-up (plus zod's own set-up, which the CLI bundle
 * defers until a schema is first built) cost more than the whole rest of a call. A command builds
 * only what it touches; tool entries do the same for their params and result (toolSpec.ts).
 */
export function lazy<T>(build: () => T): () => T {
  let value: { built: T } | undefined;
  return () => (value ??= { built: build() }).built;
}
