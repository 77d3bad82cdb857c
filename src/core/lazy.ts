/**
 * A value built on first use, then kept: for zod schemas that only some commands read, so that importing their module
 * (every module a run reaches is evaluated when it starts) does not construct them (issue 32's start-up target).
 */
export function lazy<T>(build: () => T): () => T {
  let built: { value: T } | undefined;
  return () => {
    built ??= { value: build() };
    return built.value;
  };
}
