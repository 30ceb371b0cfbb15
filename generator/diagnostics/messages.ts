// Every user-facing validation message, in one catalogue keyed by stable code. Each entry returns
// what was found and a concrete fix; tests assert these strings. The catalogue is written in parts
// by area (schema-messages.ts, change-messages.ts, settings-messages.ts, pull-messages.ts,
// lint-messages.ts, explanations.ts) and is assembled here, in code order as it was written: the
// rest of ddbgen reads it from this module only.

import { changeMessages } from './change-messages.js';
import { pullMessages } from './pull-messages.js';
import { schemaMessages } from './schema-messages.js';
import { settingsMessages } from './settings-messages.js';

export { explanations, type Explanation } from './explanations.js';
export { lintMessages, OBSERVED_CODES } from './lint-messages.js';
export { pullWarnings, type PullWarning } from './pull-messages.js';

export const messages = { ...schemaMessages, ...changeMessages, ...settingsMessages, ...pullMessages };

export type MessageCode = keyof typeof messages;
