/**
 * A value built on first use, then kept: for zod schemas that only some commands read, so that importing their module
 * (every module a run reaches is evaluated when it starts) does not construct them (start-up: a run must not pay for what it never uses).
 */
export function lazy<T>(build: () => T): () => T {
  let built: { value: T } | undefined;
  return () => {
    built ??= { value: build() };
    return built.value;
  };
}
