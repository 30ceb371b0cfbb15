// Hidden before the blocks that say prelude=seeds: the table over the docs test's client.
import { SeedsTable } from './out/seeds/index.js';
import { documentClient } from './docs-client.js';

const db = new SeedsTable(documentClient);
