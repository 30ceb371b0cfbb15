// Hidden before the blocks that say prelude=social-local: the Social table, created on the docs test's
// DynamoDB Local.
import { SocialTable, socialTableDefinition } from './out/social/index.js';
import { createTable, documentClient } from './docs-client.js';

await createTable(socialTableDefinition());
const db = new SocialTable(documentClient);
