/**
 * The folder, relative to the repository root, that holds everything tollgate writes. A module of its own so that a
 * fast path can name it before it loads the state's modules (tollgate-dir.ts re-exports it).
 */
export const TOLLGATE_DIR = '.tollgate';
