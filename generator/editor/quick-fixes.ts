// The quick fixes the engine offers: a placeholder renamed to the closest attribute (DDB030), a
// range for a number in a key (DDB034), and a key sharded as the lint computed, each as text edits
// made on the schema module's syntax tree.

import { Node } from 'ts-morph';
import type { TableDef } from '../../dsl/ir.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { distance } from '../diagnostics/closest.js';
import type { ShardChange } from '../lint/describe.js';
import { SchemaLocator, unwrap } from '../load/locate.js';
import { KEYABLE_KINDS } from '../model/key-segments.js';
import type { EditorDiagnostic, EditorFix, TextEdit } from './editor-answers.js';

/** Fixes for validation codes with a mechanical fix: a placeholder renamed to the closest attribute (DDB030), a range for a number in a key (DDB034). */
export function validationFixes(d: Diagnostic, at: EditorDiagnostic, table: TableDef, locator: SchemaLocator, tableIndex: number, source: string): EditorFix[] {
  const [, entityName] = d.target.split('.').slice(1);
  const entity = entityName === undefined ? undefined : table.entities[entityName];
  if (!entity) return [];
  if (d.code === 'DDB030' && source[at.start] === '<') {
    const name = /^<([^:>]*)/.exec(source.slice(at.start, at.start + at.length))?.[1] ?? '';
    const keyable = Object.entries(entity.attributes).filter(([, a]) => (KEYABLE_KINDS as readonly string[]).includes(a.kind)).map(([n]) => n);
    const ranked = keyable.map((c) => ({ c, d: distance(name.toLowerCase(), c.toLowerCase()) })).sort((a, b) => a.d - b.d);
    const best = ranked[0];
    if (!best || best.d > Math.max(2, Math.ceil(name.length / 2))) return [];
    return [{ title: `Rename <${name}> to <${best.c}>, the closest attribute of ${entity.name}`, codes: [d.code], start: at.start, length: at.length, edits: [{ start: at.start + 1, end: at.start + 1 + name.length, newText: best.c }] }];
  }
  if (d.code === 'DDB034' && source[at.start] === '<') {
    const name = /^<([^:>]*)/.exec(source.slice(at.start, at.start + at.length))?.[1] ?? '';
    const def = entity.attributes[name];
    if (def?.kind !== 'number' || (def.min !== undefined && def.max !== undefined)) return [];
    const declared = locator.nodeAt(tableIndex, ['entities', entity.name, 'attributes', name]);
    const edit = declared && numberRangeEdit(declared, def.min, def.max);
    return edit ? [{ title: `Give ${entity.name}.${name} a range: ${edit.added} (numbers in keys are encoded fixed-width)`, codes: [d.code], start: at.start, length: at.length, edits: [edit.edit] }] : [];
  }
  return [];
}

/** The edit that gives `t.number(…)` at `declared` a min and a max: `{ min: 0, max: 1e12 }` for the ones missing. */
function numberRangeEdit(declared: Node, min: number | undefined, max: number | undefined): { edit: TextEdit; added: string } | undefined {
  let call: Node | undefined = Node.isPropertyAssignment(declared) ? declared.getInitializer() : undefined;
  // through modifiers such as .optional(): t.number(…).optional()
  for (let i = 0; call && i < 5; i++) {
    if (!Node.isCallExpression(call)) return undefined;
    const callee = call.getExpression();
    if (Node.isPropertyAccessExpression(callee) && callee.getName() === 'number') break;
    call = Node.isPropertyAccessExpression(callee) ? callee.getExpression() : undefined;
  }
  if (!call || !Node.isCallExpression(call)) return undefined;
  const missing = [...(min === undefined ? [`min: 0`] : []), ...(max === undefined ? [`max: ${min !== undefined && min > 1e12 ? min * 10 : '1e12'}`] : [])];
  if (!missing.length) return undefined;
  const added = missing.join(', ');
  const [options] = call.getArguments();
  if (!options) {
    const close = call.getEnd() - 1;
    return { edit: { start: close, end: close, newText: `{ ${added} }` }, added };
  }
  if (!Node.isObjectLiteralExpression(options)) return undefined;
  const properties = options.getProperties();
  if (!properties.length) return { edit: { start: options.getStart(), end: options.getEnd(), newText: `{ ${added} }` }, added };
  const first = properties[0]!.getStart();
  return { edit: { start: first, end: first, newText: `${added}, ` }, added };
}

/** The quick fix for a lint finding whose fix is a schema change: the key's pk and shard set to what the lint computed. */
export function shardFix(change: ShardChange, at: EditorDiagnostic, locator: SchemaLocator, tableIndex: number, text: string): EditorFix | undefined {
  const keyNode = locator.nodeAt(tableIndex, change.target);
  const object = unwrap(keyNode);
  if (!object || !Node.isObjectLiteralExpression(object)) return undefined;
  const edits: TextEdit[] = [];
  const pk = object.getProperty('pk');
  const shard = `{ count: ${change.shard.count}${change.shard.random ? ', random: true' : ''} }`;
  if (!pk || !Node.isPropertyAssignment(pk)) return undefined;
  const value = pk.getInitializer();
  if (!value || !(Node.isStringLiteral(value) || Node.isNoSubstitutionTemplateLiteral(value))) return undefined;
  if (value.getLiteralValue() !== change.pk) {
    const quote = text[value.getStart()] ?? "'";
    edits.push({ start: value.getStart(), end: value.getEnd(), newText: `${quote}${change.pk.replace(new RegExp(`[\\\\${quote}]`, 'g'), (c) => `\\${c}`)}${quote}` });
  }
  const existing = object.getProperty('shard');
  if (existing && Node.isPropertyAssignment(existing) && existing.getInitializer()) {
    const init = existing.getInitializer()!;
    edits.push({ start: init.getStart(), end: init.getEnd(), newText: shard });
  } else if (!existing) {
    const last = object.getProperties().at(-1)!;
    edits.push({ start: last.getEnd(), end: last.getEnd(), newText: `, shard: ${shard}` });
  } else return undefined;
  edits.sort((a, b) => b.start - a.start);
  return { title: `Shard the key as the lint computed: pk "${change.pk}" with shard: ${shard}`, codes: [at.code], start: at.start, length: at.length, edits };
}
