// Hidden before the blocks that say prelude=fans-local: the Fans table, created on the docs
// test's DynamoDB Local.
import { FansTable, fansTableDefinition } from './out/fans/index.js';
import { createTable, documentClient } from './docs-client.js';

await createTable(fansTableDefinition());
const db = new FansTable(documentClient);
