/** What `PatchStream` knows of the file whose lines it reads. */
export interface FileState {
  path: string;
  /** Parents of a combined (merge) diff; 1 for a plain diff. */
  parents: number;
  binary: boolean;
  /**
   * What follows `index ` on the file's `index` line (its ids: one per parent, then the new one), or null when the patch
   * has none. Only a file read whole needs the ids (`wholeBlob`): they are split out there, not for every file.
   */
  index: string | null;
  /** Some added line held a NUL: the blob is read whole instead (see `BinaryChange`); no more pieces leave. */
  nul: boolean;
  /**
   * Passed over: an added or deleted file of a commit left to the rename pass (`PatchStreamSink.rescan`), or in the
   * rename pass a file an earlier pass read. Decided before the file's first hunk.
   */
  skipped: boolean;
  /** A `new file mode` or `deleted file mode` line: git shows the file as added or deleted. */
  addedOrDeleted: boolean;
  /** The path as the `diff --git` line named it when both its sides parse and agree, else null. */
  headerPath: string | null;
  /** The path of a `--- a/…` line (a deleted file's), else null. */
  oldPath: string | null;
  /** The path of a `+++ b/…` line, else null. */
  newPath: string | null;
  /** Index in `added` of the first line this file's next piece owns. */
  ownFrom: number;
  /** Set once the added bytes passed the piece size: the piece owns lines up to here and waits for the overlap after. */
  cutAt: number;
}

/** A file's state as its `diff` header opens it. Every file's state has one shape (one object literal here). */
export function newFileState(path: string, parents: number): FileState {
  return {
    path,
    parents,
    binary: false,
    index: null,
    nul: false,
    skipped: false,
    addedOrDeleted: false,
    headerPath: null,
    oldPath: null,
    newPath: null,
    ownFrom: 0,
    cutAt: -1,
  };
}

/**
 * V8 takes a field that no object of a shape has changed yet for a constant, and optimized code that read it relies on
 * that: the first file of a commit left to the rename pass (its `skipped`, `headerPath` and `oldPath` set), far into a
 * history, threw the optimized `hunkLine` away and compiled it again. Every field one file changes is changed once
 * here, when the module loads, so the shape is settled before the parse runs.
 */
function settleShape(): void {
  const file = newFileState('', 1);
  file.path = 'a';
  file.parents = 2;
  file.binary = true;
  file.index = '';
  file.nul = true;
  file.skipped = true;
  file.addedOrDeleted = true;
  file.headerPath = '';
  file.oldPath = '';
  file.newPath = '';
  file.ownFrom = 1;
  file.cutAt = 0;
}
settleShape();
