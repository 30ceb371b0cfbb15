// Hidden before the blocks that say prelude=social: the table over the docs test's client.
import { SocialTable } from './out/social/index.js';
import { documentClient } from './docs-client.js';

const db = new SocialTable(documentClient);
