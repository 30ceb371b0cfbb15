// Emits a method per declared access pattern (`recentArticles`) and its async iterator.

import { binary, call, id, intersection, jsDoc, literal, nonNull, obj, objWithSpreads, path, print, prop, returns, str, typeRef, type Expression } from '../ast.js';
import { pathNames, runtimeType, runtimeValue, type EntityScope } from '../entity/entity-scope.js';
import { patternParamsType } from '../entity/item-types.js';
import { itemsOf, iterate, pageOf, queryPageAs, recordMapper } from './repository-index-query.js';
import { examplesOf } from '../examples/doc-examples.js';
import { example, param, type Method } from './repository-crud.js';

export function emitPatterns(scope: EntityScope): Method[] {
  const { name } = scope;
  const methods: Method[] = [];
  for (const resolved of scope.patterns) {
    const { pattern, path: access, op, before } = resolved;
    const names = pathNames(scope, access);
    const gsi = access.index?.kind === 'gsi';
    const pageOptions = runtimeType(scope, 'read', 'PageOptions');
    const options = gsi ? pageOptions : intersection([pageOptions, runtimeType(scope, 'read', 'ReadOptions')]);
    const keySpace: Expression = access.index ? id(names.indexModel!) : id(scope.model);
    const sk =
      access.sk === undefined
        ? undefined
        : obj([
            ['attribute', prop(nonNull(prop(keySpace, 'sk')), 'attribute')],
            [
              'condition',
              call(runtimeValue(scope, 'read', 'patternCondition'), [
                prop(nonNull(prop(keySpace, 'sk')), 'template'),
                pattern.sk === undefined ? id('params') : objWithSpreads([['...', id('params')], [pattern.sk, id('undefined')]]),
                pattern.sk === undefined ? id('undefined') : str(pattern.sk),
                str(op),
                pattern.sk === undefined ? id('undefined') : prop('params', pattern.sk),
              ]),
            ],
          ]);
    const request = obj([
      ['scope', str(`${name}.${pattern.name}`)],
      ['indexName', access.index ? str(access.index.indexName ?? access.index.name) : undefined],
      ['pk', prop(keySpace, 'pk')],
      ['partition', pattern.sk !== undefined && access.partition.includes(pattern.sk) ? call(runtimeValue(scope, 'read', 'patternPartition'), [prop(keySpace, 'pk'), id('params'), str(pattern.sk), str(op)]) : id('params')],
      ['sk', sk],
      ['params', id('params')],
      ['keyAttributes', call(runtimeValue(scope, 'read', 'keyAttributesOf'), [id(scope.model), access.index ? id(names.indexModel!) : id('undefined')])],
      ['order', str(pattern.order ?? 'asc')],
      ['consistent', gsi ? literal(false) : binary(path('options.consistent'), '===', literal(true))],
      ['owner', id(scope.model)],
    ]);
    const describe = [pattern.sk ? `${pattern.sk} ${op}` : 'the whole partition', access.index ? `on index ${access.index.name}` : 'on the table', pattern.order === 'desc' ? 'newest (greatest) first' : 'in sort-key order'].join(', ');
    const params = param('params', typeRef(patternParamsType(scope, pattern.name)));
    methods.push(
      {
        name: pattern.name,
        docs: jsDoc(`Pattern ${pattern.name}: ${name} items, ${describe}.${before.length ? ` Fixes ${before.join(', ')} first.` : ''}`, [
          ...example(examplesOf(scope).pattern(resolved)),
          { name: 'throws', text: 'KeyValueError before any request if a parameter is missing or invalid; CursorError if `cursor` is not one this pattern returned' },
        ]),
        parameters: [params, param('options', options, { initializer: '{}' })],
        returnType: print(pageOf(scope, names.itemType)),
        statements: returns(queryPageAs(scope, access, names.itemType, request, recordMapper(scope, access))),
        isAsync: true,
      },
      {
        name: `${pattern.name}All`,
        docs: jsDoc(`Every item of pattern ${pattern.name}, page after page (from \`options.cursor\` if given), as an async iterator.`, example(examplesOf(scope).iterated(pattern.name))),
        parameters: [params, param('options', options, { initializer: '{}' })],
        returnType: print(itemsOf(scope, names.itemType)),
        statements: iterate(scope, pattern.name, 'params', names.itemType),
      },
    );
  }
  return methods;
}
