// ts-morph (and the TypeScript it carries) for the emitters and the type check, loaded with
// require: an ES import of a CommonJS module makes Node lex its text, and the text of all it
// re-exports, for named exports on every start — a tenth of a second for ts-morph. Types come from
// `import type … from 'ts-morph'` (TypeScript's as `TS`), which loads nothing.

import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const morph = require('ts-morph') as typeof import('ts-morph');

export const { ts, StructureKind, VariableDeclarationKind, printStructure, Project } = morph;
export const { getLibFiles } = require('@ts-morph/common') as typeof import('@ts-morph/common');
