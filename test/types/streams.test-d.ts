// Compile-only: the Fans stream's events and handlers (fixtures/fans.ts, NEW_AND_OLD_IMAGES). Every
// entity and edge must be handled or ignored, a handler for no such entity is refused, the images
// present follow the event and the view type, and the decoder takes the records of both the Streams
// API client and the aws-lambda types.
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamHandler } from 'aws-lambda';
import type { _Record } from '@aws-sdk/client-dynamodb-streams';
import { decodeFansStreamRecord, handleFansStream, type FansStreamEvent, type User, type UserKey } from '../../out/fans/index.js';
import type { StreamEvent } from '../../out/fans/runtime/stream.js';

export function handlers(): void {
  // @ts-expect-error: Series is neither handled nor ignored
  handleFansStream({ User: 'ignore', Actor: 'ignore', Fan: 'ignore', unknown: 'ignore' });
  // @ts-expect-error: records of no declared entity must be handled or ignored too
  handleFansStream({ User: 'ignore', Actor: 'ignore', Series: 'ignore', Fan: 'ignore' });
  // @ts-expect-error: Movie is no entity or edge of Fans
  handleFansStream({ User: 'ignore', Actor: 'ignore', Series: 'ignore', Fan: 'ignore', unknown: 'ignore', Movie: 'ignore' });
  // @ts-expect-error: an entity's handlers name every event (here remove is missing)
  handleFansStream({ User: { insert: 'ignore', modify: 'ignore' }, Actor: 'ignore', Series: 'ignore', Fan: 'ignore', unknown: 'ignore' });
  // @ts-expect-error: 'skip' is not 'ignore'
  handleFansStream({ User: 'skip', Actor: 'ignore', Series: 'ignore', Fan: 'ignore', unknown: 'ignore' });

  // Each handler receives its own event, with the images that event has.
  const handler: DynamoDBStreamHandler = handleFansStream({
    User: {
      insert: (change) => {
        const name: string = change.newItem.name;
        // @ts-expect-error: an insert has no old item
        const before: User = change.oldItem;
        void name, before;
      },
      modify: (change) => void [change.newItem.name, change.oldItem.name],
      remove: (change) => void [change.oldItem.name, change.expired],
    },
    Actor: (change) => void change.key.id.toFixed(),
    Series: 'ignore',
    Fan: (change) => {
      const from: 'User' | 'Actor' | 'Series' = change.key.from.type;
      const side: 'forward' | 'inverse' = change.side;
      if (change.event !== 'remove') void change.newItem.since.getTime();
      void from, side;
    },
    unknown: (change) => void change.key['pk'],
  });
  void handler;
}

export function events(record: DynamoDBRecord, sdk: _Record): DynamoDBBatchResponse | void {
  const change: FansStreamEvent = decodeFansStreamRecord(record);
  decodeFansStreamRecord(sdk);
  if (change.entity === 'User' && change.event === 'modify') {
    const key: UserKey = change.key;
    const after: User = change.newItem;
    const before: User = change.oldItem;
    void key, after, before;
  }
  if (change.entity === 'Fan' && change.key.from.type === 'User') void change.key.from.id.toFixed();
  if (change.entity === undefined) void change.key;
  // @ts-expect-error: an entity is named by the schema's spelling
  if (change.entity === 'user') return;
}

export function views(keysOnly: StreamEvent<'User', UserKey, User, 'keys-only'>, oldImage: StreamEvent<'User', UserKey, User, 'old-image'>): void {
  const key: UserKey = keysOnly.key;
  // @ts-expect-error: a keys-only stream carries no images
  void keysOnly.newItem;
  // @ts-expect-error: an old-image stream carries no new item
  void oldImage.newItem;
  if (oldImage.event === 'remove') void oldImage.oldItem.name;
  void key;
}
