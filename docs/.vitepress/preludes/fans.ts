// Hidden before the blocks that say prelude=fans: the table over the docs test's client.
import { FansTable } from './out/fans/index.js';
import { documentClient } from './docs-client.js';

const db = new FansTable(documentClient);
