// Emits `mark<Index>` / `clear<Index>` for each sparse index of an entity: an index whose key reads
// optional attributes holds the item only while they are set.

import { arr, id, jsDoc, obj, print, str, typeRef } from '../ast.js';
import { an, attributesType, runtimeType, type EntityScope } from '../entity/entity-scope.js';
import { indexInputs } from '../entity/entity-scope.js';
import { pascalCase } from '../context.js';
import { examplesOf } from '../examples/doc-examples.js';
import { delegate, example, param, type Method } from './repository-crud.js';

export function emitSparseIndexes(scope: EntityScope): Method[] {
  const { name, version } = scope;
  if (!scope.addressable) return [];
  const item = typeRef(name);
  // a function: importing VersionedWriteOptions only where a sparse index takes it
  const options = () => (version === undefined ? [] : [param('options', runtimeType(scope, 'write', 'VersionedWriteOptions', item, typeRef(scope.conditionType)))]);
  const passOptions = version === undefined ? [] : [id('options')];
  return scope.indexPaths.flatMap((access): Method[] => {
    const index = access.index!.name;
    const { inputs, optional } = indexInputs(scope, index);
    if (!optional.length) return [];
    // An update cannot read the stored item: the index key's other inputs outside the primary key
    // are set again with the optional ones, so the key is built from values the call gives.
    const others = inputs.filter((a) => !optional.includes(a) && !scope.primaryParts.includes(a));
    const marked = [...optional, ...others];
    const alsoRead = others.length ? ` (and ${others.join(', ')}, which its key also reads)` : '';
    const suffix = pascalCase(index);
    const throws = { name: 'throws' as const, text: 'ItemNotFoundError if there is none' };
    return [
      {
        name: `mark${suffix}`,
        docs: jsDoc(`Puts ${an(name)} into sparse index ${index} by setting ${optional.join(', ')}${alsoRead}; its index key is written in the same request.`, [...example(examplesOf(scope).sparse(`mark${suffix}`, marked, true)), throws]),
        parameters: [param('key', typeRef(`${name}Key`)), param('values', attributesType(scope, marked, 'required')), ...options()],
        returnType: print(typeRef('Promise', item)),
        statements: delegate(scope, 'write', 'updateItem', [id('key'), obj([['set', id('values')]]), ...passOptions], typeRef('Promise', item)),
      },
      {
        name: `clear${suffix}`,
        docs: jsDoc(`Takes ${an(name)} out of sparse index ${index}: removes ${optional.join(', ')} and its index key attributes.`, [...example(examplesOf(scope).sparse(`clear${suffix}`, optional, false)), throws]),
        parameters: [param('key', typeRef(`${name}Key`)), ...options()],
        returnType: print(typeRef('Promise', item)),
        statements: delegate(scope, 'write', 'updateItem', [id('key'), obj([['remove', arr(optional.map(str))]]), ...passOptions], typeRef('Promise', item)),
      },
    ];
  });
}
