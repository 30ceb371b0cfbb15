// Hidden before the blocks that say prelude=app: the table over the docs test's client.
import { AppTable } from './out/app/index.js';
import { documentClient } from './docs-client.js';

const db = new AppTable(documentClient);
