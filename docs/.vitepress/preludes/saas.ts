// Hidden before the blocks that say prelude=saas: the table over the docs test's client.
import { SaasTable } from './out/saas/index.js';
import { documentClient } from './docs-client.js';

const db = new SaasTable(documentClient);
