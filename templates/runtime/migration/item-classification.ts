// What one scanned item needs: the migrated entity or edge it belongs to in its old form, or why it
// is left alone (already new, or of an entity or edge the migration does not change) or skipped.

import { hasDiscriminator } from '../item.js';
import { classifyEdge, type EdgeMove } from './edge-classification.js';
import { keysOf } from './item-rebuild.js';
import type { MigratedEntity, MigrationPlan, OldEntityModel } from './plan.js';

/** Whether the model's table-key templates parse the stored item's keys. */
function owns(model: OldEntityModel, stored: Readonly<Record<string, unknown>>): boolean {
  if (!hasDiscriminator(model, stored)) return false;
  try {
    if (typeof stored[model.pk.attribute] !== 'string') return false;
    const keys = keysOf(model);
    keys.pk.parse(stored[model.pk.attribute] as string);
    if (model.sk) {
      if (typeof stored[model.sk.attribute] !== 'string') return false;
      keys.sk!.parse(stored[model.sk.attribute] as string);
    }
    return true;
  } catch {
    return false;
  }
}

/** What one stored item needs: the migrated entity or edge it belongs to (old form), or why it is left alone. */
export function classify(plan: MigrationPlan, stored: Readonly<Record<string, unknown>>): { entity: MigratedEntity } | { move: EdgeMove } | { leave: 'current' | 'unchanged' } | { skip: string } {
  for (const edge of plan.edges) {
    const what = classifyEdge(edge, plan.decode, stored);
    if (what) return what;
  }
  for (const entity of plan.entities) if (owns(entity.from, stored)) return { entity };
  if (plan.entities.some((e) => owns(e.to, stored))) return { leave: 'current' };
  if (plan.unchanged.some((m) => owns(m, stored))) return { leave: 'unchanged' };
  const skAttribute = plan.entities[0]?.from.sk?.attribute;
  const sk = skAttribute === undefined ? undefined : stored[skAttribute];
  if (typeof sk === 'string' && plan.edgePrefixes.some((prefix) => sk.startsWith(prefix))) return { leave: 'unchanged' };
  return { skip: 'its keys match no entity of the old schema' };
}
