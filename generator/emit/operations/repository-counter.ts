// Emits the counter methods of an entity whose non-key attributes are numbers (or optional):
// `increment` (atomic ADD, creating the item) and, when its items are spread over random shards,
// `sum` over every shard.

import { arr, as, id, jsDoc, keyword, objectType, print, str, typeRef } from '../ast.js';
import { attributesType, pathNames, runtimeType, type EntityScope } from '../entity/entity-scope.js';
import { indexInputs } from '../entity/entity-scope.js';
import { examplesOf } from '../examples/doc-examples.js';
import { delegate, example, gathersConstant, param, type Method } from './repository-crud.js';

/** The entity's counters when every attribute outside the key is a number or optional, and no index reads a counter. */
export function counters(scope: EntityScope): string[] {
  const { entity, primaryParts } = scope;
  const attributes = Object.keys(entity.attributes);
  const numbers = attributes.filter((a) => !primaryParts.includes(a) && entity.attributes[a]!.kind === 'number');
  const countable =
    scope.version === undefined &&
    numbers.length > 0 &&
    attributes.every((a) => primaryParts.includes(a) || entity.attributes[a]!.kind === 'number' || entity.attributes[a]!.optional) &&
    scope.indexPaths.every((p) => indexInputs(scope, p.index!.name).inputs.every((a) => primaryParts.includes(a)));
  return countable ? numbers : [];
}

export function emitCounters(scope: EntityScope): Method[] {
  const { entity, name, addressable } = scope;
  const names = counters(scope);
  if (!names.length) return [];
  const methods: Method[] = [
    {
      name: 'increment',
      docs: jsDoc(
        `Adds to ${names.join(', ')} atomically (ADD), creating the ${name} if it is absent with the other counters at 0.` +
          (addressable ? '' : ' Each call adds to one shard drawn at random; `sum` reads the total.'),
        [
          ...example(examplesOf(scope).increment(names)),
          { name: 'throws', text: 'AmbiguousWriteError if the outcome is unknown (timeout, 5xx): an increment is not idempotent, so it is not retried' },
          { name: 'throws', text: 'ValidationError if a delta is not a finite number' },
        ],
      ),
      parameters: [param('key', typeRef(`${name}Key`)), param('deltas', attributesType(scope, names, 'optional'))],
      returnType: print(typeRef('Promise', typeRef(name))),
      statements: delegate(scope, 'write', 'incrementItem', [id('key'), as(id('deltas'), typeRef('Record', keyword.string(), keyword.number())), arr(names.map(str))], typeRef('Promise', typeRef(name))),
    },
  ];
  if (gathersConstant(scope)) {
    methods.push({
      name: 'sum',
      docs: jsDoc(`${names.join(', ')} summed over every shard of one partition (one batched read of ${entity.key.shard!.count} keys); 0 where nothing was written.`, [
        ...example(examplesOf(scope).gatherKeys('sum')),
        { name: 'throws', text: 'BatchError (UnprocessedItemsError when retries make no progress) if the read stops early' },
      ]),
      parameters: [param('partition', typeRef(pathNames(scope, scope.primary).partitionType)), param('options', runtimeType(scope, 'read', 'ReadOptions'), { optional: true })],
      returnType: print(typeRef('Promise', objectType(names.map((c) => ({ name: c, type: keyword.number() }))))),
      statements: delegate(scope, 'gather', 'sumItems', [id('partition'), arr(names.map(str)), id('options')]),
    });
  }
  return methods;
}
