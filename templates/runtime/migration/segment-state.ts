// What a segment records as it runs: its counts, the items it skipped, the writes of a page under
// way, and where the next page starts. A SegmentStore keeps that state (files in
// file-checkpoints.ts, a lease table in lease-store.ts), so a stopped segment resumes where it was.

export interface SegmentCounts {
  scanned: number;
  /** Items written under their new key; an edge's other half, moved with the item scanned, counts too. */
  rewritten: number;
  backfilled: number;
  /** Already in the new form (a re-run, written by new code, or an edge half its other half moved). */
  current: number;
  /** Old items whose new key was already taken by a newer write: only the old key was deleted. */
  superseded: number;
  /** Items of entities the migration does not change. */
  unchanged: number;
  skipped: number;
}

export interface SkippedItem {
  readonly key: Readonly<Record<string, unknown>>;
  readonly reason: string;
}

/**
 * One planned write of a page, saved before the page's writes are sent: a run stopped mid-page
 * leaves them in its checkpoint, and the run that resumes counts the ones already made (their old
 * item is gone, or needs nothing any more) instead of finding them "already done".
 */
export interface PendingWrite {
  /** The scanned item's table key. */
  readonly key: Readonly<Record<string, unknown>>;
  readonly kind: 'rewritten' | 'backfilled';
  /** Items the write counts for (an edge's two halves). */
  readonly items: number;
}

/** A segment's progress, as a checkpoint holds it. */
export interface SegmentState {
  /** Where the next page starts; absent before the first page. */
  readonly next?: Record<string, unknown>;
  readonly done: boolean;
  readonly counts: SegmentCounts;
  /** The writes of the page after `next` while they are under way. */
  readonly pending?: readonly PendingWrite[];
}

/** Where a segment's checkpoints live: local files, or a lease table every worker shares. */
export interface SegmentStore {
  load(segment: number): Promise<SegmentState | undefined>;
  /** Saves progress and the items newly skipped since the last save; throws when the segment is no longer this process's to save. */
  save(segment: number, state: SegmentState, skipped: readonly SkippedItem[]): Promise<void>;
}

export const emptyCounts = (): SegmentCounts => ({ scanned: 0, rewritten: 0, backfilled: 0, current: 0, superseded: 0, unchanged: 0, skipped: 0 });

/** What happened to one scanned item: the count it adds to (an edge's moved halves count each), or why it was skipped. */
export type Outcome = { readonly kind: Exclude<keyof SegmentCounts, 'scanned' | 'skipped'>; readonly items?: number } | { readonly kind: 'skipped'; readonly skipped: SkippedItem };
