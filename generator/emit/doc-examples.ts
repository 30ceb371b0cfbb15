// The `@example` of a repository method: a call with sample values and the request it sends, the
// request computed by the runtime's own key codec (KeyTemplate) from the entity's templates, so an
// example shows what the method really sends and cannot drift from it.

import type { AttributeDef } from '../../dsl/ir.js';
import { KeyTemplate } from '../../templates/runtime/codec.js';
import { awaitExpr, call, construct, literal, obj, path, print, str, type DocTag, type Expression } from './ast.js';
import { camelCase } from './context.js';
import type { EntityScope } from './entity-scope.js';
import { formatModule, LINE_WIDTH } from './format.js';
import { entityTemplates } from './key-builders.js';

/** A sample value of an attribute: its name for a string, the first enum value, the smallest number, a fixed instant. */
function sample(name: string, def: AttributeDef): { value: unknown; code: Expression } {
  switch (def.kind) {
    case 'enum':
      return { value: def.values[0], code: str(def.values[0]!) };
    case 'number': {
      const value = Math.max(def.min ?? 1, Math.min(def.max ?? 1, 1));
      return { value, code: literal(value) };
    }
    case 'boolean':
      return { value: true, code: literal(true) };
    case 'timestamp': {
      const value = new Date(Date.UTC(2024, 0, 15, 9, 30));
      return { value, code: construct('Date', [str(value.toISOString())]) };
    }
    default:
      return { value: `${name}-1`, code: str(`${name}-1`) };
  }
}

/** Source laid out for a doc comment (its indent and ` * ` taken off the width). */
const layout = (code: string) => formatModule('example.ts', code, LINE_WIDTH - 6).trimEnd();

/** `@example` of a method that takes the item's key: the call, then the Key of the command it sends. */
export function keyExample(scope: EntityScope, method: string, command: string): DocTag | undefined {
  if (!scope.addressable) return undefined;
  const templates = entityTemplates(scope);
  const values = Object.fromEntries(scope.primaryParts.map((name) => [name, sample(name, scope.entity.attributes[name]!)]));
  const plain = Object.fromEntries(Object.entries(values).map(([name, s]) => [name, s.value]));
  const { table } = scope.ctx;
  const key: Record<string, string> = { [table.key.pk]: new KeyTemplate(templates.pk).build(plain) };
  if (templates.sk && table.key.sk !== undefined) key[table.key.sk] = new KeyTemplate(templates.sk).build(plain);
  const callText = print(awaitExpr(call(path(`db.${camelCase(scope.name)}.${method}`), [obj(Object.entries(values).map(([name, s]) => [name, s.code]))])));
  const request = layout(`(${print(literal({ TableName: table.name, Key: key }))});`).replace(/^\(|\);$/g, '');
  return { name: 'example', text: `\n${layout(`${callText};`)}\n// sends ${command}:\n${request.split('\n').map((line) => `// ${line}`).join('\n')}` };
}
