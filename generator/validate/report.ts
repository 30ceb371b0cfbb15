// What the checks of a table share: how a check reports a problem (a catalogue code, the schema
// path, the message's arguments), and DynamoDB's rule for table and index names.

import type { MessageCode, messages } from '../diagnostics/messages.js';

/**
 * DynamoDB's naming rule for tables and indexes: 3 to 255 characters of a-z, A-Z, 0-9, _, - and .
 * (AWS, "Supported data types and naming rules in Amazon DynamoDB").
 */
export const DYNAMODB_NAME = { min: 3, max: 255, characters: /^[A-Za-z0-9_.-]*$/ } as const;

/** Reports a problem: its catalogue code, its schema path, the message's arguments (and a character offset into the value, a severity other than error). */
export type Report = <C extends MessageCode>(code: C, path: readonly string[], args: Parameters<(typeof messages)[C]>, offset?: number, severity?: 'error' | 'info') => void;
