import type { FixItem } from '../payload-schemas.js';

/** The threads one commit fixes, the files it holds, and its message. */
export interface CommitGroup {
  threadIds: string[];
  files: string[];
  message: string;
}

/**
 * The commits `fix-comments --commit` makes: one per group of `valid` threads whose `files` overlap (a file cannot be
 * split between two commits without guessing which hunk fixed which thread). Items that already name a `commitSha`
 * were committed by the person and are left alone; other classifications change no code.
 */
export function commitGroups(items: readonly FixItem[], prNumber: number): CommitGroup[] {
  const committable = items.filter(
    (item) => item.classification === 'valid' && item.commitSha === undefined && (item.files?.length ?? 0) > 0,
  );
  const groups: Array<{ items: FixItem[]; files: Set<string> }> = [];
  for (const item of committable) {
    const files = new Set(item.files);
    const overlapping = groups.filter((group) => [...files].some((file) => group.files.has(file)));
    const merged = { items: [...overlapping.flatMap((group) => group.items), item], files };
    for (const group of overlapping) for (const file of group.files) files.add(file);
    const remaining = groups.filter((group) => !overlapping.includes(group));
    groups.length = 0;
    groups.push(...remaining, merged);
  }
  // Payload order, so the commits read in the order the person wrote the threads.
  const order = new Map(committable.map((item, index) => [item.threadId, index]));
  return groups
    .map((group) => group.items.sort((a, b) => order.get(a.threadId)! - order.get(b.threadId)!))
    .sort((a, b) => order.get(a[0]!.threadId)! - order.get(b[0]!.threadId)!)
    .map((groupItems) => ({
      threadIds: groupItems.map((item) => item.threadId),
      files: [...new Set(groupItems.flatMap((item) => item.files ?? []))].sort(),
      message: commitMessage(groupItems, prNumber),
    }));
}

function commitMessage(items: readonly FixItem[], prNumber: number): string {
  const noun = items.length === 1 ? 'review thread' : 'review threads';
  const subject = `Address ${noun} ${items.map((item) => item.threadId).join(', ')} (PR #${prNumber})`;
  const body = items.map((item) => `- ${item.threadId}: ${firstLine(item.fixSummary ?? 'fixed')}`).join('\n');
  return `${subject}\n\n${body}\n`;
}

const firstLine = (text: string) => text.split('\n')[0]!.trim();
