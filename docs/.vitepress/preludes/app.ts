// Hidden before the blocks that say prelude=app: the table's context over the docs test's client,
// and the operations the blocks call.
import { createAppContext, orderQuery } from './out/app/index.js';
import { documentClient } from './docs-client.js';

const db = createAppContext(documentClient);
