// The Lambda handler of the guide's Streams page (docs/guide/streams.md), verbatim
// (test/connected/streams.test.ts runs it on DynamoDB Local's stream and checks the page still
// shows this code).

import { handleFansStream } from '../out/fans/index.js';

export const handler = handleFansStream({
  User: {
    insert: (change) => console.log(`welcome ${change.newItem.name}`),
    modify: (change) => console.log(`${change.oldItem.name} is now ${change.newItem.name}`),
    remove: (change) => console.log(`goodbye ${change.oldItem.name}${change.expired ? ' (expired)' : ''}`),
  },
  Actor: { insert: 'ignore', modify: 'ignore', remove: (change) => console.log(`actor ${change.key.id} ${change.expired ? 'expired' : 'deleted'}`) },
  Series: 'ignore',
  Fan: (change) => {
    if (change.side === 'forward') console.log(`${change.key.from.type} ${change.key.from.id} ${change.event === 'remove' ? 'is no longer a fan of' : 'is a fan of'} ${change.key.to.type} ${change.key.to.id}`);
  },
  unknown: (change) => console.log(`not a Fans item: ${JSON.stringify(change.key)}`),
});
