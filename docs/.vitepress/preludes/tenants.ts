// Hidden before the blocks that say prelude=tenants: the table over the docs test's client.
import { TenantsTable } from './out/tenants/index.js';
import { documentClient } from './docs-client.js';

const db = new TenantsTable(documentClient);
