// Checkpoints of a run in one process (runMigration): one JSON file per segment in a folder, each
// replaced whole, so a stopped run resumes from its files. A folder made by another migration or
// with another segment count is refused before anything is written.

import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { SegmentState, SegmentStore, SkippedItem } from './segment-state.js';

interface Checkpoint extends SegmentState {
  readonly migration: string;
  readonly segment: number;
  readonly segments: number;
  /** Items skipped so far, kept so a resumed run still reports them. */
  readonly skipped: readonly SkippedItem[];
}

/** A checkpoint that belongs to another migration or another segment count: nothing is written. */
export class CheckpointError extends Error {
  override readonly name = 'CheckpointError';
}

function checkpointFile(dir: string, segment: number, segments: number): string {
  return path.join(dir, `segment-${segment}-of-${segments}.json`);
}

/** Reads a segment's checkpoint; a foreign one (another migration, another segment count) is an error. */
export function readCheckpoint(dir: string, migration: string, segment: number, segments: number): Checkpoint | undefined {
  if (existsSync(dir)) {
    const other = readdirSync(dir).find((f) => /^segment-\d+-of-\d+\.json$/.test(f) && !f.endsWith(`-of-${segments}.json`));
    if (other) throw new CheckpointError(`${path.join(dir, other)} was made with another --segments; resume with the same count, or use another --checkpoints folder`);
  }
  const file = checkpointFile(dir, segment, segments);
  if (!existsSync(file)) return undefined;
  const checkpoint = JSON.parse(readFileSync(file, 'utf8')) as Checkpoint;
  if (checkpoint.migration !== migration) {
    throw new CheckpointError(`${file} belongs to migration ${checkpoint.migration}, not ${migration}; use another --checkpoints folder for this migration`);
  }
  return checkpoint;
}

/** Checkpoints as files in one folder, one per segment, each replaced whole (write, then rename). */
export class FileCheckpoints implements SegmentStore {
  private readonly skipped = new Map<number, SkippedItem[]>();
  private readonly dir: string;
  private readonly migration: string;
  private readonly segments: number;
  constructor(dir: string, migration: string, segments: number) {
    this.dir = dir;
    this.migration = migration;
    this.segments = segments;
  }

  async load(segment: number): Promise<SegmentState | undefined> {
    const checkpoint = readCheckpoint(this.dir, this.migration, segment, this.segments);
    this.skipped.set(segment, [...(checkpoint?.skipped ?? [])]);
    return checkpoint;
  }

  async save(segment: number, state: SegmentState, skipped: readonly SkippedItem[]): Promise<void> {
    const all = this.skippedOf(segment);
    all.push(...skipped);
    mkdirSync(this.dir, { recursive: true });
    const file = checkpointFile(this.dir, segment, this.segments);
    const checkpoint: Checkpoint = { migration: this.migration, segment, segments: this.segments, ...state, skipped: all };
    writeFileSync(`${file}.tmp`, `${JSON.stringify(checkpoint, null, 2)}\n`);
    renameSync(`${file}.tmp`, file);
  }

  /** Every item skipped in the segment, by this run and the runs before it. */
  skippedOf(segment: number): SkippedItem[] {
    let list = this.skipped.get(segment);
    if (!list) this.skipped.set(segment, (list = []));
    return list;
  }
}
