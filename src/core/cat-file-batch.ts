/** One object of `git cat-file --batch`'s output: its type (`blob`, `tree`, …) and its bytes. */
export interface BatchObject {
  readonly type: string;
  readonly bytes: Buffer;
}

/** `<object id> <type> <size>`; any other header is `<name> missing` or `<name> ambiguous` (a name may hold spaces). */
const HEADER = /^[0-9a-f]{40,64} ([a-z]+) (\d+)$/;

/**
 * `git cat-file --batch`'s answers to `count` names given one a line, in order: each name's object, or undefined where
 * git found none. `complete` is false when the output ends early or an object is not followed by its line feed: the
 * names from there on are undefined, so no object is ever cut short.
 */
export function parseCatFileBatch(
  output: Buffer,
  count: number,
): { objects: Array<BatchObject | undefined>; complete: boolean } {
  const objects: Array<BatchObject | undefined> = [];
  let at = 0;
  for (let position = 0; position < count; position++) {
    const end = output.indexOf(10, at);
    if (end === -1) return { objects: pad(objects, count), complete: false };
    const header = HEADER.exec(output.toString('latin1', at, end));
    at = end + 1;
    if (!header) {
      objects.push(undefined);
      continue;
    }
    const size = Number(header[2]);
    if (at + size >= output.length || output[at + size] !== 10)
      return { objects: pad(objects, count), complete: false };
    objects.push({ type: header[1]!, bytes: output.subarray(at, at + size) });
    at += size + 1;
  }
  return { objects, complete: true };
}

function pad(objects: Array<BatchObject | undefined>, count: number): Array<BatchObject | undefined> {
  while (objects.length < count) objects.push(undefined);
  return objects;
}
