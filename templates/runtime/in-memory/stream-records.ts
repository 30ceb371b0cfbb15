// The stream records of the in-memory engine, as DynamoDB Streams delivers them: one per change
// that changes something, with the images the table's view type keeps; a Time to Live deletion
// is marked as the service's.

import type { InMemoryStreamRecord } from './options.js';
import type { Change, Table } from './stored-table.js';
import { copyMap, equalMaps, itemBytes } from './value.js';

/** The stream record of a change, in the table's view type; none when the table has no stream or the write changes nothing. */
export function streamRecord(table: Table, change: Change, expired: boolean, engine: { readonly region: string; now(): number; sequence(): number }): InMemoryStreamRecord | undefined {
  const view = table.streamView;
  if (!view) return undefined;
  const { old, item } = change;
  if (old && item && equalMaps(old, item)) return undefined; // DynamoDB writes no record for a write that changes nothing
  const keys = table.keyOf((item ?? old)!);
  const NewImage = item && (view === 'NEW_IMAGE' || view === 'NEW_AND_OLD_IMAGES') ? copyMap(item) : undefined;
  const OldImage = old && (view === 'OLD_IMAGE' || view === 'NEW_AND_OLD_IMAGES') ? copyMap(old) : undefined;
  const sequence = String(engine.sequence()).padStart(21, '0');
  const record: InMemoryStreamRecord = {
    eventID: `${sequence.slice(-12)}-${table.name}`,
    eventName: !old ? 'INSERT' : !item ? 'REMOVE' : 'MODIFY',
    eventVersion: '1.1',
    eventSource: 'aws:dynamodb',
    awsRegion: engine.region,
    dynamodb: {
      ApproximateCreationDateTime: new Date(Math.floor(engine.now() / 1000) * 1000),
      Keys: copyMap(keys),
      ...(NewImage ? { NewImage } : {}),
      ...(OldImage ? { OldImage } : {}),
      SequenceNumber: sequence,
      SizeBytes: itemBytes(keys) + (NewImage ? itemBytes(NewImage) : 0) + (OldImage ? itemBytes(OldImage) : 0),
      StreamViewType: view,
    },
    ...(expired ? { userIdentity: { PrincipalId: 'dynamodb.amazonaws.com', Type: 'Service' } as const } : {}),
  };
  return record;
}

